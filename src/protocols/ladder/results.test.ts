import { describe, expect, it } from 'vitest';
import { requestFor } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { Recording, scratchDir, testConfig } from '../../test-support/protocols/ladder/fakes.js';
import { ladderTest } from '../../test-support/protocols/ladder/ladder-test.js';
import { withPool } from '../define.js';
import { ladderSettings } from './config.js';
import { GRADE_SCHOOL_SEEDS } from './data/grade-school.js';
import { kbJudgeRequest } from './kb-judge.js';
import { JSON_ANSWER_PROMPT, KB_PROMPT } from './prompts.js';
import { loadLadderResults } from './results.js';
import { kbJudgeJobs, ladderSuite, ladderSuiteTest, runLadder } from './run.js';
import type { Family, LadderTest, Seed } from './types.js';

const [A, B] = GRADE_SCHOOL_SEEDS as [Seed, Seed];

const TESTS: LadderTest[] = [
  ladderTest(A, 'baseline', 0, A.question, { magnitude: 0 }),
  ladderTest(B, 'baseline', 0, B.question, { magnitude: 0 }),
  ladderTest(A, 'SV', 1, A.question.replace('bakes', 'makes'), { magnitude: 0.12 }),
  ladderTest(B, 'SV', 1, B.question.replace('buys', 'purchases'), { magnitude: 0.1 }),
  ladderTest(A, 'KB', 1, A.question.replace(/ 5 trays/, ' some trays'), {
    magnitude: 0.3,
    kbType: 'missing-information',
  }),
  ladderTest(B, 'KB', 5, `${B.question} The books are written on clouds.`, {
    magnitude: 0.4,
    kbType: 'impossible-premise',
  }),
  ladderTest(A, 'IQ', 2, A.question.replace('muffins', 'mufins'), { magnitude: 0.05 }),
];

/** The recorded SUT answers (the IQ test is left unrecorded: its call fails). */
const ANSWERS: Record<string, string> = {
  [TESTS[0]?.id as string]: `{"ground_truth": ${A.gold}}`,
  [TESTS[1]?.id as string]: 'The answer is 290.',
  [TESTS[2]?.id as string]: `Step by step...\n#### ${A.gold}`,
  [TESTS[3]?.id as string]: `{"ground_truth": ${B.gold}}`,
  [TESTS[4]?.id as string]: 'There is not enough information: how many trays were baked is missing.',
  [TESTS[5]?.id as string]: 'Books cannot be written on clouds, but counting anyway:\n#### 294',
};

describe('runLadder and loadLadderResults (replay SUT and judge)', () => {
  it('asks each test with the Appendix A prompt, scores it, judges KB, and rebuilds every figure from the store', async () => {
    const dir = scratchDir('waver-ladder-run-');
    const sut = new Recording(dir, 'sut.jsonl');
    const config0 = testConfig(dir, { models: [sut.spec] });
    const settings = ladderSettings(config0);
    for (const t of TESTS) {
      const answer = ANSWERS[t.id];
      if (answer !== undefined) sut.add(requestFor(ladderSuiteTest(t, settings, 1), config0.params), answer);
    }
    const suite = ladderSuite(TESTS, config0);
    const baseline = suite.tests[0];
    expect(baseline).toMatchObject({
      system: JSON_ANSWER_PROMPT,
      repeats: 3,
      prompt: `QUESTION: ${A.question}`,
    });
    expect(suite.tests[4]?.system).toBe(KB_PROMPT);
    expect(suite.tests.every((t) => t.repeats !== undefined)).toBe(true);

    // Run 1: no judge. KB is unavailable, not 0; the failed IQ call counts as incorrect and in coverage.
    const run1 = await withPool(config0, {}, (o) => runLadder(config0, TESTS, o));
    expect(run1.judge).toBeUndefined();
    const identity = run1.sut.models[0]?.identity as string;
    let store = openStore(config0.store);
    const r1 = loadLadderResults(store, run1.suite.hash, { seed: 3, settings: { resamples: 200 } });
    store.close();
    const m1 = r1.models[0];
    expect(r1.suite).toMatchObject({ tests: 7, seeds: 2, perturbed: 5, name: 'ladder/tests' });
    expect(m1?.coverage).toMatchObject({ total: 11, done: 10, failed: 1, pending: 0 });
    expect(m1?.complete).toBe(true);
    expect(m1?.judge).toEqual({ needed: 2, scored: 0, missing: 2 });
    const fam = (f: Family) => m1?.metrics.families.find((x) => x.family === f);
    expect(m1?.metrics.baseline.accuracy.value).toBe(0.5);
    expect(m1?.metrics.baseline.n).toBe(6);
    expect(fam('SV')?.levels[1].accuracy.value).toBe(1);
    expect(fam('IQ')?.levels[2]).toMatchObject({ n: 1, errors: 1 });
    expect(fam('IQ')?.levels[2].accuracy.value).toBe(0);
    expect(fam('KB')?.overall.accuracy.value).toBeUndefined();
    expect(fam('KB')?.overall.accuracy.unavailable).toMatch(/no judge/);
    const parsed = m1?.cells.find((c) => c.testId === TESTS[1]?.id);
    expect(parsed).toMatchObject({ parsed: 290, parsedVia: 'final-marker', score: 0 });
    expect(m1?.cells.find((c) => c.testId === TESTS[6]?.id)?.error).toMatch(/no_recording/);

    // Record the judge's verdicts for the exact requests waver will send: one usable, one not.
    const judge = new Recording(dir, 'judge.jsonl');
    const jobs = kbJudgeJobs(config0.store, run1.suite, [identity]);
    expect(jobs).toHaveLength(2);
    for (const job of jobs) {
      // The judge sees the question as asked and the model's full response.
      expect(kbJudgeRequest(job).messages.at(-1)?.content).toContain(ANSWERS[job.meta?.testId as string]);
      judge.add(
        kbJudgeRequest(job),
        job.meta?.testId === TESTS[4]?.id
          ? '{"score": 1.0, "reason": "says the number of trays is missing"}'
          : 'It is a fine answer.',
      );
    }

    // Run 2: with the judge. The SUT cells come from the store; the KB responses are judged.
    const config = testConfig(dir, { models: [sut.spec], judge: judge.spec });
    const run2 = await withPool(config, {}, (o) => runLadder(config, TESTS, o));
    // Only the failed IQ cell is asked again (and fails again): done cells are never re-asked.
    expect(run2.sut.summary.calls).toBe(1);
    expect(run2.judge).toMatchObject({ jobs: 2, failed: 0 });
    store = openStore(config.store);
    const r2 = loadLadderResults(store, run2.suite.hash, { seed: 3, settings: { resamples: 200 } });
    // Nothing but the store: a fresh read gives the same figures.
    const again = loadLadderResults(store, run2.suite.hash, { seed: 3, settings: { resamples: 200 } });
    store.close();
    expect(again).toEqual(r2);
    const m2 = r2.models[0];
    expect(m2?.judge).toMatchObject({ needed: 2, scored: 1, missing: 1, identity: run2.judge?.identity });
    // One of two KB responses without a usable verdict: below minCoverage, the model is incomplete.
    expect(m2?.complete).toBe(false);
    expect(m2?.incomplete).toMatch(/KB judged 1\/2/);
    const kb = m2?.metrics.kbByType.find((t) => t.kbType === 'missing-information');
    expect(kb?.accuracy.value).toBe(1);
    expect(kb?.recognise?.value).toBe(1);
    const impossible = m2?.cells.find((c) => c.testId === TESTS[5]?.id);
    expect(impossible?.score).toBeUndefined();
    expect(impossible?.judge).toMatchObject({ status: 'unparsable' });
    expect(m2?.metrics.families.find((f) => f.family === 'KB')?.levels[1].accuracy.value).toBe(1);
  });
});
