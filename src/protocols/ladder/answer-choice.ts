import { jsonObjects } from '../../answers/json-objects.js';
import { type LetterVia, parseLetterAnswer } from '../../answers/letter.js';
import type { McOption } from '../../data/mc/mc-item.js';

/**
 * Reading a multiple-choice reply (docs/ladder.md#answer-types): the letter the model chose among
 * the options the test showed it. In order, as the number parser reads a number:
 *
 * 1. JSON: the whole reply, then each flat `{...}`; the first `answer` (else `ground_truth`) that
 *    names one option, read by the shared letter parser (`"B"`, `"(B)"`, `"B) text"`, the option's
 *    text);
 * 2. the last `####` line, read the same way;
 * 3. the whole reply, by the shared letter parser (src/answers/letter.ts: a bare letter, "The
 *    answer is B because...", a letter standing alone, the option's text).
 *
 * Several different letters in a step are no answer, never a guess; an unparsed reply is wrong.
 */

export type ChoiceVia = 'json' | 'hashes' | LetterVia;

export type ParsedChoice =
  | { letter: string; via: ChoiceVia }
  | { letter: undefined; via: 'unparsed'; reason: string };

const ANSWER_FIELDS = ['answer', 'ground_truth'] as const;

/**
 * The letter a reply chose. `question` is the text asked up to its options, so a letter the
 * question uses as a name ("A says...") is read as the person, not the option.
 */
export function parseChoiceReply(
  reply: string,
  options: readonly McOption[],
  question?: string,
): ParsedChoice {
  const context = question === undefined ? {} : { question };
  for (const value of jsonAnswers(reply)) {
    const parsed = parseLetterAnswer(value, options, context);
    if (parsed.letter !== undefined) return { letter: parsed.letter, via: 'json' };
  }
  const hashes = [...reply.matchAll(/####(.*)$/gm)].at(-1)?.[1]?.trim();
  if (hashes) {
    const parsed = parseLetterAnswer(hashes, options, context);
    if (parsed.letter !== undefined) return { letter: parsed.letter, via: 'hashes' };
  }
  const parsed = parseLetterAnswer(reply, options, context);
  return parsed.letter === undefined
    ? { letter: undefined, via: 'unparsed', reason: parsed.reason }
    : { letter: parsed.letter, via: parsed.via };
}

/** The string answers of the reply's JSON objects, in the reference parser's order (docs/fidelity.md L8). */
function jsonAnswers(reply: string): string[] {
  const out: string[] = [];
  for (const value of jsonObjects(reply)) {
    for (const field of ANSWER_FIELDS) {
      const v = value[field];
      if (typeof v === 'string' && v.trim() !== '') out.push(v.trim());
    }
  }
  return out;
}
