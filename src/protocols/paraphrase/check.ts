import { modelVerdicts } from '../../check/compare.js';
import type { EvalVerdicts } from '../../check/eval-comparison.js';
import {
  type CellGrade,
  type CheckProtocol,
  gradeKey,
  type ModelRef,
  type ThresholdDef,
  type Verdict,
} from '../../check/types.js';
import type { WaverConfig } from '../../config/schema.js';
import type { Store } from '../../store/store.js';
import { saaByItem } from './metrics.js';
import { loadParaphraseResults, type ParaphraseResults, toObservation } from './results.js';
import { paraphraseTestId } from './suite.js';
import { ITEMS_SUITE } from './suite-names.js';
import { MIN_SAA } from './thresholds.js';

/**
 * What `waver check` gates on for paraphrase (docs/check.md#thresholds): Stability-Adjusted
 * Accuracy; and the paired comparison of two models' answers, item by item.
 */

const minSaa: ThresholdDef<ParaphraseResults> = {
  ...MIN_SAA,
  evaluate: (results, rule) =>
    results.models.map((m) => {
      const saa = m.metrics.saa;
      const base = { model: m.label, identity: m.identity, n: saa.n, over: saa.over };
      if (saa.value === undefined) return { ...base, unavailable: saa.unavailable ?? 'no item scored' };
      return {
        ...base,
        value: saa.value,
        ...(saa.low !== undefined && { low: saa.low }),
        ...(saa.high !== undefined && { high: saa.high }),
        ci: `${Math.round(results.settings.confidence * 100)}% bootstrap over items`,
        ...(saa.value < rule.value && { failure: 'below threshold' }),
      };
    }),
};

const UNIT = { pair: 'item x phrasing x repeat', cluster: 'item' };

/**
 * Each model's verdicts, for `check --compare` and the report's comparison alike: pairs are (item,
 * phrasing, repeat), clustered by item; failed or unparsed answers are wrong.
 */
export function paraphraseVerdicts(results: ParaphraseResults): EvalVerdicts {
  return {
    unit: UNIT,
    models: results.models.map((m) => ({
      label: m.label,
      identity: m.identity,
      verdicts: modelVerdicts(results.models, m, (c) => [
        `${c.item}\u0000${c.phrasing}\u0000${c.repeat}`,
        { cluster: c.item, correct: c.correct },
      ]),
    })),
  };
}

const SAA_UNIT = {
  pair: "item's SAA (1 when every phrasing x repeat of the item is right; an item not answered in full is left out)",
  cluster: 'item',
};

/**
 * Each model's SAA per item, for `check --compare --metric saa` (docs/check.md#metric): one pair
 * per item, so items are the clusters and the pairs are independent; the test `waver plan
 * --design saa` sizes.
 */
function saaVerdicts(results: ParaphraseResults, model: ModelRef): Map<string, Verdict> {
  const m = results.models.find((x) => x.identity === model.identity);
  // A model without cells has no verdicts: its items are unpaired, not wrong.
  if (!m) return new Map();
  const { itemIds: items, phrasings, repeats } = results.suite;
  const byItem = saaByItem({ items, phrasings, repeats }, m.cells.map(toObservation));
  return new Map([...byItem].map(([item, correct]) => [item, { cluster: item, correct }]));
}

/** The two models' results, with the scored cells only: one resample keeps the loader's own CIs cheap. */
function pairedResults(
  store: Store,
  suiteHash: string,
  models: { base: ModelRef; new: ModelRef },
  config: WaverConfig,
): ParaphraseResults {
  return loadParaphraseResults(store, suiteHash, {
    models: [models.base.identity, models.new.identity],
    seed: config.seed,
    resamples: 1,
  });
}

export const paraphraseCheck: CheckProtocol<ParaphraseResults> = {
  protocol: 'paraphrase',
  suiteName: ITEMS_SUITE,
  load: (store, suiteHash, config) =>
    loadParaphraseResults(store, suiteHash, {
      seed: config.seed,
      minCoverage: config.minCoverage,
      ...(config.paraphrase?.resamples !== undefined && { resamples: config.paraphrase.resamples }),
    }),
  thresholds: [minSaa],
  compare: {
    unit: UNIT,
    verdicts(store, suiteHash, models, config) {
      const results = pairedResults(store, suiteHash, models, config);
      const of = (model: ModelRef) =>
        paraphraseVerdicts(results).models.find((m) => m.identity === model.identity)?.verdicts ?? new Map();
      return { base: of(models.base), new: of(models.new) };
    },
    metrics: {
      saa: {
        unit: SAA_UNIT,
        verdicts(store, suiteHash, models, config) {
          const results = pairedResults(store, suiteHash, models, config);
          return { base: saaVerdicts(results, models.base), new: saaVerdicts(results, models.new) };
        },
      },
    },
  },
  grades(store, suiteHash, config) {
    const results = loadParaphraseResults(store, suiteHash, { seed: config.seed, resamples: 1 });
    const out = new Map<string, CellGrade>();
    for (const m of results.models)
      for (const c of m.cells)
        out.set(
          gradeKey(
            m.identity,
            paraphraseTestId(c.item, c.phrasing as Parameters<typeof paraphraseTestId>[1]),
            c.repeat,
          ),
          {
            // The letter in the item's own lettering (the key's), as the verdict reads it.
            ...(c.answer !== undefined && { answer: c.answer }),
            via: c.via,
            correct: c.correct,
            score: c.correct ? 1 : 0,
          },
        );
    return out;
  },
};
