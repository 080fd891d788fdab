import { cellBase, demoteHeadings } from '../../report/html/section-kit.js';
import type { EvalSummary, HeadlineFigure, SectionModule, TranscriptCell } from '../../report/report-data.js';
import type { SuiteTest } from '../../run/types.js';
import type { Store } from '../../store/store.js';
import { type LadderAdmission, latestAdmission } from './admission-record.js';
import { ladderVerdicts } from './check.js';
import { LadderConfigSchema } from './config.js';
import { keepsNoAnswer } from './families/roster.js';
import type { FamilyMetrics } from './metrics.js';
import { ladderHtml } from './report-html.js';
import { type LadderResults, loadLadderResults, type ScoredCell } from './results.js';
import { LADDER_TESTS_SUITE } from './suite-names.js';
import { formatLadderReport, ladderCaveats, ladderDatasets, ladderInOrder } from './tables.js';
import { ladderTestOf } from './test-meta.js';
import { type AnswerType, answerTypeOf, type LadderTest } from './types.js';

/**
 * The ladder's section of a report: its results loaded from the store, the index's line, every
 * cell for the transcript browser, and the HTML (report-html.ts) and Markdown (tables.ts) bodies.
 */

export interface LadderSectionData {
  results: LadderResults;
  tests: LadderTest[];
  /** The build's admission bookkeeping, when waver built the suite (admission-record.ts). */
  admission?: LadderAdmission;
}

export const ladderSection: SectionModule<LadderSectionData> = {
  sectioned: true,
  claims: (suite) => suite.name === LADDER_TESTS_SUITE,

  load(store, suiteHash, ctx) {
    const config = ctx.runConfig(suiteHash) ?? {};
    const parsed = LadderConfigSchema.safeParse(config.ladder ?? {});
    const stored = store.suites.get(suiteHash);
    if (!stored) throw new Error(`suite ${suiteHash} is not in the store`);
    const results = loadLadderResults(store, suiteHash, {
      ...(parsed.success && { settings: parsed.data }),
      ...(typeof config.seed === 'number' && { seed: config.seed }),
      ...(typeof config.minCoverage === 'number' && { minCoverage: config.minCoverage }),
    });
    const admission = latestAdmission(store, suiteHash);
    return {
      results,
      tests: stored.tests.map((t) => ladderTestOf(stored, t)),
      ...(admission && { admission }),
    };
  },

  caveats(data) {
    return ladderCaveats(data);
  },

  summary(data) {
    return ladderSummary(data);
  },

  inModelOrder(data, order) {
    return ladderInOrder(data, order);
  },

  cells(store, suiteHash, data) {
    return ladderCells(store, suiteHash, data);
  },

  html(data, kit) {
    return ladderHtml(data, kit);
  },

  markdown(data) {
    return demoteHeadings(formatLadderReport({ ...data, comparison: false }, 'md'), 3);
  },

  json(data) {
    return JSON.parse(formatLadderReport({ ...data, comparison: false }, 'json'));
  },

  verdicts(data) {
    return ladderVerdicts(data.results);
  },
};

// --- index ---------------------------------------------------------------------------------

/**
 * The index's line (docs/report.md#index): the paper's two answers per model, its Stability (the
 * lowest of the perturbation families', with its seed-bootstrap CI and n) and its Collapse Points
 * (the earliest level any family collapses at, with the share of bootstrap resamples that agree,
 * and how many families collapse at all). Accuracy by level is the section's table and curve.
 */
function ladderSummary(data: LadderSectionData): EvalSummary {
  const { results } = data;
  const datasets = ladderDatasets(data).map((d) => ({
    name: d.name,
    ...(d.licence !== undefined && { licence: d.licence }),
    ...(d.licenceNote !== undefined && { licenceNote: d.licenceNote }),
  }));
  if (data.tests.some((t) => !t.dataset)) datasets.push({ name: 'builtin', licence: 'MIT' });
  return {
    datasets,
    models: results.models.map((m) => ({
      label: m.label,
      figures: [stabilityFigure(m.metrics.families), collapseFigure(m.metrics.families)],
    })),
    interval: `${Math.round(100 * results.settings.confidence)}% seed bootstrap; a Collapse Point's share of resamples`,
  };
}

const plural = (n: number, word: string) =>
  `${n} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;

/** The lowest Stability of the families that keep an answer (KB's is its recognition, not stability). */
export function stabilityFigure(families: readonly FamilyMetrics[]): HeadlineFigure {
  const kept = families.filter((f) => !keepsNoAnswer(f.family) && f.overall.n > 0);
  const scored = kept.filter((f) => f.overall.stability.value !== undefined);
  const lowest = scored.reduce<FamilyMetrics | undefined>(
    (lo, f) =>
      lo === undefined || (f.overall.stability.value as number) < (lo.overall.stability.value as number)
        ? f
        : lo,
    undefined,
  );
  if (!lowest)
    return {
      name: 'Stability',
      // With none kept, what was asked (KB alone, say): never "over 0 families".
      over:
        kept.length === 0
          ? `${plural(families.length, 'family')} (${families.map((f) => f.family).join(', ')})`
          : plural(kept.length, 'family'),
      unavailable:
        kept.length === 0
          ? 'no family that keeps an answer was asked'
          : (kept[0]?.overall.stability.unavailable ?? 'no perturbed response'),
    };
  const s = lowest.overall;
  return {
    name: `Stability (lowest of ${plural(scored.length, 'family')}: ${lowest.family})`,
    value: s.stability.value as number,
    ...(s.stability.low !== undefined && { low: s.stability.low }),
    ...(s.stability.high !== undefined && { high: s.stability.high }),
    over: `${plural(s.n, 'response')}, ${plural(s.seeds, 'seed')}`,
  };
}

/** The earliest Collapse Point of any family, with how sure the bootstrap is of it. */
function collapseFigure(families: readonly FamilyMetrics[]): HeadlineFigure {
  const known = families.filter((f) => f.collapse.status !== 'unavailable');
  const collapsed = known.filter((f) => f.collapse.status === 'collapsed');
  const over = `${plural(known.length, 'family')}`;
  if (known.length === 0)
    return {
      name: 'Collapse Point',
      over: plural(families.length, 'family'),
      unavailable: families[0]?.collapse.reason ?? 'no family has one',
    };
  if (collapsed.length === 0) {
    const resamples = known[0]?.collapse.resamples ?? 0;
    const never = Math.min(
      ...known.map((f) => f.collapse.distribution.find((d) => d.value === 'never')?.share ?? 0),
    );
    return {
      name: 'Collapse Point',
      shown: 'never',
      spread: `no family collapses; at least ${pct(never)} of ${resamples} resamples agree in each`,
      over,
    };
  }
  const first = collapsed.reduce((a, f) =>
    (f.collapse.level as number) < (a.collapse.level as number) ? f : a,
  );
  const cp = first.collapse;
  const share = cp.distribution.find((d) => d.value === `L${cp.level}`)?.share ?? 0;
  return {
    name: 'Collapse Point',
    shown: `L${cp.level} in ${first.family}`,
    spread: `${pct(share)} of ${cp.resamples} resamples; ${collapsed.length} of ${plural(known.length, 'family')} collapse`,
    over,
  };
}

const pct = (x: number) => `${Math.round(100 * x)}%`;

// --- transcript ------------------------------------------------------------------------------

function* ladderCells(
  store: Store,
  suiteHash: string,
  data: LadderSectionData | undefined,
): Generator<TranscriptCell> {
  const suite = store.suites.get(suiteHash);
  if (!suite) return;
  const tests = new Map<string, { suiteTest: SuiteTest; test: LadderTest | undefined }>();
  for (const t of suite.tests) {
    let test: LadderTest | undefined;
    try {
      test = ladderTestOf(suite, t);
    } catch {
      test = undefined;
    }
    tests.set(t.id, { suiteTest: t, test });
  }
  const threshold = data?.results.settings.kbRecognizeThreshold ?? 0.75;
  // Scored cells by model, test and repeat; a seed's baseline mean per model (for flips).
  const scored = new Map<string, Map<string, ScoredCell[]>>();
  const baseline = new Map<string, Map<string, { sum: number; n: number }>>();
  for (const m of data?.results.models ?? []) {
    const byTest = new Map<string, ScoredCell[]>();
    const bases = new Map<string, { sum: number; n: number }>();
    scored.set(m.identity, byTest);
    baseline.set(m.identity, bases);
    for (const c of m.cells) {
      let list = byTest.get(c.testId);
      if (!list) {
        list = [];
        byTest.set(c.testId, list);
      }
      list[c.repeat] = c;
      if (c.family === 'baseline' && c.score !== undefined) {
        const b = bases.get(c.seedId) ?? { sum: 0, n: 0 };
        b.sum += c.score;
        b.n++;
        bases.set(c.seedId, b);
      }
    }
  }
  // The cells the loader scored, read once for both (report-data.ts `readOnce`).
  for (const cell of store.cells.forScoring(suiteHash)) {
    const entry = tests.get(cell.testId);
    if (entry && cell.repeat >= (entry.suiteTest.repeats ?? 1)) continue; // not part of the suite's design
    const base = cellBase('ladder', suiteHash, cell, entry?.suiteTest);
    const test = entry?.test;
    if (!test) {
      yield base;
      continue;
    }
    const s = scored.get(cell.modelIdentity)?.get(cell.testId)?.[cell.repeat];
    const score = s?.score;
    base.item = test.seedId;
    base.family = test.family;
    const level = test.family === 'baseline' ? 0 : test.measuredLevel;
    if (level !== undefined) base.level = `L${level}`;
    if (test.subtype !== undefined) base.variant = test.subtype;
    base.original = test.original;
    base.perturbed = test.text;
    base.gold = goldShown(test);
    if (s?.parsed !== undefined) base.parsed = String(s.parsed);
    if (score !== undefined) {
      base.score = score;
      base.correct = keepsNoAnswer(test.family) ? score >= threshold : score >= 0.5;
    }
    // docs/report.md#flipped: wrong where the seed's baseline was mostly right (not KB: no baseline answer to keep).
    const b = baseline.get(cell.modelIdentity)?.get(test.seedId);
    base.flipped =
      test.family !== 'baseline' &&
      !keepsNoAnswer(test.family) &&
      cell.status === 'done' &&
      score !== undefined &&
      b !== undefined &&
      b.sum / b.n >= 0.5 &&
      score < 0.5;
    const reason = s?.judge
      ? `judge (${s.judge.status}): ${s.judge.reason}`
      : s?.error
        ? s.error
        : s?.parsedVia !== undefined
          ? s.parsedVia === 'unparsed' || s.parsedVia === 'empty'
            ? UNPARSED[answerTypeOf(test)]
            : s.parsedVia === 'ambiguous'
              ? 'two or more different answers given, none read (scored wrong)'
              : `parsed via ${s.parsedVia}`
          : undefined;
    if (reason !== undefined) base.reason = reason;
    yield base;
  }
}

/** The gold as a reader checks it: a choice key with its option, a short answer with how many aliases it has. */
function goldShown(test: LadderTest): string {
  const option = test.options?.find((o) => o.letter === test.gold);
  if (option) return `${test.gold}. ${option.text}`;
  const n = test.aliases?.length ?? 0;
  return n > 0 ? `${test.gold} (or ${n} alias${n === 1 ? '' : 'es'})` : String(test.gold);
}

/** "parsed via unparsed" says nothing: a response with no answer of its type in it is named as such. */
const UNPARSED: Record<AnswerType, string> = {
  number: 'no number found in the response (scored wrong)',
  choice: 'no single option letter or option text found in the response (scored wrong)',
  text: 'empty response (scored wrong)',
};
