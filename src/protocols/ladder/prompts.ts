import { keepsNoAnswer } from './families/roster.js';
import { pyStrip } from './python.js';
import type { AnswerType, Family } from './types.js';

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

// --- choice and text seeds: waver's own prompts (docs/fidelity.md L52) ------------------------
// The paper asks only grade-school math. These follow Appendix A's two formats and its KB prompt
// sentence for sentence, with the answer each type needs in place of the number.

/** The JSON answer format for a multiple-choice seed. */
export const CHOICE_JSON_PROMPT =
  'You are answering a multiple-choice question. Given the question and its lettered options, ' +
  'think it through step by step and choose the one correct option.\n\n' +
  'IMPORTANT: Your response must be ONLY a JSON object with this exact format:\n' +
  '{"answer": "<letter>"}\n\n' +
  'Where <letter> is the letter of the correct option (one letter, no option text).';

/** The hashes answer format for a multiple-choice seed. */
export const CHOICE_HASHES_PROMPT =
  'You are answering a multiple-choice question. Think it through step by step. ' +
  'Then give the final answer on its own line in exactly this format:\n#### <letter>\n' +
  '(the letter of the one correct option only \u2014 no option text or words).';

/** The JSON answer format for a short-answer seed. */
export const TEXT_JSON_PROMPT =
  'You are answering a short factual question. Think it through step by step ' +
  'and provide the final answer.\n\n' +
  'IMPORTANT: Your response must be ONLY a JSON object with this exact format:\n' +
  '{"answer": "<answer>"}\n\n' +
  'Where <answer> is the short answer only (a name, a date, a number or a few words; no explanation).';

/** The hashes answer format for a short-answer seed. */
export const TEXT_HASHES_PROMPT =
  'You are answering a short factual question. Think it through step by step. ' +
  'Then give the final answer on its own line in exactly this format:\n#### <answer>\n' +
  '(the short answer only \u2014 a name, a date, a number or a few words; no explanation).';

/** The Knowledge Boundary prompt for a multiple-choice seed: the paper's, for a question with options. */
export const CHOICE_KB_PROMPT =
  'Answer the multiple-choice question step by step. ' +
  'If the question has a false premise, an impossible or fictional scenario, made-up entities, ' +
  'or is missing information needed to answer it, do NOT invent an answer, briefly explain why it ' +
  'cannot be answered. Otherwise end with the letter of the correct option on its own line ' +
  '(one letter only):\n#### <letter>';

/** The Knowledge Boundary prompt for a short-answer seed. */
export const TEXT_KB_PROMPT =
  'Answer the question step by step. ' +
  'If the question has a false premise, an impossible or fictional scenario, made-up entities, ' +
  'or is missing information needed to answer it, do NOT invent an answer, briefly explain why it ' +
  'cannot be answered. Otherwise end with the short answer on its own line ' +
  '(a name, a date, a number or a few words):\n#### <answer>';

const ANSWER_PROMPTS: Record<AnswerType, Record<AnswerFormat, string>> = {
  number: { json: JSON_ANSWER_PROMPT, hashes: HASHES_ANSWER_PROMPT },
  choice: { json: CHOICE_JSON_PROMPT, hashes: CHOICE_HASHES_PROMPT },
  text: { json: TEXT_JSON_PROMPT, hashes: TEXT_HASHES_PROMPT },
};

/**
 * The system prompt a test is asked with: the KB prompt for a family that keeps no answer
 * (Knowledge Boundary), else the answer
 * format's, each for the seed's answer type. `kbPrompt: reference` (the reference code's wording)
 * reaches number seeds only: the reference code has no prompt for the other types.
 */
export function systemPromptFor(
  family: Family | 'baseline',
  format: AnswerFormat,
  kbPrompt: 'waver' | 'reference' = 'waver',
  answerType: AnswerType = 'number',
): string {
  if (keepsNoAnswer(family)) {
    if (answerType === 'choice') return CHOICE_KB_PROMPT;
    if (answerType === 'text') return TEXT_KB_PROMPT;
    return kbPrompt === 'reference' ? KB_PROMPT_REFERENCE : KB_PROMPT;
  }
  return ANSWER_PROMPTS[answerType][format];
}

/** The answer format a stored system prompt asks for, if it is one of the answer prompts. */
export function answerFormatOfPrompt(system: string): AnswerFormat | undefined {
  for (const prompts of Object.values(ANSWER_PROMPTS))
    for (const [format, prompt] of Object.entries(prompts))
      if (prompt === system) return format as AnswerFormat;
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
