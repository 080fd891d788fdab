import { jsonObjects } from './json-objects.js';
/**
 * The numeric answer parser of docs/method.md#running-the-ladder. The paper names the order (a
 * JSON object, a final `#### <number>` line, the last number); where it is silent, waver reads as
 * the reference code's `parse_math` does (docs/fidelity.md#ladder-parser). In order:
 *
 * 1. JSON: the whole reply, then each flat `{...}` in order; the first object whose `ground_truth`
 *    (else `answer`) is a number, or a string with a number (its first: `"18 (9 + 9)"` is 18,
 *    `"- 5"` is -5);
 * 2. the last `####` anywhere: the first number after it on its line (`#### 18 (because 9 x 2)`
 *    and `So the answer is #### 18. (checked 2 times)` are 18; `#### - 5` is -5);
 * 3. the last number of the text (a bare comma is not a number);
 * otherwise unparsed. A minus sign is `-` or `−` (U+2212); in steps 1 and 2 a space may follow it.
 *
 * The ladder's `parser: reference` reads a reply as the reference code does instead
 * (src/protocols/ladder/answer.ts); the demo reads its word problems' answers with this one.
 */
export type ParsedNumber =
  | { value: number; via: 'json' | 'hashes' | 'last-number' }
  | { value: undefined; via: 'unparsed' };

const UNSIGNED = String.raw`\$?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)`;
/** A number in running text: the sign touches it, so `10 - 5` ends in 5, not -5. */
const NUMBER = new RegExp(`[-−]?${UNSIGNED}`, 'g');
/** A number that is an answer on its own (a JSON string, the text after `####`): `- 5` is -5. */
const ANSWER_NUMBER = new RegExp(`(?:[-−]\\s*)?${UNSIGNED}`, 'g');
const ANSWER_FIELDS = ['ground_truth', 'answer'] as const;

export function readNumericAnswer(text: string): ParsedNumber {
  const fromJson = jsonAnswer(text);
  if (fromJson !== undefined) return { value: fromJson, via: 'json' };
  const hashes = [...text.matchAll(/####(.*)$/gm)].at(-1);
  if (hashes?.[1]) {
    const value = numberAt(hashes[1], 0, ANSWER_NUMBER);
    if (value !== undefined) return { value, via: 'hashes' };
  }
  const value = numberAt(text, -1, NUMBER);
  return value === undefined ? { value: undefined, via: 'unparsed' } : { value, via: 'last-number' };
}

function jsonAnswer(text: string): number | undefined {
  for (const obj of jsonObjects(text)) {
    for (const field of ANSWER_FIELDS) {
      const v = obj[field];
      const n = typeof v === 'number' ? v : typeof v === 'string' ? numberAt(v, 0, ANSWER_NUMBER) : undefined;
      // A field without a number (null, "unknown") is no answer: try the next field, object, parser.
      if (n !== undefined && Number.isFinite(n)) return n;
    }
  }
  return undefined;
}

/** The number at `index` (0 the first, -1 the last) among the matches of `pattern` in a text. */
function numberAt(text: string, index: 0 | -1, pattern: RegExp): number | undefined {
  const match = text.match(pattern)?.at(index);
  if (match === undefined) return undefined;
  const value = Number(match.replace(/[$,\s]/g, '').replace('−', '-'));
  return Number.isFinite(value) ? value : undefined;
}

/** Correct when |p - g| / |g| < 1e-3; for g = 0, when |p| < 1e-9. */
export function isCorrectNumber(parsed: number | undefined, gold: number): boolean {
  if (parsed === undefined) return false;
  if (gold === 0) return Math.abs(parsed) < 1e-9;
  return Math.abs(parsed - gold) / Math.abs(gold) < 1e-3;
}
