import { describe, expect, it } from 'vitest';
import { requestFor, roleParams } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { Recording, scratchDir, testConfig } from '../../test-support/protocols/ladder/fakes.js';
import { ladderTest } from '../../test-support/protocols/ladder/ladder-test.js';
import { withPool } from '../define.js';
import { ANSWER_JUDGE_MAX_TOKENS, answerJudgeTest, parseAnswerJudgeReply } from './answer-judge.js';
import { ladderSettings } from './config.js';
import { ladderJudged } from './judged.js';
import { loadLadderResults } from './results.js';
import { answerJudgeJobs, ladderSuiteTest, runLadder } from './run.js';
import type { LadderTest, TextSeed } from './types.js';

/** TriviaQA's first row (../shared/data/triviaqa/triviaqa_sm_sub.jsonl line 1), a few of its aliases. */
const ONION: TextSeed = {
  id: 'trivia-1',
  answerType: 'text',
  question: 'Brunswick, Lancastrian and Pearl Pickler are types of which vegetable?',
  gold: 'Onion',
  aliases: ['Allium cepa', 'Bulb onion', 'Onions'],
  source: 'triviaqa triviaqa/triviaqa_sm_sub.jsonl:1',
};

describe('the answer judge', () => {
  it('reads a boolean verdict from the last JSON object, and fails closed on anything else', () => {
    expect(parseAnswerJudgeReply('{"correct": true, "reason": "Allium cepa is the onion"}')).toEqual({
      ok: true,
      correct: true,
      reason: 'Allium cepa is the onion',
    });
    expect(
      parseAnswerJudgeReply('x {"correct": true} then {"correct": false, "reason": "garlic"}'),
    ).toMatchObject({
      ok: true,
      correct: false,
    });
    expect(parseAnswerJudgeReply('{"correct": "yes"}')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/fail closed/),
    });
    expect(parseAnswerJudgeReply('It is correct.')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no JSON verdict/),
    });
  });

  it('shows the question, every accepted answer and the full response', () => {
    const t = answerJudgeTest({
      key: 'k',
      question: ONION.question,
      answers: ['Onion', 'Allium cepa'],
      response: 'A shallot?',
    });
    expect(t.prompt).toContain(`QUESTION:\n${ONION.question}`);
    expect(t.prompt).toContain('ACCEPTED ANSWERS:\n- Onion\n- Allium cepa');
    expect(t.prompt).toContain('RESPONSE:\nA shallot?');
    expect(t.system).toMatch(/Reply with ONLY a JSON object: \{"correct": true or false/);
  });

  it('scores what normalisation cannot decide by its verdict, wrong without one, and counts them', async () => {
    const dir = scratchDir('waver-ladder-answer-judge-');
    const tests: LadderTest[] = [
      ladderTest(ONION, 'baseline', 0, ONION.question),
      ladderTest(ONION, 'SV', 1, 'Which vegetable has the types Brunswick, Lancastrian and Pearl Pickler?'),
      ladderTest(ONION, 'IQ', 1, 'Brunswick, Lancastrian and Pearl Picklr are types of which vegetable?'),
      ladderTest(ONION, 'F', 2, 'Brunswick, Lancastrian and Pearl Pickler\nare types of which vegetable?'),
    ];
    const answers = [
      '{"answer": "Onion"}', // exact
      '{"answer": "the common bulb vegetable, A. cepa"}', // undecided: the judge says correct
      '{"answer": "Garlic"}', // undecided: the judge says wrong
      '{"answer": "shallot-like bulb"}', // undecided: the judge's reply is unreadable
    ];
    const sut = new Recording(dir, 'sut.jsonl');
    const config0 = testConfig(dir, { models: [sut.spec], ladder: { resamples: 50 } });
    const settings = ladderSettings(config0);
    tests.forEach((t, i) => {
      sut.add(requestFor(ladderSuiteTest(t, settings, 1), config0.params), answers[i] as string);
    });
    // Without a judge: the three undecided answers are wrong, counted, and the run is still complete.
    const run1 = await withPool(config0, {}, (o) => runLadder(config0, tests, o));
    const identity = run1.sut.models[0]?.identity as string;
    let store = openStore(config0.store);
    try {
      const m = loadLadderResults(store, run1.suite.hash, { settings: { resamples: 50 } }).models[0];
      expect(m?.answerJudge).toEqual({ needed: 3, scored: 0, missing: 3 });
      expect(m?.complete).toBe(true);
      // The baseline is asked three times (ladder.baselineRepeats).
      expect(m?.cells.map((c) => [c.score, c.parsedVia, c.judge?.status])).toEqual([
        ...Array(3).fill([1, 'exact', undefined]),
        [0, 'undecided', 'not-run'],
        [0, 'undecided', 'not-run'],
        [0, 'undecided', 'not-run'],
      ]);
    } finally {
      store.close();
    }

    const jobs = answerJudgeJobs(config0.store, run1.suite, [identity]);
    expect(jobs.map((j) => j.meta?.testId)).toEqual(tests.slice(1).map((t) => t.id));
    expect(jobs[0]?.answers).toEqual(['Onion', 'Allium cepa', 'Bulb onion', 'Onions']);
    const judge = new Recording(dir, 'judge.jsonl');
    const replies = [
      '{"correct": true, "reason": "A. cepa is the onion"}',
      '{"correct": false, "reason": "garlic"}',
      'maybe',
    ];
    jobs.forEach((j, i) => {
      judge.add(requestFor(answerJudgeTest(j), roleParams(0, ANSWER_JUDGE_MAX_TOKENS)), replies[i] as string);
    });
    const config = testConfig(dir, { models: [sut.spec], judge: judge.spec, ladder: { resamples: 50 } });
    const run2 = await withPool(config, {}, (o) => runLadder(config, tests, o));
    expect(run2.answerJudge).toMatchObject({ jobs: 3, failed: 0 });
    expect(run2.judge).toBeUndefined();
    store = openStore(config.store);
    try {
      const m = loadLadderResults(store, run2.suite.hash, { settings: { resamples: 50 } }).models[0];
      expect(m?.cells.map((c) => [c.score, c.parsedVia, c.judge?.status])).toEqual([
        ...Array(3).fill([1, 'exact', undefined]),
        [1, 'judge', 'scored'],
        [0, 'judge', 'scored'],
        [0, 'undecided', 'unparsable'],
      ]);
      expect(m?.answerJudge).toMatchObject({ needed: 3, scored: 2, missing: 1 });
      // 2 of 3 decided is below minCoverage (0.9): incomplete, and says why.
      expect(m?.incomplete).toBe('answer judge decided 2/3 short answers (< 90%)');
      // What the judge decided is listed for `waver judge` (docs/judges.md#what-is-judged).
      const items = ladderJudged(store).filter((i) => i.task === 'ladder/answer');
      expect(items).toHaveLength(3);
      expect(items.map((i) => i.verdicts[0]?.label)).toEqual(['correct', 'incorrect', undefined]);
      expect(items[0]?.item).toContain('Accepted answers:\n- Onion\n- Allium cepa');
    } finally {
      store.close();
    }
  });
});
