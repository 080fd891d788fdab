import { isCorrectNumber } from '../../answers/number.js';
import { type AnswerParser, parseNumericAnswer } from './answer.js';
import { parseChoiceReply } from './answer-choice.js';
import { matchTextAnswer } from './answer-text.js';
import { choiceStemOf } from './choice-lines.js';
import { answerTypeOf, type LadderTest } from './types.js';

/**
 * How one reply to an answer-preserving test scores, by the test's answer type
 * (docs/ladder.md#answer-types): a number within 0.1% of the gold; the key's letter; a short answer
 * that normalisation matches to the gold or an alias. A short answer normalisation cannot decide is
 * `undecided`: the answer judge's verdict scores it (results.ts), and without one it is wrong.
 *
 * `parser: reference` (the reference code's `parse_math`) reads number tests only: the reference
 * code has no parser for the other types, which are always read by waver's.
 */
export interface AnswerScore {
  correct: boolean;
  /** The answer as read: a number, a letter, the stated text; absent when none was found. */
  parsed?: number | string;
  /** How it was read (`json`, `hashes`, `last-number`, `bare`, `exact`, `contains`, ..., `unparsed`). */
  via: string;
  /** `text` only: normalisation could not decide; `correct` is false until a judge says otherwise. */
  undecided?: string;
}

export function scoreAnswer(
  test: Pick<LadderTest, 'answerType' | 'gold' | 'options' | 'aliases' | 'text'>,
  reply: string,
  parser: AnswerParser = 'waver',
): AnswerScore {
  const type = answerTypeOf(test);
  if (type === 'choice') {
    const parsed = parseChoiceReply(reply, test.options ?? [], choiceStemOf(test.text));
    return parsed.letter === undefined
      ? { correct: false, via: 'unparsed' }
      : { correct: parsed.letter === test.gold, parsed: parsed.letter, via: parsed.via };
  }
  if (type === 'text') {
    const match = matchTextAnswer(reply, [String(test.gold), ...(test.aliases ?? [])]);
    const parsed = match.answer === '' ? {} : { parsed: match.answer };
    if (!match.decided) return { correct: false, ...parsed, via: 'undecided', undecided: match.reason };
    return { correct: match.correct, ...parsed, via: match.via };
  }
  const parsed = parseNumericAnswer(reply, parser);
  const gold = typeof test.gold === 'number' ? test.gold : Number.NaN;
  return {
    correct: isCorrectNumber(parsed.value, gold),
    ...(parsed.value !== undefined && { parsed: parsed.value }),
    via: parsed.via,
  };
}
