import { pyStrip } from './python.js';
import type { Family } from './types.js';

/**
 * The system prompts of the ladder paper's Appendix A, word for word. The paper's text lost its
 * line breaks and the braces of the JSON example in typesetting; they are restored as the
 * reference code (neuroloft-ai/stability) lays them out. Where the paper and that code word a
 * prompt differently, the paper wins (docs/method.md): see docs/ladder.md#prompts.
 */

/** Appendix A, "Answer format — o4-mini, gemini-2.5-flash, gpt-4o-mini". */
export const JSON_ANSWER_PROMPT =
  'You are a math problem solver. Given a grade school math question, solve it step by step ' +
  'and provide the final numerical answer.\n\n' +
  'IMPORTANT: Your response must be ONLY a JSON object with this exact format:\n' +
  '{"ground_truth": <number>}\n\n' +
  'Where <number> is the final numerical answer (integer or decimal, no units, no dollar signs, no commas).';

/** Appendix A, "Answer format — phi4-mini" (the paper's `---` is its typesetting of an em dash). */
export const HASHES_ANSWER_PROMPT =
  'You are a math problem solver. Solve the grade-school math problem step by step. ' +
  'Then give the final answer on its own line in exactly this format:\n#### <number>\n' +
  '(a plain number only \u2014 no units, $, commas, or words).';

/**
 * Appendix A, "Knowledge Boundary — all models". The paper has a comma after "invent an answer"
 * where the reference code has a dash; waver follows the paper.
 */
export const KB_PROMPT =
  'Solve the grade-school math problem step by step. ' +
  'If the question has a false premise, an impossible or fictional scenario, made-up entities, ' +
  'or is missing information needed to solve it, do NOT invent an answer, briefly explain why it ' +
  'cannot be answered. Otherwise end with the final answer on its own line as a plain number only ' +
  '(no units, $, words, or commas):\n#### <number>';

/** The reference code's KB prompt (`run_sut_model.py`): a dash where the paper has a comma. */
export const KB_PROMPT_REFERENCE = KB_PROMPT.replace(
  'do NOT invent an answer, briefly',
  'do NOT invent an answer \u2014 briefly',
);

export type AnswerFormat = 'json' | 'hashes';

/**
 * The system prompt a test is asked with: the KB prompt for Knowledge Boundary (`kbPrompt:
 * reference`: the reference code's wording), else the answer format's.
 */
export function systemPromptFor(
  family: Family | 'baseline',
  format: AnswerFormat,
  kbPrompt: 'waver' | 'reference' = 'waver',
): string {
  if (family === 'KB') return kbPrompt === 'reference' ? KB_PROMPT_REFERENCE : KB_PROMPT;
  return format === 'hashes' ? HASHES_ANSWER_PROMPT : JSON_ANSWER_PROMPT;
}

/** The answer format a stored system prompt asks for, if it is one of Appendix A's two. */
export function answerFormatOfPrompt(system: string): AnswerFormat | undefined {
  if (system === JSON_ANSWER_PROMPT) return 'json';
  if (system === HASHES_ANSWER_PROMPT) return 'hashes';
  return undefined;
}

/**
 * The user message: the paper's runner sends each input field as `NAME: value`, here the one
 * field, its text stripped as the runner strips each field it reads back (`modules/test_runner.py:82-87`;
 * docs/fidelity.md L6).
 */
export function userMessageFor(text: string): string {
  return `QUESTION: ${pyStrip(text)}`;
}
