import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { specLabel, toModelSpec } from '../../models/spec.js';
import { runRole } from '../../run/roles.js';
import { type RunResult, runSuite } from '../../run/run-suite.js';
import { suiteOf } from '../../run/suite.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import { openStore } from '../../store/store.js';
import { sha256 } from '../../util/hash.js';
import type { PooledOptions } from '../types.js';
import { ANSWER_JUDGE_MAX_TOKENS, type AnswerJudgeJob, answerJudgeTest } from './answer-judge.js';
import { answerFormatOf, type LadderConfig, ladderSettings } from './config.js';
import { kbTypeOf, keepsNoAnswer } from './families/roster.js';
import { type JudgedCell, type KbJudgeJob, kbJudgeTest } from './kb-judge.js';
import { type AnswerFormat, systemPromptFor, userMessageFor } from './prompts.js';
import { scoreAnswer } from './score-answer.js';
import { ANSWER_JUDGE_SUITE, KB_JUDGE_SUITE, LADDER_TESTS_SUITE } from './suite-names.js';
import type { LadderSuiteTest } from './test-meta.js';
import { answerTypeOf, type LadderTest } from './types.js';

/**
 * Running the ladder (the paper's Section 4.3, docs/method.md#running-the-ladder): every test asked
 * with the Appendix A system prompt and `QUESTION: <text>`, each baseline `baselineRepeats` times,
 * through runSuite as the suite `ladder/tests`; then each Knowledge Boundary response judged on
 * the rubric through the judge role as the suite `ladder/kb-judge`. Scores and metrics are
 * computed afterwards from the store alone (results.ts).
 */

/**
 * The reference runners' output caps (docs/fidelity.md#ladder): 768 for the JSON prompt
 * (`run_sut_model.py`), 900 for the hashes prompt (`phi_cot_run.py`), the KB prompt included.
 * Every prompt asks for step-by-step work, so a smaller cap cuts answers before their last line.
 */
export const SUT_MAX_TOKENS: Record<AnswerFormat, number> = { json: 768, hashes: 900 };

/** How a model is asked the SUT tests: the answer format of its non-KB prompt and its output cap. */
export interface LadderAsk {
  answerFormat: AnswerFormat;
  maxTokens: number;
}

/** The default way of asking, and each model (by label) asked otherwise. */
export interface LadderAsks {
  default: LadderAsk;
  byModel: Map<string, LadderAsk>;
}

/**
 * How each model is asked. The cap, in the one order of docs/protocols.md#request:
 * `ladder.maxTokens` (`--max-tokens` on `waver ladder` sets it), else `params.maxTokens`, else the
 * format's SUT_MAX_TOKENS. Written into each test, so every cell's request carries it.
 */
export function ladderAsks(
  settings: LadderConfig,
  labels: readonly string[] = [],
  params: Pick<WaverConfig['params'], 'maxTokens'> = {},
): LadderAsks {
  const ask = (answerFormat: AnswerFormat): LadderAsk => ({
    answerFormat,
    maxTokens: settings.maxTokens ?? params.maxTokens ?? SUT_MAX_TOKENS[answerFormat],
  });
  const format = settings.answerFormat;
  const byFormat = typeof format === 'string' ? {} : format.models;
  for (const label of Object.keys(byFormat))
    if (!labels.includes(label))
      throw new InputError(
        `'${label}' is not a model of this run (${labels.length === 0 ? 'none given' : labels.join(', ')})`,
        { field: `ladder.answerFormat.models.${label}` },
      );
  const base = ask(typeof format === 'string' ? format : format.default);
  const byModel = new Map<string, LadderAsk>();
  for (const label of labels) {
    const own = ask(answerFormatOf(settings, label));
    if (own.answerFormat !== base.answerFormat || own.maxTokens !== base.maxTokens) byModel.set(label, own);
  }
  return { default: base, byModel };
}

/** The SUT suite: one SuiteTest per ladder test, the LadderTest kept in `meta` for results.ts. */
export function ladderSuite(tests: readonly LadderTest[], config: WaverConfig): Suite<LadderSuiteTest> {
  const settings = ladderSettings(config);
  const asks = configAsks(config, settings);
  return suiteOf(
    LADDER_TESTS_SUITE,
    tests.map((t) => ladderSuiteTest(t, settings, config.repeats, asks)),
  );
}

/**
 * The config the SUT suite runs with: its params hold the cap the tests were resolved with, so
 * the run records what its cells are sent (a model asked otherwise has its own in `byModel`).
 */
export function ladderRunConfig(config: WaverConfig): WaverConfig {
  const asks = configAsks(config, ladderSettings(config));
  return { ...config, params: { ...config.params, maxTokens: asks.default.maxTokens } };
}

function configAsks(config: WaverConfig, settings: LadderConfig): LadderAsks {
  const labels = config.models.map((m, i) => specLabel(toModelSpec(m, { field: `models.${i}` })));
  return ladderAsks(settings, labels, config.params);
}

export function ladderSuiteTest(
  test: LadderTest,
  settings: LadderConfig,
  repeats: number,
  asks: LadderAsks = ladderAsks(settings),
): LadderSuiteTest {
  const { id, ...meta } = test;
  const type = answerTypeOf(test);
  const system = systemPromptFor(test.family, asks.default.answerFormat, settings.kbPrompt, type);
  const byModel: NonNullable<SuiteTest['byModel']> = {};
  for (const [label, ask] of asks.byModel) {
    const own = systemPromptFor(test.family, ask.answerFormat, settings.kbPrompt, type);
    const asked = {
      ...(own !== system && { system: own }),
      ...(ask.maxTokens !== asks.default.maxTokens && { maxTokens: ask.maxTokens }),
    };
    if (Object.keys(asked).length > 0) byModel[label] = asked;
  }
  return {
    id,
    system,
    prompt: userMessageFor(test.text),
    maxTokens: asks.default.maxTokens,
    ...(Object.keys(byModel).length > 0 && { byModel }),
    // Written on every test, so the cells a model owes are known from the suite alone.
    repeats: test.family === 'baseline' ? settings.baselineRepeats : repeats,
    meta: { ...meta },
  };
}

/** A judge pass: the judge's identity, its suite and how many of its calls failed. */
export interface JudgePass {
  identity: string;
  suiteHash: string;
  jobs: number;
  failed: number;
}

export interface LadderRunResult {
  suite: Suite<LadderSuiteTest>;
  sut: RunResult;
  /** The KB judge pass: undefined when no judge is configured or nothing needed judging. */
  judge?: JudgePass;
  /** The answer judge pass (short answers normalisation could not decide); undefined likewise. */
  answerJudge?: JudgePass;
}

/**
 * Progress goes to `onProgress`: the SUT pass, then (after its `onStage`) the KB judge pass and
 * the answer judge pass. A model that is both a system under test and the judge is one instance of
 * the pool, with one rate-limit bucket for every pass.
 */
export async function runLadder(
  config: WaverConfig,
  tests: readonly LadderTest[],
  opts: PooledOptions,
): Promise<LadderRunResult> {
  const settings = ladderSettings(config);
  const suite = ladderSuite(tests, config);
  const sut = await runSuite(ladderRunConfig(config), suite, opts);
  if (config.judge === undefined || sut.summary.aborted) return { suite, sut };
  const identities = sut.models.map((m) => m.identity);

  const pass = async (name: string, judgeTests: SuiteTest[], maxTokens: number, what: string) => {
    if (judgeTests.length === 0) return undefined;
    opts.onStage?.(name, `judging ${judgeTests.length} ${what} (${name})`);
    const judged = await runRole(
      config,
      'judge',
      name,
      [{ temperature: 0, maxTokens, tests: judgeTests }],
      opts,
    );
    return {
      identity: judged.identity,
      suiteHash: suiteOf(name, judgeTests).hash,
      jobs: judgeTests.length,
      failed: [...judged.answers.values()].filter((a) => !a.ok).length,
    };
  };
  const judge = await pass(
    KB_JUDGE_SUITE,
    kbJudgeJobs(config.store, suite, identities).map((job) => kbJudgeTest(job, settings.kbScoring)),
    settings.kbJudgeMaxTokens,
    'Knowledge Boundary responses',
  );
  const answerJudge = opts.signal?.aborted
    ? undefined
    : await pass(
        ANSWER_JUDGE_SUITE,
        answerJudgeJobs(config.store, suite, identities).map(answerJudgeTest),
        ANSWER_JUDGE_MAX_TOKENS,
        'short answers normalisation could not decide',
      );
  return { suite, sut, ...(judge && { judge }), ...(answerJudge && { answerJudge }) };
}

/**
 * A judge job for every done cell of the given models that `jobOf` makes one for, read from the
 * store. The job's meta ties the verdict back to its cell (suite, model identity, test, repeat, and
 * the stored response it judged, so a response replaced later is never matched with an old verdict).
 */
function judgeJobs<J>(
  storePath: string,
  suite: Suite<LadderSuiteTest>,
  identities: readonly string[],
  jobOf: (test: LadderSuiteTest, response: string, key: string, meta: JudgedCell) => J | undefined,
): J[] {
  const byId = new Map(suite.tests.map((t) => [t.id, t]));
  const store = openStore(storePath);
  try {
    const jobs: J[] = [];
    for (const identity of identities) {
      const tag = sha256(identity).slice(0, 12);
      for (const cell of store.cells.all({
        suiteHash: suite.hash,
        modelIdentity: identity,
        status: 'done',
      })) {
        const test = byId.get(cell.testId);
        if (!test || !cell.response) continue;
        const job = jobOf(test, cell.response.text, `${tag}/${cell.testId}/${cell.repeat}`, {
          sutSuite: suite.hash,
          modelIdentity: identity,
          testId: cell.testId,
          repeat: cell.repeat,
          responseKey: cell.responseKey,
        });
        if (job) jobs.push(job);
      }
    }
    return jobs;
  } finally {
    store.close();
  }
}

/** An answer judge job for every done cell of a short-answer test whose reply normalisation cannot match (score-answer.ts). */
export function answerJudgeJobs(
  storePath: string,
  suite: Suite<LadderSuiteTest>,
  identities: readonly string[],
): AnswerJudgeJob[] {
  return judgeJobs(storePath, suite, identities, ({ meta }, response, key, cell) => {
    if (meta.answerType !== 'text' || keepsNoAnswer(meta.family)) return undefined;
    if (!scoreAnswer(meta, response).undecided) return undefined;
    return {
      key,
      question: meta.text,
      answers: [String(meta.gold), ...(meta.aliases ?? [])],
      response,
      meta: cell,
    };
  });
}

/** A KB judge job for every done cell of a family that keeps no answer (KB's), for the given models. */
export function kbJudgeJobs(
  storePath: string,
  suite: Suite<LadderSuiteTest>,
  identities: readonly string[],
): KbJudgeJob[] {
  return judgeJobs(storePath, suite, identities, ({ meta }, response, key, cell) => {
    if (!keepsNoAnswer(meta.family)) return undefined;
    const kbType = kbTypeOf(meta);
    return {
      key,
      question: meta.text,
      response,
      ...(kbType && { kbType }),
      ...(meta.answerType !== undefined && { answerType: meta.answerType }),
      meta: cell,
    };
  });
}
