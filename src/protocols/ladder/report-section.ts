import { cellBase, demoteHeadings } from '../../report/html/section-kit.js';
import type { EvalSummary, HeadlineFigure, SectionModule, TranscriptCell } from '../../report/report-data.js';
import type { SuiteTest } from '../../run/types.js';
import type { Store } from '../../store/store.js';
import { type LadderAdmission, latestAdmission } from './admission-record.js';
import { LadderConfigSchema } from './config.js';
import { keepsNoAnswer } from './families/roster.js';
import type { SetMetrics } from './metrics.js';
import { ladderHtml } from './report-html.js';
import { type LadderResults, loadLadderResults, type ScoredCell } from './results.js';
import { LADDER_TESTS_SUITE } from './suite-names.js';
import { formatLadderReport, ladderCaveats, ladderDatasets } from './tables.js';
import { ladderTestOf } from './test-meta.js';
import { type AnswerType, answerTypeOf, type LadderTest, LEVELS } from './types.js';

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

  cells(store, suiteHash, data) {
    return ladderCells(store, suiteHash, data);
  },

  html(data, kit) {
    return ladderHtml(data, kit);
  },

  markdown(data) {
    return demoteHeadings(formatLadderReport(data, 'md'), 3);
  },

  json(data) {
    return JSON.parse(formatLadderReport(data, 'json'));
  },
};

// --- index ---------------------------------------------------------------------------------

/**
 * The index's line (docs/report.md#index): accuracy on the unperturbed baseline (L0) and at the
 * highest measured level any model has responses at, every family pooled (the two ends of the
 * paper's Figure 1 curve), each with its seed-bootstrap CI.
 */
function ladderSummary(data: LadderSectionData): EvalSummary {
  const { results } = data;
  const top = [...LEVELS].reverse().find((k) => results.models.some((m) => m.metrics.byLevel[k].n > 0));
  const figure = (name: string, s: SetMetrics): HeadlineFigure => ({
    name,
    ...(s.accuracy.value !== undefined && { value: s.accuracy.value }),
    ...(s.accuracy.low !== undefined && { low: s.accuracy.low }),
    ...(s.accuracy.high !== undefined && { high: s.accuracy.high }),
    over: `${s.n} response${s.n === 1 ? '' : 's'}, ${s.seeds} seed${s.seeds === 1 ? '' : 's'}`,
    ...(s.accuracy.value === undefined && { unavailable: s.accuracy.unavailable ?? 'no scored response' }),
  });
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
      figures: [
        figure('accuracy at L0', m.metrics.baseline),
        ...(top !== undefined ? [figure(`accuracy at L${top}`, m.metrics.byLevel[top])] : []),
      ],
    })),
    interval: `${Math.round(100 * results.settings.confidence)}% seed bootstrap`,
  };
}

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
  for (const cell of store.cells.light(suiteHash)) {
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
