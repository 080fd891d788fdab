import { modelVerdicts } from '../../check/compare.js';
import {
  type CellGrade,
  type CheckProtocol,
  gradeKey,
  type Measurement,
  type ThresholdContext,
  type ThresholdDef,
} from '../../check/types.js';
import { ladderSettings } from './config.js';
import { familyCodes, keepsNoAnswer } from './families/roster.js';
import { type LadderResults, loadLadderResults } from './results.js';
import { ladderSuiteFill, readLadderSuite } from './suite-file.js';
import { LADDER_TESTS_SUITE } from './suite-names.js';
import { ladderTestOf } from './test-meta.js';
import { MIN_STABILITY, NO_COLLAPSE_AT_OR_BELOW } from './thresholds.js';
import type { Family } from './types.js';

/**
 * What `waver check` gates on for the ladder (docs/check.md#thresholds): Stability and the
 * Collapse Point per family, all levels pooled; and the paired comparison of two models' answers,
 * test by test.
 */

const minStability: ThresholdDef<LadderResults> = {
  ...MIN_STABILITY,
  evaluate: (results, rule, ctx) =>
    perFamily(results, rule.scope, ctx, (m, family): Measurement => {
      const base = { model: m.label, identity: m.identity, scope: family };
      const fm = m.metrics.families.find((f) => f.family === family);
      const s = fm?.overall.stability;
      if (!fm || !s || s.value === undefined)
        return {
          ...base,
          n: fm?.overall.n ?? 0,
          over: 'responses',
          unavailable: s?.unavailable ?? `no ${family} tests`,
        };
      return {
        ...base,
        value: s.value,
        ...(s.low !== undefined && { low: s.low }),
        ...(s.high !== undefined && { high: s.high }),
        ci: `${Math.round(results.settings.confidence * 100)}% bootstrap over ${fm.overall.seeds} seeds`,
        n: fm.overall.n,
        over: 'responses',
        ...(s.value < rule.value && { failure: 'below threshold' }),
      };
    }),
};

const noCollapseAtOrBelow: ThresholdDef<LadderResults> = {
  ...NO_COLLAPSE_AT_OR_BELOW,
  evaluate: (results, rule, ctx) =>
    perFamily(results, rule.scope, ctx, (m, family): Measurement => {
      const base = { model: m.label, identity: m.identity, scope: family };
      const fm = m.metrics.families.find((f) => f.family === family);
      const cp = fm?.collapse;
      if (!fm || !cp || cp.status === 'unavailable')
        return {
          ...base,
          n: fm?.overall.n ?? 0,
          over: 'responses',
          unavailable: cp?.reason ?? `no ${family} tests`,
        };
      // The Collapse Point has no interval: the share of resamples collapsing at or below stands in.
      const atOrBelow = cp.distribution
        .filter((d) => /^L\d$/.test(d.value) && Number(d.value.slice(1)) <= rule.value)
        .reduce((a, d) => a + d.share, 0);
      const collapsed = cp.status === 'collapsed' && (cp.level as number) <= rule.value;
      return {
        ...base,
        value: cp.status === 'collapsed' ? `L${cp.level}` : 'never',
        ci: `collapses at <= L${rule.value} in ${(100 * atOrBelow).toFixed(0)}% of ${cp.resamples} resamples`,
        n: fm.overall.n,
        over: 'responses',
        ...(collapsed && { failure: `collapses at L${cp.level}` }),
      };
    }),
};

/** One measurement per model and family: the family named, or every family with a test in the suite. */
function perFamily(
  results: LadderResults,
  scope: string,
  ctx: ThresholdContext,
  measure: (model: LadderResults['models'][number], family: Family) => Measurement,
): Measurement[] {
  const chosen = scope === '*' ? suiteFamilies(ctx) : [scope as Family];
  return results.models.flatMap((m) => chosen.map((family) => measure(m, family)));
}

/** Families with at least one test in the suite, in the paper's order. */
function suiteFamilies(ctx: ThresholdContext): Family[] {
  const suite = ctx.store.suites.get(ctx.suite.hash);
  const present = new Set((suite?.tests ?? []).map((t) => ladderTestOf(ctx.suite, t).family));
  return familyCodes().filter((f) => present.has(f));
}

/** A cell's verdict as the comparison counts it: a number right when it scores 1, KB by its rubric score. */
function correctOf(
  c: LadderResults['models'][number]['cells'][number],
  kbThreshold: number,
): boolean | undefined {
  if (c.score === undefined) return undefined;
  return keepsNoAnswer(c.family) ? c.score >= kbThreshold : c.score >= 1;
}

export const ladderCheck: CheckProtocol<LadderResults> = {
  protocol: 'ladder',
  suiteName: LADDER_TESTS_SUITE,
  load: (store, suiteHash, config) =>
    loadLadderResults(store, suiteHash, {
      settings: ladderSettings(config),
      seed: config.seed,
      minCoverage: config.minCoverage,
    }),
  thresholds: [minStability, noCollapseAtOrBelow],
  compare: {
    unit: { pair: 'test x repeat', cluster: 'seed' },
    /**
     * Pairs are (test, repeat), clustered by seed. A numeric answer is correct when it scores 1; a
     * Knowledge Boundary response when its rubric score recognises the boundary (>= the threshold).
     * Failed calls are incorrect (docs/method.md); KB responses without a verdict are left out.
     */
    verdicts(store, suiteHash, models, config) {
      const settings = ladderSettings(config);
      const results = loadLadderResults(store, suiteHash, {
        settings,
        seed: config.seed,
        minCoverage: config.minCoverage,
        models: [models.base, models.new],
      });
      const verdicts = (model: typeof models.base) =>
        modelVerdicts(results.models, model, (c) => {
          const correct = correctOf(c, settings.kbRecognizeThreshold);
          return [`${c.testId}\u0000${c.repeat}`, { cluster: c.seedId, correct, family: c.family }];
        });
      return { base: verdicts(models.base), new: verdicts(models.new) };
    },
  },
  /** The suite file's seeds, families and measured levels, with the repeats the run would ask (docs/plan.md#suite). */
  fill(config) {
    const asked = { repeats: config.repeats, baselineRepeats: ladderSettings(config).baselineRepeats };
    return {
      cluster: 'seed',
      repeats: { reference: asked.baselineRepeats, perturbed: asked.repeats },
      tests: config.suite === undefined ? [] : ladderSuiteFill(readLadderSuite(config.suite), asked),
    };
  },
  grades(store, suiteHash, config) {
    const settings = ladderSettings(config);
    const results = loadLadderResults(store, suiteHash, {
      settings,
      seed: config.seed,
      minCoverage: config.minCoverage,
    });
    const out = new Map<string, CellGrade>();
    for (const m of results.models)
      for (const c of m.cells) {
        const correct = correctOf(c, settings.kbRecognizeThreshold);
        out.set(gradeKey(m.identity, c.testId, c.repeat), {
          ...(c.parsed !== undefined && { answer: c.parsed }),
          ...(c.parsedVia !== undefined && { via: c.parsedVia }),
          ...(correct !== undefined && { correct }),
          ...(c.score !== undefined && { score: c.score }),
          ...(c.judge && { judge: c.judge }),
        });
      }
    return out;
  },
};
