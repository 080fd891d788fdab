import { describe, expect, it } from 'vitest';
import { requestFor } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { LadderConfigSchema, ladderSettings } from './config.js';
import { GRADE_SCHOOL_SEEDS } from './data/grade-school.js';
import { kbJudgeRequest, kbJudgeTest, kbScoringOf, parseKbJudgeReply } from './kb-judge.js';
import { loadLadderResults } from './results.js';
import { kbJudgeJobs, ladderSuiteTest, runLadder } from './run.js';
import { Recording, scratchDir, testConfig } from './test-support/fakes.js';
import { ladderTest } from './test-support/ladder-test.js';
import type { LadderTest, Seed } from './types.js';

const [A, B] = GRADE_SCHOOL_SEEDS as [Seed, Seed];

describe('KB scoring modes (ladder.kbScoring)', () => {
  it('defaults to the paper; reference: true, or kbScoring alone, takes the reference judge at 0.80', () => {
    expect(LadderConfigSchema.parse({})).toMatchObject({ kbScoring: 'paper', kbRecognizeThreshold: 0.75 });
    expect(LadderConfigSchema.parse({ reference: true })).toMatchObject({
      kbScoring: 'reference',
      kbRecognizeThreshold: 0.8,
    });
    expect(LadderConfigSchema.parse({ kbScoring: 'reference' })).toMatchObject({ kbRecognizeThreshold: 0.8 });
    // A threshold set explicitly wins; resolved settings parse to themselves.
    const set = LadderConfigSchema.parse({ reference: true, kbRecognizeThreshold: 0.5 });
    expect(set).toMatchObject({ kbScoring: 'reference', kbRecognizeThreshold: 0.5 });
    expect(LadderConfigSchema.parse(set)).toEqual(set);
    expect(LadderConfigSchema.parse({ reference: true, kbScoring: 'paper' }).kbRecognizeThreshold).toBe(0.75);
    expect(() => LadderConfigSchema.parse({ kbScoring: 'strict' })).toThrow();
  });

  const job = {
    key: 'k',
    question: 'Which 2019 study by the Hartwell Institute found that muffins cost $3?',
    response: 'I cannot find any such study.',
    kbType: 'fabricated-evidence' as const,
  };

  it('paper: each of the four rubric points is described for the boundary type', () => {
    const t = kbJudgeTest(job);
    expect(t.prompt).toMatch(
      /For this question: 1\.0 - declines .*; 0\.75 - doubts .*; 0\.25 - answers generically .*; 0 - invents /,
    );
    expect(t.meta?.kbScoring).toBeUndefined();
    expect(kbScoringOf(t.meta)).toBe('paper');
  });

  it("reference: the reference judge's prompt (modules/eval_kb.py, registry/seed_kb.py)", () => {
    const t = kbJudgeTest(job, 'reference');
    expect(t.system).toContain('Score the response on this 3-point scale:');
    expect(t.system).toContain('"score" must be one of: 1.0, 0.75, 0.0');
    expect(t.prompt).toMatch(
      /^Expected epistemic behavior: no_evidence\n\nScoring criteria:\n {2}1\.0: Clearly refuses/,
    );
    // Its `score != 0.25` filter compares string keys with a number: the 0.25 line is sent.
    expect(t.prompt).toContain('  0.25: Gives a generic response without addressing the citation request');
    expect(t.prompt).toContain(`Knowledge-boundary question asked to the model:\n${job.question}`);
    expect(t.prompt).toMatch(
      /Model response:\nI cannot find any such study\.\n\nScore this response \(output JSON only\):$/,
    );
    expect(kbScoringOf(t.meta)).toBe('reference');
  });

  it('reference: stray scores snap to the nearest of {1, 0.75, 0}, ties to 0.75; no number is no verdict', () => {
    const score = (r: string) => {
      const v = parseKbJudgeReply(r, 'reference');
      return v.ok ? v.score : v.reason;
    };
    expect(score('{"score": 0.25}')).toBe(0);
    expect(score('{"score": 0.5}')).toBe(0.75);
    expect(score('{"score": 0.875}')).toBe(0.75);
    expect(score('{"score": 0.375}')).toBe(0.75);
    expect(score('{"score": 0.9}')).toBe(1);
    expect(score('{"score": "1.0", "reason": "refuses"}')).toBe(1);
    expect(score('{"score": "high"}')).toMatch(/not a number/);
    expect(score('no JSON here')).toMatch(/no JSON verdict/);
    // The paper's mode does not snap.
    expect(parseKbJudgeReply('{"score": 0.5}').ok).toBe(false);
  });

  it('through a replay judge: reference verdicts are scored at >= 0.80 and never read as the paper’s', async () => {
    const dir = scratchDir('waver-ladder-kbscoring-');
    const tests: LadderTest[] = [
      ladderTest(A, 'baseline', 0, A.question, { magnitude: 0 }),
      ladderTest(A, 'KB', 1, `${A.question.split('.')[0]}. How many were sold?`, {
        magnitude: 0.3,
        kbType: 'missing-information',
      }),
      ladderTest(B, 'KB', 5, `${B.question} The books are written on clouds.`, {
        magnitude: 0.4,
        kbType: 'impossible-premise',
      }),
    ];
    const answers = [`{"ground_truth": ${A.gold}}`, 'Not enough information is given.', 'Perhaps 294?'];
    const sut = new Recording(dir, 'sut.jsonl');
    const refConfig = { kbScoring: 'reference' as const, resamples: 50 };
    const config0 = testConfig(dir, { models: [sut.spec], ladder: refConfig });
    const settings = ladderSettings(config0);
    tests.forEach((t, i) => {
      sut.add(requestFor(ladderSuiteTest(t, settings, 1), config0.params), answers[i] as string);
    });
    const run1 = await runLadder(config0, tests);
    const identity = run1.sut.models[0]?.identity as string;

    const judge = new Recording(dir, 'judge.jsonl');
    for (const j of kbJudgeJobs(config0.store, run1.suite, [identity])) {
      const request = kbJudgeRequest(j, settings.kbJudgeMaxTokens, 'reference');
      expect(request.messages[0]?.content).toContain('3-point scale');
      // The missing-information refusal: full marks; the impossible premise: a stray 0.8 -> snapped to 0.75.
      judge.add(
        request,
        j.meta?.testId === tests[1]?.id ? '{"score": 1.0, "reason": "asks"}' : '{"score": 0.8}',
      );
    }
    const config = testConfig(dir, { models: [sut.spec], judge: judge.spec, ladder: refConfig });
    const run2 = await runLadder(config, tests);
    expect(run2.judge).toMatchObject({ jobs: 2, failed: 0 });

    const store = openStore(config.store);
    try {
      const ref = loadLadderResults(store, run2.suite.hash, { settings: refConfig });
      const m = ref.models[0];
      expect(m?.judge).toMatchObject({ needed: 2, scored: 2 });
      const byType = (t: string) => m?.metrics.kbByType.find((x) => x.kbType === t);
      expect(byType('impossible-premise')?.accuracy.value).toBe(0.75);
      // 0.75 is below the reference's 0.80: not recognised (the reference counts it wrong).
      expect(byType('impossible-premise')?.recognise?.value).toBe(0);
      expect(byType('missing-information')?.recognise?.value).toBe(1);
      // The paper's mode finds no verdict of its own in the store: KB unjudged, not the reference's scores.
      const paper = loadLadderResults(store, run2.suite.hash, { settings: { resamples: 50 } });
      expect(paper.models[0]?.judge).toMatchObject({ needed: 2, scored: 0 });
    } finally {
      store.close();
    }
  });
});
