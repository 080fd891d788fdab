import {
  boldAnswer,
  correctionAfter,
  lastNumber,
  leadingAnswer,
  markedAnswer,
  type Place,
  type PlaceReading,
  readingEnd,
} from './answer-places.js';
import { looseJsonObjects } from './loose-json.js';
import { readSlot, type SlotReading } from './number-slot.js';
import { type NumberForm, type NumberToken, numberTokens } from './number-tokens.js';

/**
 * The numeric answer of a reply, read where the reply puts it, as a careful reader does
 * (docs/ladder.md#scoring; where this departs from the paper and the reference code,
 * docs/fidelity.md L8-L12 and L57). In order:
 *
 * 1. JSON: the first object anywhere in the text (nested ones and JSON written loosely included)
 *    whose `ground_truth`, `answer` or `final_answer`, at its top or nested, holds a number or a
 *    string with one;
 * 2. the last answer marker that gives a number: `####`, `\boxed{}`, `Final answer:`, `The answer
 *    is`, a `Final Answer` heading; the first number after it (after the last `=` of a sum);
 * 3. the last number in bold that stands alone; 4. a number the reply opens with;
 * 5. the last number, asides in brackets and rejected numbers (`not 1,000`) left out.
 *
 * A correction after the answer (`Wait, I mis-added: it's 20`) replaces it. Fractions, LaTeX
 * fractions, number words, decimal commas and grouped thousands are read where unambiguous; a place
 * that offers two answers (`18 or 20`, `15-20`) gives none (`ambiguous`). `via` says where the answer
 * was read and, after a `+`, how it was written (`boxed+latex-fraction`), so a reader can audit it.
 *
 * The ladder's `parser: reference` reads a reply as the reference code does instead
 * (src/protocols/ladder/answer.ts); the demo reads its word problems' answers with this one.
 */
export type NumberPlace = Place | 'correction';
export type NumberVia = NumberPlace | `${NumberPlace}+${NumberForm}`;
export type ParsedNumber =
  | { value: number; via: NumberVia }
  | { value: undefined; via: 'unparsed' | 'ambiguous' };

const ANSWER_FIELDS = ['ground_truth', 'answer', 'final_answer'] as const;

export function readNumericAnswer(text: string): ParsedNumber {
  const tokens = numberTokens(text);
  const given =
    jsonAnswer(text) ?? markedAnswer(text, tokens) ?? boldAnswer(text) ?? leadingAnswer(text, tokens);
  if (given) return corrected(text, tokens, given) ?? parsed(given.place, given.reading);
  const last = lastNumber(text, tokens);
  return last ? parsed(last.place, last.reading) : { value: undefined, via: 'unparsed' };
}

/** The answer a correction after `given` gives: its marker's, else its last number. */
function corrected(
  text: string,
  tokens: readonly NumberToken[],
  given: PlaceReading,
): ParsedNumber | undefined {
  const at = correctionAfter(text, readingEnd(given));
  if (at === undefined) return undefined;
  const after = markedAnswer(text, tokens, at) ?? lastNumber(text, tokens, at);
  return after && parsed('correction', after.reading);
}

function parsed(place: NumberPlace, reading: PlaceReading['reading']): ParsedNumber {
  if (reading === 'ambiguous') return { value: undefined, via: 'ambiguous' };
  return { value: reading.value, via: reading.form ? `${place}+${reading.form}` : place };
}

/** The first JSON object's answer field that holds a number (a field without one is skipped). */
function jsonAnswer(text: string): PlaceReading | undefined {
  for (const obj of looseJsonObjects(text)) {
    for (const value of answerValues(obj.value)) {
      const reading = valueReading(value);
      if (reading === 'ambiguous') return { place: 'json', reading, at: obj.start };
      if (reading) return { place: 'json', reading: { ...reading, end: obj.end }, at: obj.start };
    }
  }
  return undefined;
}

/** The answer fields' values of an object, its own first, then its nested objects' (breadth first). */
function* answerValues(obj: Record<string, unknown>): Generator<unknown> {
  const queue: Record<string, unknown>[] = [obj];
  for (let o = queue.shift(); o; o = queue.shift()) {
    for (const field of ANSWER_FIELDS) if (field in o) yield o[field];
    for (const v of Object.values(o))
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) queue.push(v as Record<string, unknown>);
  }
}

function valueReading(value: unknown): SlotReading {
  if (Array.isArray(value))
    return value.length === 1 ? valueReading(value[0]) : value.length > 1 ? 'ambiguous' : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? { value, end: 0 } : undefined;
  if (typeof value === 'string') return readSlot(value, 0, value.length);
  return undefined;
}

/** Correct when |p - g| / |g| < 1e-3; for g = 0, when |p| < 1e-9. */
export function isCorrectNumber(parsed: number | undefined, gold: number): boolean {
  if (parsed === undefined) return false;
  if (gold === 0) return Math.abs(parsed) < 1e-9;
  return Math.abs(parsed - gold) / Math.abs(gold) < 1e-3;
}
