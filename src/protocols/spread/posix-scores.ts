import type { WaverConfig } from '../../config/schema.js';
import type { ScoreRequest, ScoreResult } from '../../models/types.js';
import { auxGet, auxPut } from '../../run/aux-cache.js';
import { auxEstimate, type ModelEstimate } from '../../run/estimate.js';
import { plannedModels } from '../../run/plan.js';
import type { RunResult } from '../../run/run-suite.js';
import type { Store } from '../../store/store.js';
import type { PooledOptions } from '../types.js';
import { posixIndex, posixSummary } from './estimators/index.js';
import { scoringModels } from './option-scores.js';
import type { SpreadTest } from './suite.js';

/**
 * POSIX (docs/spread.md#posix, Chatterjee et al. 2024) over the cells a spread run asked: per item,
 * the templates observed on it are its intent-aligned prompts x_j, the reply each gave is y_j, and
 * log P(y_k | x_j) is scored teacher-forced for every ordered pair (the diagonal gives each reply's
 * own log-likelihood and its length in tokens). The scores go through the model's one call path
 * and the store's cache, so a rerun or a report rebuilds the index from the store alone. Opt-in
 * (`--posix`): an item observed under J templates costs J x J score calls (docs/decisions.md E59).
 */

export type PosixFigure =
  | { value: number; lo: number | undefined; hi: number | undefined; items: number; variant: 'paper' }
  | { unavailable: string };

/** One item's observed prompts and the replies to them, a template each. */
export interface PosixGroup {
  item: number;
  prompts: string[];
  replies: string[];
}

function posixRequest(prompt: string, reply: string): ScoreRequest {
  return { messages: [{ role: 'user', content: prompt }], continuation: reply };
}

/** The row that records why a model has no POSIX (a chat-only API), so a report can say it. */
const unavailableKey = (suiteHash: string) => ({ posixUnavailable: suiteHash });

/** Per item, the templates answered with a non-empty reply; items with fewer than 2 cannot be compared. */
export function posixGroups(
  cells: Iterable<{ testId: string; reply: string | undefined }>,
  tests: ReadonlyMap<string, SpreadTest>,
): PosixGroup[] {
  const byItem = new Map<number, PosixGroup>();
  for (const c of cells) {
    const test = tests.get(c.testId);
    if (!test || !c.reply) continue;
    const item = test.meta.item.index;
    const group = byItem.get(item) ?? { item, prompts: [], replies: [] };
    group.prompts.push(test.prompt);
    group.replies.push(c.reply);
    byItem.set(item, group);
  }
  return [...byItem.values()].filter((g) => g.prompts.length >= 2).sort((a, b) => a.item - b.item);
}

function* doneCells(store: Store, run: RunResult, identity: string) {
  for (const c of store.cells.all({ suiteHash: run.suite.hash, modelIdentity: identity, status: 'done' }))
    yield { testId: c.testId, reply: c.response?.text };
}

/** Scores every pair of each item's replies for the run's models that score text; records why for the others. */
export async function scorePosix(
  store: Store,
  config: WaverConfig,
  run: RunResult,
  suiteTests: readonly SpreadTest[],
  opts: PooledOptions,
): Promise<void> {
  const tests = new Map(suiteTests.map((t) => [t.id, t]));
  for (const model of await scoringModels(store, config, run, opts)) {
    const { score } = model;
    if (!score) {
      auxPut(store, 'measure', model.identity, unavailableKey(run.suite.hash), {
        reason: `${model.reason}: POSIX needs log P(reply | prompt)`,
      });
      continue;
    }
    for (const g of posixGroups(doneCells(store, run, model.identity), tests)) {
      opts.signal?.throwIfAborted();
      // A pair the model cannot score leaves its item out of the index, counted as dropped. A
      // prompt's row at a time: J x J calls at once would pile listeners on the one abort signal.
      for (const p of g.prompts)
        await Promise.all(
          g.replies.map((y) => score(posixRequest(p, y), { signal: opts.signal }).catch(() => undefined)),
        );
    }
  }
}

/** One item's matrix from the store (logprob[j][k] = log P(y_k | x_j)), or undefined unless every pair is stored. */
function storedPosixInput(
  store: Store,
  identity: string,
  g: PosixGroup,
): { logprob: number[][]; responseTokens: number[] } | undefined {
  const logprob: number[][] = [];
  const responseTokens: number[] = [];
  for (const [j, p] of g.prompts.entries()) {
    const row: number[] = [];
    for (const [k, y] of g.replies.entries()) {
      const s = auxGet<ScoreResult>(store, 'score', identity, posixRequest(p, y));
      if (s === undefined || !Number.isFinite(s.logprob)) return undefined;
      row.push(s.logprob);
      if (j === k) responseTokens.push(s.tokens.length);
    }
    logprob.push(row);
  }
  return responseTokens.every((n) => n > 0) ? { logprob, responseTokens } : undefined;
}

/** A model's POSIX from the store: the paper's index per item, their mean with a t interval; or why not. */
export function posixFromStore(
  store: Store,
  suiteHash: string,
  identity: string,
  groups: readonly PosixGroup[],
  level: number,
): PosixFigure {
  const why = auxGet<{ reason: string }>(store, 'measure', identity, unavailableKey(suiteHash));
  if (why) return { unavailable: why.reason };
  const perItem: number[] = [];
  for (const g of groups) {
    const input = storedPosixInput(store, identity, g);
    if (input) perItem.push(posixIndex(input));
  }
  if (perItem.length === 0) {
    return {
      unavailable:
        groups.length === 0
          ? 'no item was answered under 2 or more templates'
          : 'no scores stored: run with --posix on a model that scores text',
    };
  }
  const s = posixSummary(perItem, level);
  return { value: s.value, lo: s.lo, hi: s.hi, items: s.n, variant: 'paper' };
}

/** `--dry-run`: at most J x J score calls per item observed under J templates (empty replies are skipped). */
export function estimatePosix(config: WaverConfig, tests: readonly SpreadTest[]): ModelEstimate[] {
  const perItem = new Map<number, { n: number; chars: number }>();
  for (const t of tests) {
    const e = perItem.get(t.meta.item.index) ?? { n: 0, chars: 0 };
    perItem.set(t.meta.item.index, { n: e.n + 1, chars: e.chars + t.prompt.length });
  }
  let calls = 0;
  let input = 0;
  for (const { n, chars } of perItem.values()) {
    if (n < 2) continue;
    calls += n * n;
    // Each prompt is scored once per reply of its item, ~4 characters a token.
    input += Math.ceil((n * chars) / 4);
  }
  if (calls === 0) return [];
  return plannedModels(config).map((m) =>
    auxEstimate(m, { role: 'model', stage: 'spread/posix', bound: true }, calls, input),
  );
}
