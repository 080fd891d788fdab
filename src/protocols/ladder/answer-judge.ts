import { flatJsonObjects } from '../../answers/json-objects.js';
import type { SuiteTest } from '../../run/types.js';
import { type JudgedCell, JudgedCellSchema } from './kb-judge.js';

/**
 * The answer judge (docs/ladder.md#answer-types): for a short-answer test whose reply SQuAD
 * normalisation cannot match to the gold or an alias (answer-text.ts), a judge model is asked
 * whether the reply's answer names the same thing as one of the accepted answers (another
 * spelling, an abbreviation, a fuller name, the same date written otherwise). It runs through the
 * judge role as the suite `ladder/answer-judge`, stored, cached and resumable like the KB judge.
 *
 * It fails closed: a failed call, or a reply without a boolean verdict, leaves the response scored
 * wrong, with the reason recorded; without a judge such a response is scored wrong too, and the
 * report counts them. The paper has no such judge (its answers are numbers): waver's own,
 * docs/fidelity.md L53.
 */

/** A verdict and a one-sentence reason fit easily. */
export const ANSWER_JUDGE_MAX_TOKENS = 256;

export interface AnswerJudgeJob {
  /** Unique within a judge suite. */
  key: string;
  /** The question exactly as the model was asked it. */
  question: string;
  /** The gold, then its aliases. */
  answers: readonly string[];
  /** The model's full response text. */
  response: string;
  /** Stored with the judge test so results can be matched back from the store alone. */
  meta?: JudgedCell;
}

/** The meta of a stored answer judge test: the cell it judges. */
export const AnswerJudgeMetaSchema = JudgedCellSchema;

const SYSTEM = [
  'You grade whether a response to a short-answer question gives a correct answer.',
  'You are shown the QUESTION, the ACCEPTED ANSWERS (any one of them is correct) and the RESPONSE.',
  'The response is correct when the answer it commits to names the same thing as one of the accepted answers: another spelling, an abbreviation, a fuller or shorter name of the same person, place or thing, or the same date or quantity written another way.',
  'It is incorrect when it gives a different answer, hedges between several answers, or gives no answer.',
  'Judge the answer the response commits to, not the reasoning around it.',
  'Reply with ONLY a JSON object: {"correct": true or false, "reason": "<one sentence>"}',
].join('\n');

export function answerJudgeTest(job: AnswerJudgeJob): SuiteTest {
  return {
    id: job.key,
    system: SYSTEM,
    prompt:
      `QUESTION:\n${job.question}\n\nACCEPTED ANSWERS:\n${job.answers.map((a) => `- ${a}`).join('\n')}\n\n` +
      `RESPONSE:\n${job.response}\n\nIs the RESPONSE correct? JSON only.`,
    meta: { ...(job.meta ?? {}) },
  };
}

export type AnswerVerdict = { ok: true; correct: boolean; reason: string } | { ok: false; reason: string };

/** The last JSON object with a boolean `correct`; anything else is no verdict (never a guessed one). */
export function parseAnswerJudgeReply(reply: string): AnswerVerdict {
  for (const v of flatJsonObjects(reply).reverse()) {
    if (!('correct' in v)) continue;
    if (typeof v.correct !== 'boolean')
      return {
        ok: false,
        reason: `"correct" is ${JSON.stringify(v.correct)}, not true or false (fail closed)`,
      };
    return { ok: true, correct: v.correct, reason: typeof v.reason === 'string' ? v.reason.trim() : '' };
  }
  const shown = reply.replace(/\s+/g, ' ').trim();
  return {
    ok: false,
    reason: `no JSON verdict with "correct" (fail closed): "${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}"`,
  };
}
