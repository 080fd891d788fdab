import type { z } from 'zod';
import type { Coverage, SuiteTest } from '../../run/types.js';
import type { ScoringCell, Store } from '../../store/store.js';
import { deriveSeed } from '../../util/random.js';
import type { AnswerParser } from './answer.js';
import { AnswerJudgeMetaSchema, type AnswerVerdict, parseAnswerJudgeReply } from './answer-judge.js';
import { type LadderConfig, LadderConfigSchema } from './config.js';
import { kbTypeOf, keepsNoAnswer } from './families/roster.js';
import { recordedCorrectness, recordedSlot } from './import/recorded.js';
import {
  type JudgedCell,
  KbJudgeMetaSchema,
  type KbVerdict,
  kbScoringOf,
  parseKbJudgeReply,
  recognises,
} from './kb-judge.js';
import { type LadderMetrics, type LadderObservation, ladderMetrics } from './metrics.js';
import { type AnswerFormat, answerFormatOfPrompt } from './prompts.js';
import { scoreAnswer } from './score-answer.js';
import { ANSWER_JUDGE_SUITE, KB_JUDGE_SUITE } from './suite-names.js';
import { ladderTestOf } from './test-meta.js';
import {
  ANSWER_TYPES,
  type AnswerType,
  answerTypeOf,
  type Family,
  type KbType,
  type LadderTest,
  type Level,
} from './types.js';

/**
 * Everything `waver ladder` reports, rebuilt from the store alone: the suite's tests (their
 * LadderTest in `meta`), each model's stored cells, and the KB judge's stored verdicts (the
 * `ladder/kb-judge` suites whose tests point back at this suite). Nothing is taken from memory,
 * so the report and a later HTML report read the same numbers. See docs/ladder.md#report.
 */

/** One response, scored. */
export interface ScoredCell {
  testId: string;
  seedId: string;
  family: Family | 'baseline';
  /** Measured level (0 = baseline). */
  level: Level | 0 | undefined;
  kbType?: KbType;
  repeat: number;
  magnitude: number;
  status: 'done' | 'failed';
  /** Correctness in [0, 1] (KB: the rubric score; imported: the recorded Sim); undefined when the KB response has no verdict. */
  score: number | undefined;
  /** What Accuracy counts where it is not `score` (metrics.ts `LadderObservation.correct`). */
  correct?: number;
  /** Answer-preserving families: the answer as read (a number, a letter, the stated text) and how. */
  parsed?: number | string;
  parsedVia?: string;
  /** The reply stopped at the output cap (`finish_reason: length`): its last line may be missing. */
  truncated?: true;
  error?: string;
  /**
   * KB: the judge's verdict, or why there is none; text: the answer judge's, for a reply
   * normalisation could not decide (scored 0 unless it says correct: fail closed).
   */
  judge?: { status: 'scored' | 'unparsable' | 'failed' | 'not-run'; score?: number; reason: string };
}

export interface LadderModelResults {
  label: string;
  identity: string;
  coverage: Coverage;
  /** KB verdicts: needed (done KB cells), judged (a rubric score), missing (no judge run or unusable reply). */
  judge: { identity?: string; needed: number; scored: number; missing: number };
  /**
   * Answer judge verdicts on short answers normalisation could not decide: needed, scored (a usable
   * verdict), missing (no judge run, a failed call or an unreadable reply: each scored wrong).
   */
  answerJudge: { identity?: string; needed: number; scored: number; missing: number };
  /** Done share >= minCoverage, and (when KB responses exist and a judge ran) judged share >= minCoverage. */
  complete: boolean;
  /** Why the model is incomplete. */
  incomplete?: string;
  /** How it was asked, read from the stored requests: the answer formats and output caps sent. */
  asked: { answerFormats: AnswerFormat[]; maxTokens: number[] };
  /** Replies cut at the output cap (`finish_reason: length`), and how many of them scored below 1. */
  truncated: { n: number; wrong: number };
  cells: ScoredCell[];
  metrics: LadderMetrics;
}

export interface LadderResults {
  suite: {
    hash: string;
    name: string;
    tests: number;
    seeds: number;
    perturbed: number;
    /** The seeds' answer types (docs/ladder.md#answer-types), in ANSWER_TYPES order. */
    answerTypes: AnswerType[];
  };
  settings: LadderConfig;
  /** Seed of the bootstraps. */
  seed: number;
  models: LadderModelResults[];
}

export interface LoadLadderResultsOptions {
  /** The ladder settings (defaults when omitted). */
  settings?: Partial<LadderConfig>;
  /** Bootstrap seed (config.seed). */
  seed?: number;
  /** Coverage below this marks a model incomplete (config.minCoverage). */
  minCoverage?: number;
  /** Which models to report, in order (default: every model with cells in the suite). */
  models?: { label?: string; identity: string }[];
  /** Only this judge's verdicts (default: the most recent verdict for each response, any judge). */
  judgeIdentity?: string;
}

export function loadLadderResults(
  store: Store,
  suiteHash: string,
  opts: LoadLadderResultsOptions = {},
): LadderResults {
  const suite = store.suites.get(suiteHash);
  if (!suite) throw new Error(`no suite ${suiteHash} in the store ${store.path}`);
  const settings = LadderConfigSchema.parse(opts.settings ?? {});
  const seed = opts.seed ?? 0;
  const tests = new Map(suite.tests.map((t) => [t.id, ladderTestOf(suite, t)]));
  const cellsByModel = cellsByModelOf(store, suiteHash);
  const scoring: SuiteScoring = {
    store,
    suiteHash,
    settings,
    seed,
    minCoverage: opts.minCoverage ?? 0.9,
    tests,
    suiteTests: suite.tests,
    suiteTestsById: new Map(suite.tests.map((t) => [t.id, t])),
    expected: suite.tests.reduce((n, t) => n + (t.repeats ?? 1), 0),
    ...storedVerdicts(store, suiteHash, opts.judgeIdentity, settings),
  };
  const out = reportedModels(opts.models, cellsByModel).map(({ label, identity }) =>
    modelResults(scoring, label, identity, cellsByModel.get(identity)?.cells ?? []),
  );
  const ladderTests = [...tests.values()];
  return {
    suite: {
      hash: suiteHash,
      name: suite.name,
      tests: ladderTests.length,
      seeds: new Set(ladderTests.map((t) => t.seedId)).size,
      perturbed: ladderTests.filter((t) => t.family !== 'baseline').length,
      answerTypes: ANSWER_TYPES.filter((type) => ladderTests.some((t) => answerTypeOf(t) === type)),
    },
    settings,
    seed,
    models: out,
  };
}

/** What scoring any model's cells needs from the suite and the store, read once for every model. */
interface SuiteScoring {
  store: Store;
  suiteHash: string;
  settings: LadderConfig;
  /** Bootstrap seed (a model's identity is mixed in). */
  seed: number;
  minCoverage: number;
  tests: Map<string, LadderTest>;
  suiteTests: readonly SuiteTest[];
  suiteTestsById: Map<string, SuiteTest>;
  /** Cells the suite's design asks for: every test times its repeats. */
  expected: number;
  verdicts: Map<string, StoredVerdict<KbVerdict>>;
  answerVerdicts: Map<string, StoredVerdict<AnswerVerdict>>;
}

/** Each model's stored cells in the suite, with the label it was run under, in first-seen order. */
function cellsByModelOf(
  store: Store,
  suiteHash: string,
): Map<string, { label: string; cells: ScoringCell[] }> {
  const cellsByModel = new Map<string, { label: string; cells: ScoringCell[] }>();
  for (const cell of store.cells.forScoring(suiteHash)) {
    let entry = cellsByModel.get(cell.modelIdentity);
    if (!entry) {
      entry = { label: cell.model, cells: [] };
      cellsByModel.set(cell.modelIdentity, entry);
    }
    entry.cells.push(cell);
  }
  return cellsByModel;
}

/** The models asked for, labelled (their stored label when none is given), else every model with cells. */
function reportedModels(
  asked: LoadLadderResultsOptions['models'],
  cellsByModel: Map<string, { label: string }>,
): { label: string; identity: string }[] {
  return (
    asked?.map((m) => ({
      label: m.label ?? cellsByModel.get(m.identity)?.label ?? m.identity,
      identity: m.identity,
    })) ?? [...cellsByModel].map(([identity, e]) => ({ label: e.label, identity }))
  );
}

/** The KB judge's and the answer judge's stored verdicts on the suite's cells. */
function storedVerdicts(
  store: Store,
  suiteHash: string,
  judgeIdentity: string | undefined,
  settings: LadderConfig,
): Pick<SuiteScoring, 'verdicts' | 'answerVerdicts'> {
  // A KB verdict given under the other scoring mode is not this mode's (its prompt and scale differ).
  const verdicts = judgeVerdicts(store, suiteHash, judgeIdentity, KB_JUDGE_SUITE, KbJudgeMetaSchema, (m) =>
    kbScoringOf(m) === settings.kbScoring
      ? (reply) => parseKbJudgeReply(reply, settings.kbScoring)
      : undefined,
  );
  const answerVerdicts = judgeVerdicts(
    store,
    suiteHash,
    judgeIdentity,
    ANSWER_JUDGE_SUITE,
    AnswerJudgeMetaSchema,
    () => parseAnswerJudgeReply,
  );
  return { verdicts, answerVerdicts };
}

/** How many responses a judge had to decide, how many it did, and which judge. */
interface JudgeTally {
  needed: number;
  scored: number;
  identity: string | undefined;
}

/** One model's results: its cells scored, its coverage and completeness, and its metrics. */
function modelResults(
  scoring: SuiteScoring,
  label: string,
  identity: string,
  stored: readonly ScoringCell[],
): LadderModelResults {
  const { settings } = scoring;
  const { cells, kb, answers } = scoreModelCells(scoring, identity, stored);
  const cut = cells.filter((c) => c.truncated);
  const coverage = coverageOf(stored, scoring.suiteTests, scoring.expected);
  const incomplete = incompleteReason(coverage, kb, answers, scoring.minCoverage);
  const metrics = ladderMetrics(cells.map(observationOf), {
    seed: deriveSeed(scoring.seed, 'ladder', identity),
    resamples: settings.resamples,
    confidence: settings.confidence,
    collapseRatio: settings.collapseRatio,
    recognizeThreshold: settings.kbRecognizeThreshold,
    stabilityThreshold: settings.stabilityThreshold,
    quadrant: settings.quadrant,
    collapse: settings.collapse,
    stability: settings.stability,
  });
  return {
    label,
    identity,
    coverage,
    asked: askedOf(stored, scoring.tests),
    truncated: { n: cut.length, wrong: cut.filter((c) => (c.score ?? 1) < 1).length },
    judge: {
      ...(kb.identity && { identity: kb.identity }),
      needed: kb.needed,
      scored: kb.scored,
      missing: kb.needed - kb.scored,
    },
    answerJudge: {
      ...(answers.identity && { identity: answers.identity }),
      needed: answers.needed,
      scored: answers.scored,
      missing: answers.needed - answers.scored,
    },
    complete: incomplete === undefined,
    ...(incomplete && { incomplete }),
    cells,
    metrics,
  };
}

/**
 * A model's cells in the suite's design scored (an imported run's from what it recorded), and the
 * tallies of the KB judge and the answer judge over them.
 */
function scoreModelCells(
  scoring: SuiteScoring,
  identity: string,
  stored: readonly ScoringCell[],
): { cells: ScoredCell[]; kb: JudgeTally; answers: JudgeTally } {
  const { settings, tests, suiteTestsById } = scoring;
  const cells: ScoredCell[] = [];
  const kb: JudgeTally = { needed: 0, scored: 0, identity: undefined };
  const answers: JudgeTally = { needed: 0, scored: 0, identity: undefined };
  // An imported run's cells keep the correctness that run recorded (import/recorded.ts).
  const recorded = recordedCorrectness(scoring.store, scoring.suiteHash, identity);
  for (const cell of stored) {
    const test = tests.get(cell.testId);
    const suiteTest = suiteTestsById.get(cell.testId);
    // A cell beyond the test's repeats (a run with more repeats earlier) is not part of this suite's design.
    if (!test || !suiteTest || cell.repeat >= (suiteTest.repeats ?? 1)) continue;
    const r = recorded?.get(recordedSlot(cell.testId, cell.repeat));
    if (r) {
      cells.push(recordedCell(test, cell, r));
      continue;
    }
    const key = verdictKey(identity, cell.testId, cell.repeat, cell.responseKey);
    const verdict =
      keepsNoAnswer(test.family) && cell.status === 'done' ? scoring.verdicts.get(key) : undefined;
    if (keepsNoAnswer(test.family) && cell.status === 'done') {
      kb.needed++;
      if (verdict?.verdict.ok) kb.scored++;
      if (verdict) kb.identity = verdict.judge;
    }
    const answerVerdict =
      answerTypeOf(test) === 'text' && !keepsNoAnswer(test.family) && cell.status === 'done'
        ? scoring.answerVerdicts.get(key)
        : undefined;
    const c = scoreCell(test, cell, verdict?.verdict, verdict?.callFailed, settings.parser, answerVerdict);
    if (c.judge && !keepsNoAnswer(test.family)) {
      answers.needed++;
      if (c.judge.status === 'scored') answers.scored++;
      if (answerVerdict) answers.identity = answerVerdict.judge;
    }
    // The reference's KB accuracy counts a rubric score >= 0.80 correct (run_sut_model.py:127);
    // its Stability keeps the score itself (docs/fidelity.md L25).
    if (settings.kbScoring === 'reference' && keepsNoAnswer(c.family) && c.score !== undefined)
      c.correct = recognises(c.score, settings.kbRecognizeThreshold) ? 1 : 0;
    cells.push(c);
  }
  return { cells, kb, answers };
}

/** An imported run's cell: scored with the Sim and correctness that run recorded (a KB one, its reason as the verdict). */
function recordedCell(
  test: LadderTest,
  cell: ScoringCell,
  r: { sim: number | undefined; correct: number; reason: string },
): ScoredCell {
  const scoredCell = scoreCell(test, cell);
  if (cell.status !== 'done') return scoredCell;
  return {
    ...scoredCell,
    score: r.sim,
    correct: r.correct,
    parsedVia: 'recorded',
    ...(keepsNoAnswer(test.family) && {
      judge:
        r.sim === undefined
          ? { status: 'not-run', reason: r.reason }
          : { status: 'scored', score: r.sim, reason: r.reason },
    }),
  };
}

/**
 * Why a model is incomplete, or undefined: coverage below minCoverage, else a judge that ran on
 * too few of its responses. Without any KB verdict KB is shown unavailable (no judge), not
 * incomplete; likewise without the answer judge undecided short answers are wrong (and counted).
 */
function incompleteReason(
  coverage: Coverage,
  kb: JudgeTally,
  answers: JudgeTally,
  minCoverage: number,
): string | undefined {
  const share = coverage.total === 0 ? 1 : coverage.done / coverage.total;
  const judged = kb.needed === 0 ? 1 : kb.scored / kb.needed;
  const judgeRan = kb.scored > 0 || kb.identity !== undefined;
  const answersJudged = answers.needed === 0 ? 1 : answers.scored / answers.needed;
  return share < minCoverage
    ? `coverage ${(100 * share).toFixed(1)}% < ${(100 * minCoverage).toFixed(0)}%`
    : judgeRan && judged < minCoverage
      ? `KB judged ${kb.scored}/${kb.needed} responses (< ${(100 * minCoverage).toFixed(0)}%)`
      : answers.identity !== undefined && answersJudged < minCoverage
        ? `answer judge decided ${answers.scored}/${answers.needed} short answers (< ${(100 * minCoverage).toFixed(0)}%)`
        : undefined;
}

/** What a model's stored requests sent: the distinct answer formats (non-KB prompts) and output caps. */
function askedOf(cells: readonly ScoringCell[], tests: Map<string, LadderTest>): LadderModelResults['asked'] {
  const formats = new Set<AnswerFormat>();
  const caps = new Set<number>();
  for (const cell of cells) {
    if (cell.maxTokens !== undefined) caps.add(cell.maxTokens);
    if (keepsNoAnswer(tests.get(cell.testId)?.family ?? 'baseline')) continue;
    const format = cell.system === undefined ? undefined : answerFormatOfPrompt(cell.system);
    if (format) formats.add(format);
  }
  return { answerFormats: [...formats].sort(), maxTokens: [...caps].sort((a, b) => a - b) };
}

/** What scoring a cell reads of it: its status, its response's text and finish reason, or its error. */
export type ScorableCell = Pick<ScoringCell, 'status' | 'repeat' | 'error' | 'text' | 'finishReason'>;

/**
 * Scores one stored cell: the answer read for the test's answer type (score-answer.ts; the number
 * parser is `parser`, docs/fidelity.md#ladder), or the KB judge's rubric score. A short answer
 * normalisation cannot decide takes the answer judge's verdict, and is wrong without a usable one.
 */
export function scoreCell(
  test: LadderTest,
  cell: ScorableCell,
  verdict?: KbVerdict,
  judgeCallFailed = false,
  parser: AnswerParser = 'waver',
  answerVerdict?: StoredVerdict<AnswerVerdict>,
): ScoredCell {
  const kbType = kbTypeOf(test);
  const base = {
    testId: test.id,
    seedId: test.seedId,
    family: test.family,
    level: test.family === 'baseline' ? (0 as const) : test.measuredLevel,
    ...(kbType && { kbType }),
    repeat: cell.repeat,
    magnitude: test.family === 'baseline' ? 0 : (test.severity?.magnitude ?? 0),
    ...(cell.status === 'done' && cell.finishReason === 'length' && { truncated: true as const }),
  };
  if (cell.status !== 'done' || cell.text === undefined) {
    // Errors count as incorrect (and are counted in coverage): docs/method.md; metrics.ts leaves them out of Stability.
    const error = cell.error ? `${cell.error.kind}: ${cell.error.message}` : 'no response';
    return { ...base, status: 'failed', score: 0, error };
  }
  if (keepsNoAnswer(test.family)) {
    if (!verdict)
      return {
        ...base,
        status: 'done',
        score: undefined,
        judge: { status: 'not-run', reason: 'no judge verdict' },
      };
    if (!verdict.ok)
      return {
        ...base,
        status: 'done',
        score: undefined,
        judge: { status: judgeCallFailed ? 'failed' : 'unparsable', reason: verdict.reason },
      };
    return {
      ...base,
      status: 'done',
      score: verdict.score,
      judge: { status: 'scored', score: verdict.score, reason: verdict.reason },
    };
  }
  const answer = scoreAnswer(test, cell.text, parser);
  const read = { ...(answer.parsed !== undefined && { parsed: answer.parsed }), parsedVia: answer.via };
  if (answer.undecided === undefined)
    return { ...base, status: 'done', score: answer.correct ? 1 : 0, ...read };
  // Normalisation could not decide: the answer judge's verdict, failing closed (docs/ladder.md#answer-types).
  const v = answerVerdict?.verdict;
  if (!v)
    return {
      ...base,
      status: 'done',
      score: 0,
      ...read,
      judge: { status: 'not-run', reason: `${answer.undecided}; no judge verdict: scored wrong` },
    };
  if (!v.ok)
    return {
      ...base,
      status: 'done',
      score: 0,
      ...read,
      judge: {
        status: answerVerdict.callFailed ? 'failed' : 'unparsable',
        reason: `${v.reason}: scored wrong`,
      },
    };
  const score = v.correct ? 1 : 0;
  return {
    ...base,
    status: 'done',
    score,
    ...read,
    parsedVia: 'judge',
    judge: { status: 'scored', score, reason: v.reason },
  };
}

function observationOf(c: ScoredCell): LadderObservation {
  return {
    seedId: c.seedId,
    family: c.family,
    level: c.level,
    ...(c.kbType && { kbType: c.kbType }),
    magnitude: c.magnitude,
    score: c.score,
    ...(c.correct !== undefined && { correct: c.correct }),
    ...(c.status === 'failed' && { error: true }),
  };
}

function coverageOf(cells: readonly ScoringCell[], tests: readonly SuiteTest[], total: number): Coverage {
  const repeats = new Map(tests.map((t) => [t.id, t.repeats ?? 1]));
  const cov: Coverage = { total, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} };
  for (const c of cells) {
    if (c.repeat >= (repeats.get(c.testId) ?? 0)) continue;
    if (c.status === 'done') {
      cov.done++;
      if (c.attempts === 0) cov.cached++;
    } else {
      cov.failed++;
      const kind = c.error?.kind ?? 'unknown';
      cov.errorsByKind[kind] = (cov.errorsByKind[kind] ?? 0) + 1;
    }
  }
  cov.pending = total - cov.done - cov.failed;
  return cov;
}

interface StoredVerdict<V = KbVerdict> {
  verdict: V;
  /** The judge call itself failed (no reply), as opposed to a reply without a usable verdict. */
  callFailed: boolean;
  judge: string;
  /** When the judge cell was written: the latest verdict wins. */
  at: string;
}

function verdictKey(
  identity: string,
  testId: string,
  repeat: number,
  responseKey: string | undefined,
): string {
  return [identity, testId, repeat, responseKey ?? ''].join('\u0000');
}

/**
 * The stored verdicts of one judge suite (`ladder/kb-judge`, `ladder/answer-judge`) for a SUT
 * suite: every suite of that name whose tests point at it, the latest verdict per (model, test,
 * repeat, response). `readerOf` gives the reply reader for a judge test's meta, or undefined when
 * its verdicts are not this run's (the KB judge's other scoring mode). A failed call gives no verdict.
 */
function judgeVerdicts<M extends JudgedCell, V extends { ok: boolean; reason: string }>(
  store: Store,
  suiteHash: string,
  judgeIdentity: string | undefined,
  suiteName: string,
  schema: z.ZodType<M>,
  readerOf: (meta: M) => ((reply: string) => V) | undefined,
): Map<string, StoredVerdict<V>> {
  const out = new Map<string, StoredVerdict<V>>();
  const hashes = new Set(store.runs.list().flatMap((r) => (r.suiteHash ? [r.suiteHash] : [])));
  hashes.delete(suiteHash); // the SUT suite itself: no need to read its tests again
  for (const hash of hashes) {
    const judgeSuite = store.suites.get(hash);
    if (judgeSuite?.name !== suiteName) continue;
    // A test whose meta names no judged cell is no verdict of a run's: left out.
    const meta = new Map(judgeSuite.tests.map((t) => [t.id, schema.safeParse(t.meta).data]));
    if (![...meta.values()].some((m) => m?.sutSuite === suiteHash)) continue;
    for (const cell of store.cells.all({ suiteHash: hash })) {
      if (judgeIdentity !== undefined && cell.modelIdentity !== judgeIdentity) continue;
      const m = meta.get(cell.testId);
      const read = m && m.sutSuite === suiteHash ? readerOf(m) : undefined;
      if (!m || !read) continue;
      const key = verdictKey(m.modelIdentity, m.testId, m.repeat, m.responseKey);
      const earlier = out.get(key);
      if (earlier && earlier.at > cell.updatedAt) continue;
      const failed = cell.status !== 'done' || !cell.response;
      out.set(key, {
        verdict: failed
          ? ({
              ok: false,
              reason: `judge call failed: ${cell.error ? `${cell.error.kind}: ${cell.error.message}` : 'no response'}`,
            } as V)
          : read(cell.response?.text ?? ''),
        callFailed: failed,
        judge: cell.modelIdentity,
        at: cell.updatedAt,
      });
    }
  }
  return out;
}
