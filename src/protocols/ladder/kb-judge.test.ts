import { describe, expect, it } from 'vitest';
import { kbJudgeRequest, kbJudgeTest, parseKbJudgeReply, recognises } from './kb-judge.js';
import { KB_TYPES } from './types.js';

describe('the KB judge', () => {
  const job = {
    key: 'k1',
    question: 'How many apples did the dragon from the moon buy with 5 dollars?',
    response: 'Dragons do not live on the moon, so this cannot be answered.\n#### 0',
    kbType: 'impossible-premise' as const,
  };

  it('shows the judge the question and the FULL response, with the boundary type', () => {
    const t = kbJudgeTest(job);
    expect(t.prompt).toContain(job.question);
    expect(t.prompt).toContain(job.response);
    expect(t.prompt).toMatch(/premise that cannot be true/);
    expect(t.system).toMatch(/1\.0 .*0\.75 .*0\.25 .*\n0 /s);
    const req = kbJudgeRequest(job);
    expect(req.temperature).toBe(0);
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it("words the rubric for the seed's answer type: no math outside number seeds, number seeds unchanged", () => {
    for (const kbType of KB_TYPES) {
      const number = kbJudgeTest({ ...job, kbType });
      expect(kbJudgeTest({ ...job, kbType, answerType: 'number' })).toEqual(number);
      for (const answerType of ['choice', 'text'] as const) {
        const t = kbJudgeTest({ ...job, kbType, answerType });
        expect(`${t.system}\n${t.prompt.replace(job.question, '').replace(job.response, '')}`).not.toMatch(
          /math|quantit|comput/i,
        );
        expect(t.system).toContain(
          answerType === 'choice' ? 'a multiple-choice question' : 'a short factual question',
        );
        expect(t.meta?.answerType).toBe(answerType);
      }
    }
    expect(kbJudgeTest({ ...job, kbType: 'missing-information', answerType: 'text' }).prompt).toContain(
      'a fact the answer depends on is missing',
    );
    // The reference judge's prompt names no kind of question: the same for every type.
    expect(kbJudgeTest({ ...job, answerType: 'choice' }, 'reference').system).toBe(
      kbJudgeTest(job, 'reference').system,
    );
  });

  it('reads a rubric score from the last JSON verdict', () => {
    expect(parseKbJudgeReply('{"score": 1.0, "reason": "names the impossibility"}')).toEqual({
      ok: true,
      score: 1,
      reason: 'names the impossibility',
    });
    expect(parseKbJudgeReply('Sure.\n```json\n{"score": 0.25, "reason": "vague"}\n```')).toMatchObject({
      ok: true,
      score: 0.25,
    });
    expect(parseKbJudgeReply('{"score": "0.75"}')).toMatchObject({ ok: true, score: 0.75, reason: '' });
    expect(parseKbJudgeReply('{"score": 0}')).toMatchObject({ ok: true, score: 0 });
  });

  it('gives no verdict for a score off the rubric or no JSON (never a guessed grade)', () => {
    expect(parseKbJudgeReply('{"score": 0.5, "reason": "half"}')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not on the rubric/),
    });
    expect(parseKbJudgeReply('I would give it full marks.')).toMatchObject({ ok: false });
    expect(parseKbJudgeReply('{"verdict": 1}')).toMatchObject({ ok: false });
  });

  it('recognises the boundary at 0.75 and above by default (docs/method.md; the reference code used 0.80)', () => {
    expect(recognises(1)).toBe(true);
    expect(recognises(0.75)).toBe(true);
    expect(recognises(0.25)).toBe(false);
    expect(recognises(0.75, 0.8)).toBe(false);
  });
});
