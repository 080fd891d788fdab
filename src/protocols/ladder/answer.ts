import { type ParsedNumber, readNumericAnswer } from '../../answers/number.js';
import { isPyDict, PY_DIGIT, PY_SPACE, pyFloat, pyGet, pyJsonLoads, pyStr, pyStrip } from './python.js';

/**
 * A reply's numeric answer (docs/method.md#running-the-ladder): in waver's order
 * (answers/number.ts), or `reference`: as the reference code reads it (`parseReference`).
 */
export type AnswerParser = 'waver' | 'reference';

export function parseNumericAnswer(text: string, parser: AnswerParser = 'waver'): ParsedNumber {
  return parser === 'reference' ? parseReference(text) : readNumericAnswer(text);
}

/**
 * The reference code's reading (`experiment/run_sut_model.py` `parse_math`, then
 * `modules/eval_output.py` `_to_number`), ported literally with Python's semantics (./python.ts):
 * the first JSON candidate with a `ground_truth` or `answer` key gives `str()` of its value,
 * whatever it is (`None` reads as no number, the float 0.00005 as `5e-05`, so 5); else the number
 * after the last `####` anywhere in the text; else the last run of digits and commas (a bare comma
 * counts, and reads as no number); then the first number of that. `\d` and `\s` are Python's
 * Unicode classes: `１８` is 18.
 */
export function parseReference(text: string): ParsedNumber {
  const raw = pyStrip(text);
  for (const candidate of [raw, ...(raw.match(/\{[^{}]*\}/g) ?? [])]) {
    const obj = pyJsonLoads(candidate);
    if (!isPyDict(obj)) continue;
    // `v.get('ground_truth', v.get('answer', ''))`: a present key wins even when it holds None.
    const gt = pyGet(obj, 'ground_truth');
    const v = gt !== undefined ? gt : pyGet(obj, 'answer');
    if (v === undefined) continue;
    return referenceResult(toNumberReference(pyStr(v)), 'json');
  }
  const hashes = [...raw.matchAll(REF_HASHES)].at(-1);
  if (hashes) return referenceResult(toNumberReference((hashes[1] as string).replace(/,/g, '')), 'hashes');
  const last = raw.match(REF_LAST)?.at(-1);
  return referenceResult(toNumberReference(last === undefined ? raw : last.replace(/,/g, '')), 'last-number');
}

const D = PY_DIGIT;
const S = PY_SPACE;
const REF_HASHES = new RegExp(`####${S}*\\$?(-?[${D},]+\\.?${D}*)`, 'gu');
const REF_LAST = new RegExp(`-?[${D},]+\\.?${D}*`, 'gu');
const REF_TO_NUMBER = new RegExp(`-?${S}*\\$?${S}*${D}[${D},]*(?:\\.${D}+)?`, 'u');

function referenceResult(value: number | undefined, via: 'json' | 'hashes' | 'last-number'): ParsedNumber {
  return value === undefined ? { value: undefined, via: 'unparsed' } : { value, via };
}

/** `_to_number`: the first number of a text, `$`, commas and spaces dropped (`'- 5'` is -5), read by `float()`. */
function toNumberReference(text: string): number | undefined {
  const m = text.match(REF_TO_NUMBER);
  if (!m) return undefined;
  const value = pyFloat(m[0].replace(/[$, ]/g, ''));
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}
