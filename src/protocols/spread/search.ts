import type { WaverConfig } from '../../config/schema.js';
import { type RunResult, runSuite } from '../../run/run-suite.js';
import type { Store } from '../../store/store.js';
import { deriveSeed, PyRandom } from '../../util/random.js';
import type { PooledOptions } from '../types.js';
import { budgetCells, type SpreadSettings } from './config.js';
import { createThompsonSearch } from './estimators/index.js';
import { type ScoringNote, scoreOptions, storedOptionScores, withStore } from './option-scores.js';
import type { SpreadPlan } from './plan-grid.js';
import { scoreSpreadCell } from './results.js';
import { buildSpreadSuite, type SpreadTest } from './suite.js';
import { CELLS_SUITE, SEARCH_SUITE } from './suite-names.js';

/**
 * `--search best|worst` (docs/spread.md#search): FormatSpread's Thompson sampling drives which
 * template is asked next, a round of one pick per template at a time; each template's items come
 * in a seeded order. Every round is a suite of the engine (store, cache, resume): after a kill the
 * same command replays the stored rounds without a call and goes on. The cells chosen end as the
 * model's `spread/cells` suite, answered from the store.
 */

interface Cell {
  template: number;
  item: number;
}

function itemOrders(plan: SpreadPlan, seed: number): number[][] {
  return plan.grid.templates.map((_, t) => {
    const order = plan.grid.items.map((_, i) => i);
    new PyRandom(deriveSeed(seed, 'spread-search', t)).shuffle(order);
    return order;
  });
}

/** A round's picks: one Thompson draw per template slot, skipping templates whose items are spent. */
function pickRound(
  search: ReturnType<typeof createThompsonSearch>,
  orders: number[][],
  next: number[],
  size: number,
): Cell[] {
  const picks: Cell[] = [];
  for (let k = 0; k < size * 4 && picks.length < size; k++) {
    const t = search.next();
    const i = orders[t]?.[next[t] ?? 0];
    if (i === undefined) continue;
    next[t] = (next[t] ?? 0) + 1;
    picks.push({ template: t, item: i });
  }
  return picks;
}

/** One model's search; the final suite's run, or the round's run that stopped. */
export async function searchModel(
  config: WaverConfig,
  settings: SpreadSettings,
  plan: SpreadPlan,
  model: WaverConfig['models'][number],
  opts: PooledOptions,
): Promise<{ run: RunResult; notes: ScoringNote[] }> {
  const target = settings.search ?? 'best';
  const one: WaverConfig = { ...config, models: [model], repeats: 1 };
  const nT = plan.grid.templates.length;
  const budget = budgetCells(settings.budget, nT, plan.grid.items.length);
  const search = createThompsonSearch({ nArms: nT, seed: config.seed, target });
  const orders = itemOrders(plan, config.seed);
  const next = new Array<number>(nT).fill(0);
  const chosen: Cell[] = [];
  while (chosen.length < budget) {
    const picks = pickRound(search, orders, next, Math.min(nT, budget - chosen.length));
    if (picks.length === 0) break;
    const round = buildSpreadSuite(SEARCH_SUITE, plan.grid, picks);
    const run = await runSuite(one, round, { ...opts, onRunEnd: undefined });
    if (run.summary.aborted) return { run, notes: [] };
    const rewards = await withStore(run, async (store) => {
      await scoreOptions(store, one, settings, run, round.tests, opts);
      return roundRewards(store, run, round.tests);
    });
    for (const r of rewards) search.update(r.template, r.reward);
    chosen.push(...picks);
  }
  const final = buildSpreadSuite(CELLS_SUITE, plan.grid, chosen);
  const run = await runSuite(one, final, opts);
  if (run.summary.aborted) return { run, notes: [] };
  const notes = await withStore(run, (store) => scoreOptions(store, one, settings, run, final.tests, opts));
  return { run, notes };
}

/** A round's answered cells as rewards; a failed cell is no evidence of its template. */
function roundRewards(store: Store, run: RunResult, tests: readonly SpreadTest[]) {
  const byId = new Map(tests.map((t) => [t.id, t]));
  const out: { template: number; reward: number }[] = [];
  for (const cell of store.cells.all({ suiteHash: run.suite.hash, status: 'done' })) {
    const test = byId.get(cell.testId);
    if (!test) continue;
    const scores = storedOptionScores(store, cell.modelIdentity, test);
    const scored = scoreSpreadCell(test, cell.repeat, cell.status, cell.response?.text, undefined, scores);
    out.push({ template: scored.template, reward: scored.correct ? 1 : 0 });
  }
  return out;
}
