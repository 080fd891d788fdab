import type { WaverConfig } from '../../config/schema.js';
import { answerAtMost, type ModelEstimate } from '../../run/estimate.js';
import { planCells, plannedModels } from '../../run/plan.js';
import { estimateRole } from '../../run/roles.js';
import { estimateSuite } from '../../run/run-suite.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import type { PooledOptions } from '../types.js';
import { ANSWER_JUDGE_MAX_TOKENS, answerJudgeTest } from './answer-judge.js';
import { type LadderConfig, ladderSettings } from './config.js';
import { generationBatches } from './families/model-generator.js';
import { ladderFamily } from './families/registry.js';
import { kbTypeOf, keepsNoAnswer } from './families/roster.js';
import { GATE_MAX_TOKENS, TEST_OF } from './gates/model-gates.js';
import { kbJudgeTest } from './kb-judge.js';
import { ladderRunConfig, ladderSuite } from './run.js';
import type { LadderBuildAsks } from './suite.js';
import {
  ANSWER_JUDGE_SUITE,
  GATE_SUITES,
  GENERATOR_SUITE,
  KB_JUDGE_SUITE,
  LADDER_TESTS_SUITE,
  MODEL_GATE_NAMES,
} from './suite-names.js';
import type { LadderSuiteTest } from './test-meta.js';
import type { LadderTest } from './types.js';

/** What a dry run's build would have asked the models at most, and the tests it could admit beyond those it built. */
export interface LadderUnasked extends Pick<LadderBuildAsks, 'generator' | 'gates'> {
  tests: LadderTest[];
}

/**
 * `--dry-run` of a ladder run (docs/decisions.md E39), a row per role and suite in the order the
 * run asks them: the build's generator and gate judges (when the suite is built here with a
 * model), the systems under test, then the KB judge and the answer judge. What depends on answers
 * not given yet is a bound: the gates' calls, the tests they admit, one KB verdict per KB cell and
 * one answer verdict per short answer.
 */
export async function estimateLadder(
  config: WaverConfig,
  plan: { tests: LadderTest[]; unasked?: LadderUnasked },
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  const settings = ladderSettings(config);
  const rows = plan.unasked ? await buildRows(config, settings, plan.unasked, opts) : [];
  const suite = ladderSuite([...plan.tests, ...(plan.unasked?.tests ?? [])], config);
  const sut = { role: 'model', stage: LADDER_TESTS_SUITE, bound: plan.unasked !== undefined } as const;
  rows.push(...(await estimateSuite(ladderRunConfig(config), suite, opts, sut)));
  if (config.judge === undefined) return rows;
  const judged = judgedCells(config, settings, suite);
  for (const [stage, tests, maxTokens] of [
    [KB_JUDGE_SUITE, judged.kb, settings.kbJudgeMaxTokens],
    [ANSWER_JUDGE_SUITE, judged.answers, ANSWER_JUDGE_MAX_TOKENS],
  ] as const)
    rows.push(
      ...(await estimateRole(config, 'judge', stage, [{ temperature: 0, maxTokens, tests }], opts, true)),
    );
  return rows;
}

/** The generator's jobs (a bound past one attempt: a slot is asked again only while none passed) and each gate's. */
async function buildRows(
  config: WaverConfig,
  settings: LadderConfig,
  unasked: LadderUnasked,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  const rows: ModelEstimate[] = [];
  if (unasked.generator.length > 0) {
    const { batches } = generationBatches(ladderFamily, unasked.generator);
    rows.push(
      ...(await estimateRole(config, 'generator', GENERATOR_SUITE, batches, opts, settings.attempts > 1)),
    );
  }
  for (const gate of MODEL_GATE_NAMES) {
    const tests = unasked.gates
      .filter((j) => ladderFamily(j.family).modelGates.includes(gate))
      .map(TEST_OF[gate]);
    const batch = { temperature: 0, maxTokens: GATE_MAX_TOKENS[gate], tests };
    rows.push(...(await estimateRole(config, 'judge', GATE_SUITES[gate], [batch], opts, true)));
  }
  return rows;
}

/**
 * The judge tests the SUT cells may need: every KB cell's, and every short-answer cell's (those
 * normalisation cannot decide, known only from the answers), each reading an answer as long as its
 * cell's request lets it be.
 */
function judgedCells(
  config: WaverConfig,
  settings: LadderConfig,
  suite: Suite<LadderSuiteTest>,
): { kb: SuiteTest[]; answers: SuiteTest[] } {
  const byId = new Map(suite.tests.map((t) => [t.id, t]));
  const kb: SuiteTest[] = [];
  const answers: SuiteTest[] = [];
  for (const cell of planCells(suite, plannedModels(config), ladderRunConfig(config))) {
    const { meta } = byId.get(cell.testId) as LadderSuiteTest;
    const key = `${cell.model}/${cell.testId}/${cell.repeat}`;
    const response = answerAtMost(cell.request.maxTokens);
    if (keepsNoAnswer(meta.family)) {
      const kbType = kbTypeOf(meta);
      const job = { key, question: meta.text, response, ...(kbType && { kbType }) };
      kb.push(
        kbJudgeTest({ ...job, ...(meta.answerType && { answerType: meta.answerType }) }, settings.kbScoring),
      );
    } else if (meta.answerType === 'text')
      answers.push(
        answerJudgeTest({
          key,
          question: meta.text,
          answers: [String(meta.gold), ...(meta.aliases ?? [])],
          response,
        }),
      );
  }
  return { kb, answers };
}
