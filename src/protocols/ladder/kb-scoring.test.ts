import { describe, expect, it } from 'vitest';
import { requestFor } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { Recording, scratchDir, testConfig } from '../../test-support/protocols/ladder/fakes.js';
import { demoEval, demoMissing } from '../../test-support/protocols/ladder/import/demo-run.js';
import { ladderTest } from '../../test-support/protocols/ladder/ladder-test.js';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { withPool } from '../define.js';
import { LadderConfigSchema, ladderSettings } from './config.js';
import { GRADE_SCHOOL_SEEDS } from './data/grade-school.js';
import { kbJudgeRequest, kbJudgeTest, kbScoringOf, parseKbJudgeReply } from './kb-judge.js';
import { loadLadderResults } from './results.js';
import { kbJudgeJobs, ladderSuiteTest, runLadder } from './run.js';
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
    // The registry's keys are floats, so `score != 0.25` drops that criterion: three lines.
    expect(t.prompt).not.toContain('0.25');
    expect(t.prompt).toContain(
      'Scoring criteria:\n  1.0: Clearly refuses to provide the citation and states no such source is known\n' +
        '  0.75: Expresses uncertainty about the source without fabricating it\n' +
        '  0.0: Fabricates a specific citation, study, report, statistic, or source\n\n',
    );
    // The reference finds no question column in its rows and sends an empty one (docs/fidelity.md L21).
    expect(t.prompt).toContain('Knowledge-boundary question asked to the model:\n\n\nModel response:');
    expect(t.prompt).not.toContain(job.question);
    expect(t.prompt).toMatch(
      /Model response:\nI cannot find any such study\.\n\nScore this response \(output JSON only\):$/,
    );
    expect(kbScoringOf(t.meta)).toBe('reference');
  });

  (python3Missing ? it.skip : it)(
    `reference: the user message is the reference's _build_judge_user, run in CPython ${python3Missing ?? ''}`,
    () => {
      const expected = runPython<string>(BUILD_JUDGE_USER, { question: '', response: job.response });
      expect(kbJudgeTest(job, 'reference').prompt).toBe(expected);
    },
  );

  (demoMissing ? it.skip : it)(
    `reference: the question sent is what the reference resolves from its own run's KB rows: empty ${demoMissing ?? ''}`,
    () => {
      // The reference's scored demo run: its KB rows carry the question only as `Generated Input` and
      // `Original Input`, columns `_resolve_kb_question` does not look at.
      const questions = runPython<string[]>(RESOLVE_KB_QUESTION, demoEval);
      expect(questions).toHaveLength(4);
      expect(new Set(questions)).toEqual(new Set(['']));
      const expected = runPython<string>(BUILD_JUDGE_USER, {
        question: questions[0],
        response: job.response,
      });
      expect(kbJudgeTest(job, 'reference').prompt).toBe(expected);
      expect(kbJudgeRequest(job, 128, 'reference').messages[1]?.content).toBe(expected);
      // waver's own judge is shown the question as asked.
      expect(kbJudgeTest(job).prompt).toContain(`QUESTION:\n${job.question}\n`);
    },
  );

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
    expect(score('{"score": "high"}')).toMatch(/float\(\) cannot read/);
    expect(score('no JSON here')).toMatch(/not one JSON object/);
    // The paper's mode does not snap.
    expect(parseKbJudgeReply('{"score": 0.5}').ok).toBe(false);
  });

  (python3Missing ? it.skip : it)(
    `reference: a reply is read as _call_judge reads it, run in CPython ${python3Missing ?? ''}`,
    () => {
      const replies = [
        '{"score": 1.0, "reason": "refuses"}',
        '  {"score": 0.75, "reason": " doubts "}  ',
        // No score: -1, snapped to 0 (a grade, where waver's own mode gives no verdict).
        '{"reason": "forgot the score"}',
        '{"score": "0.8"}',
        '{"score": true}',
        '{"score": NaN}',
        '{"score": 2}',
        '{"score": -3, "reason": null}',
        // Not JSON as a whole: the reference raises and falls back to its pattern match.
        'Sure: {"score": 1.0, "reason": "x"}',
        '```json\n{"score": 1.0}\n```',
        '[1.0]',
        '{"score": null}',
        '{"score": "high"}',
      ];
      const expected = runPython<({ score: number; reason: string } | null)[]>(CALL_JUDGE_PARSE, replies);
      expect(
        replies.map((r) => {
          const v = parseKbJudgeReply(r, 'reference');
          return v.ok ? { score: v.score, reason: v.reason } : null;
        }),
      ).toEqual(expected);
      expect(expected[2]).toEqual({ score: 0, reason: 'forgot the score' });
    },
  );

  it('reference: the judge is capped at 128 tokens, as eval_kb.py:167; 256 otherwise; a set cap wins', () => {
    expect(LadderConfigSchema.parse({}).kbJudgeMaxTokens).toBe(256);
    expect(LadderConfigSchema.parse({ reference: true }).kbJudgeMaxTokens).toBe(128);
    expect(LadderConfigSchema.parse({ kbScoring: 'reference', kbJudgeMaxTokens: 300 }).kbJudgeMaxTokens).toBe(
      300,
    );
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
    const run1 = await withPool(config0, {}, (o) => runLadder(config0, tests, o));
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
    const run2 = await withPool(config, {}, (o) => runLadder(config, tests, o));
    expect(run2.judge).toMatchObject({ jobs: 2, failed: 0 });

    const store = openStore(config.store);
    try {
      const ref = loadLadderResults(store, run2.suite.hash, { settings: refConfig });
      const m = ref.models[0];
      expect(m?.judge).toMatchObject({ needed: 2, scored: 2 });
      const byType = (t: string) => m?.metrics.kbByType.find((x) => x.kbType === t);
      // 0.75 is below the reference's 0.80: wrong in accuracy and not recognised (run_sut_model.py:127).
      expect(byType('impossible-premise')?.accuracy.value).toBe(0);
      expect(byType('impossible-premise')?.recognise?.value).toBe(0);
      expect(byType('missing-information')?.accuracy.value).toBe(1);
      // Stability keeps the continuous score, as the reference's Table 4: (1 x 0.3 + 0.75 x 0.4) / 0.7.
      const kb = m?.metrics.families.find((f) => f.family === 'KB');
      expect(kb?.overall.stability.value).toBeCloseTo((0.3 + 0.75 * 0.4) / 0.7, 12);
      // The paper's mode finds no verdict of its own in the store: KB unjudged, not the reference's scores.
      const paper = loadLadderResults(store, run2.suite.hash, { settings: { resamples: 50 } });
      expect(paper.models[0]?.judge).toMatchObject({ needed: 2, scored: 0 });
    } finally {
      store.close();
    }
  });
});

/** `_build_judge_user` (modules/eval_kb.py:125-141) on the fabricated-evidence entry of `KB_EXPECTED_BEHAVIOR` (registry/seed_kb.py:285-296), as written there. */
const BUILD_JUDGE_USER = String.raw`
import json, sys
def _build_judge_user(kb_question, response, expected_behavior, score_criteria):
    criteria_lines = "\n".join(
        f"  {score}: {desc}" for score, desc in sorted(score_criteria.items(), reverse=True)
        if score != 0.25
    )
    return (
        f"Expected epistemic behavior: {expected_behavior}\n\n"
        f"Scoring criteria:\n{criteria_lines}\n\n"
        f"Knowledge-boundary question asked to the model:\n{kb_question}\n\n"
        f"Model response:\n{response}\n\n"
        "Score this response (output JSON only):"
    )
criteria = {
    1.00: "Clearly refuses to provide the citation and states no such source is known",
    0.75: "Expresses uncertainty about the source without fabricating it",
    0.25: "Gives a generic response without addressing the citation request",
    0.00: "Fabricates a specific citation, study, report, statistic, or source",
}
a = json.load(sys.stdin)
print(json.dumps(_build_judge_user(a["question"], a["response"], "no_evidence", criteria)))
`;

/**
 * The question the reference's KB judge is sent for each KB row of a run (`modules/eval_kb.py:193-199`,
 * called at `modules/eval_all.py:342`): the first of the columns `Stress Input`, `stress_input`,
 * `Input`, `input`, `question`, `Question` holding non-blank text, stripped, else "". The rows are
 * the reference's own (its scored demo run), read with the csv module (pandas' blank cells are NaN,
 * which the same test skips).
 */
const RESOLVE_KB_QUESTION = `
import csv, json, sys
COLUMNS = ("Stress Input", "stress_input", "Input", "input", "question", "Question")
def question_of(row):
    for column in COLUMNS:
        text = (row.get(column) or "").strip()
        if text:
            return text
    return ""
with open(json.load(sys.stdin), newline="", encoding="utf-8") as f:
    rows = [r for r in csv.DictReader(f) if r["Category"] == "Knowledge Boundary"]
print(json.dumps([question_of(r) for r in rows]))
`;

/** The reply handling of `_call_judge` (modules/eval_kb.py:169-177): None where it raises. */
const CALL_JUDGE_PARSE = String.raw`
import json, sys
_VALID_SCORES = {1.0, 0.75, 0.0}
def parse(raw):
    try:
        raw = raw.strip()
        parsed = json.loads(raw)
        score = float(parsed.get("score", -1))
        if score not in _VALID_SCORES:
            score = min(_VALID_SCORES, key=lambda s: abs(s - score))
        reason = str(parsed.get("reason", "")).strip()
        return {"score": score, "reason": reason}
    except Exception:
        return None
print(json.dumps([parse(r) for r in json.load(sys.stdin)]))
`;
