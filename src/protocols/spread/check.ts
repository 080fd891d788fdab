import { modelVerdicts } from '../../check/compare.js';
import type { EvalVerdicts } from '../../check/eval-comparison.js';
import { type CellGrade, type CheckProtocol, gradeKey, type ThresholdDef } from '../../check/types.js';
import type { WaverConfig } from '../../config/schema.js';
import { spreadSettings } from './config.js';
import type { Interval } from './estimators/index.js';
import { loadSpreadResults, type SpreadModelResult, type SpreadResults } from './results.js';
import { CELLS_SUITE } from './suite-names.js';
import { MAX_SPREAD, MIN_P5 } from './thresholds.js';

/**
 * What `waver check` gates on for spread (docs/check.md#thresholds): the spread (best - worst
 * template) at most a bound, the 5th percentile of accuracy over templates at least one; and the
 * paired comparison of two models' answers, cell by cell, clustered by item.
 */

const CI = '95% percentile bootstrap over items';

function measured(
  m: SpreadModelResult,
  pick: (m: SpreadModelResult) => Interval | undefined,
  fails: (v: number) => boolean,
) {
  const base = { model: m.label, identity: m.identity, n: m.done, over: 'answered cells' };
  const v = pick(m);
  if (!v || Number.isNaN(v.value)) return { ...base, unavailable: 'no cell was answered' };
  return {
    ...base,
    value: v.value,
    low: v.lo,
    high: v.hi,
    ci: CI,
    ...(fails(v.value) && { failure: 'threshold not met' }),
  };
}

const maxSpread: ThresholdDef<SpreadResults> = {
  ...MAX_SPREAD,
  evaluate: (results, rule) =>
    results.models.map((m) =>
      measured(
        m,
        (x) => x.estimate?.spread,
        (v) => v > rule.value,
      ),
    ),
};

const minP5: ThresholdDef<SpreadResults> = {
  ...MIN_P5,
  evaluate: (results, rule) =>
    results.models.map((m) =>
      measured(
        m,
        (x) => x.estimate?.quantiles.find((q) => q.q === 0.05),
        (v) => v < rule.value,
      ),
    ),
};

const UNIT = { pair: 'template x item', cluster: 'item' };

/** Each model's verdicts: pairs are (template, item) cells, clustered by item; failed or unparsed answers are wrong. */
export function spreadVerdicts(results: SpreadResults): EvalVerdicts {
  return {
    unit: UNIT,
    models: results.models.map((m) => ({
      label: m.label,
      identity: m.identity,
      verdicts: modelVerdicts(results.models, m, (c) => [
        c.testId,
        { cluster: String(c.item), correct: c.correct },
      ]),
    })),
  };
}

/** The seed and the estimator the config names (`spread.estimator`), as the run used them. */
function loadOptions(config: WaverConfig) {
  return { seed: config.seed, estimator: spreadSettings(config).estimator };
}

export const spreadCheck: CheckProtocol<SpreadResults> = {
  protocol: 'spread',
  suiteName: CELLS_SUITE,
  load: (store, suiteHash, config) => loadSpreadResults(store, suiteHash, loadOptions(config)),
  thresholds: [maxSpread, minP5],
  compare: {
    unit: UNIT,
    verdicts(store, suiteHash, models, config) {
      const results = loadSpreadResults(store, suiteHash, {
        models: [models.base.identity, models.new.identity],
        ...loadOptions(config),
      });
      const of = (model: typeof models.base) =>
        spreadVerdicts(results).models.find((m) => m.identity === model.identity)?.verdicts ?? new Map();
      return { base: of(models.base), new: of(models.new) };
    },
  },
  grades(store, suiteHash, config) {
    const results = loadSpreadResults(store, suiteHash, loadOptions(config));
    const out = new Map<string, CellGrade>();
    for (const m of results.models)
      for (const c of m.cells)
        out.set(gradeKey(m.identity, c.testId, c.repeat), {
          ...(c.choice !== undefined && { answer: String(c.choice) }),
          via: c.via,
          correct: c.correct,
          score: c.correct ? 1 : 0,
        });
    return out;
  },
};
