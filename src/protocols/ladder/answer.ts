/**
 * The numeric answer parser of docs/method.md#running-the-ladder. The paper names the order (a
 * JSON object, a final `#### <number>` line, the last number); where it is silent, waver reads as
 * the reference code's `parse_math` does (docs/fidelity.md#ladder). In order:
 *
 * 1. JSON: the whole reply, then each flat `{...}` in order; the first object whose `ground_truth`
 *    (else `answer`) is a number, or a string with a number (its first: `"18 (9 + 9)"` is 18);
 * 2. the last `####` line: its first number (`#### 18 (because 9 x 2)` is 18);
 * 3. the last number of the text (a bare comma is not a number);
 * otherwise unparsed.
 *
 * `parser: 'reference'` reads a reply exactly as the reference code does (`parseReference`).
 */
export type ParsedNumber =
  | { value: number; via: 'json' | 'hashes' | 'last-number' }
  | { value: undefined; via: 'unparsed' };

/** `waver`: the order above; `reference`: the reference code's `parse_math` and `_to_number`. */
export type AnswerParser = 'waver' | 'reference';

const NUMBER = /-?\$?\d+(?:,\d{3})*(?:\.\d+)?|-?\$?\.\d+/g;
const ANSWER_FIELDS = ['ground_truth', 'answer'] as const;

export function parseNumericAnswer(text: string, parser: AnswerParser = 'waver'): ParsedNumber {
  if (parser === 'reference') return parseReference(text);
  const fromJson = jsonAnswer(text);
  if (fromJson !== undefined) return { value: fromJson, via: 'json' };
  const hashes = [...text.matchAll(/^\s*####\s*(.+)$/gm)].at(-1);
  if (hashes?.[1]) {
    const value = numberAt(hashes[1], 0);
    if (value !== undefined) return { value, via: 'hashes' };
  }
  const value = numberAt(text, -1);
  return value === undefined ? { value: undefined, via: 'unparsed' } : { value, via: 'last-number' };
}

/** Candidate JSON texts in the reference's order: the whole reply, then each flat `{...}`. */
function jsonCandidates(text: string): string[] {
  const trimmed = text.trim();
  return [trimmed, ...(trimmed.match(/\{[^{}]*\}/g) ?? [])];
}

function parsedObject(candidate: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(candidate);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function jsonAnswer(text: string): number | undefined {
  for (const candidate of jsonCandidates(text)) {
    const obj = parsedObject(candidate);
    if (!obj) continue;
    for (const field of ANSWER_FIELDS) {
      const v = obj[field];
      const n = typeof v === 'number' ? v : typeof v === 'string' ? numberAt(v, 0) : undefined;
      // A field without a number (null, "unknown") is no answer: try the next field, object, parser.
      if (n !== undefined && Number.isFinite(n)) return n;
    }
  }
  return undefined;
}

/** The number at `index` (0 the first, -1 the last) among the numbers of a text. */
function numberAt(text: string, index: 0 | -1): number | undefined {
  const match = text.match(NUMBER)?.at(index);
  if (match === undefined) return undefined;
  const value = Number(match.replace(/[$,]/g, ''));
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The reference code's reading (`experiment/run_sut_model.py` `parse_math`, then
 * `modules/eval_output.py` `_to_number`), ported literally: the first JSON candidate with a
 * `ground_truth` or `answer` key gives its value's text, whatever it is (`null` reads as no
 * number); else the number after the last `####` anywhere in the text; else the last run of
 * digits and commas (a bare comma counts, and reads as no number); then the first number of that.
 */
export function parseReference(text: string): ParsedNumber {
  const raw = text.trim();
  for (const candidate of jsonCandidates(raw)) {
    const obj = parsedObject(candidate);
    if (!obj || !ANSWER_FIELDS.some((f) => Object.hasOwn(obj, f))) continue;
    const v = Object.hasOwn(obj, 'ground_truth') ? obj.ground_truth : obj.answer;
    return referenceResult(toNumberReference(pythonStr(v)), 'json');
  }
  const hashes = [...raw.matchAll(/####\s*\$?(-?[\d,]+\.?\d*)/g)].at(-1);
  if (hashes) return referenceResult(toNumberReference((hashes[1] as string).replace(/,/g, '')), 'hashes');
  const last = raw.match(/-?[\d,]+\.?\d*/g)?.at(-1);
  return referenceResult(toNumberReference(last === undefined ? raw : last.replace(/,/g, '')), 'last-number');
}

function referenceResult(value: number | undefined, via: 'json' | 'hashes' | 'last-number'): ParsedNumber {
  return value === undefined ? { value: undefined, via: 'unparsed' } : { value, via };
}

/** `_to_number`: the first number of a text, `$`, commas and spaces dropped (`'- 5'` is -5). */
function toNumberReference(text: string): number | undefined {
  const m = text.match(/-?\s*\$?\s*\d[\d,]*(?:\.\d+)?/);
  if (!m) return undefined;
  const value = Number(m[0].replace(/[$, ]/g, ''));
  return Number.isFinite(value) ? value : undefined;
}

/** Python's `str()` of a parsed JSON value (its `repr()` inside lists and dicts), as far as numbers go. */
function pythonStr(v: unknown, nested = false): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return nested ? `'${v}'` : v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => pythonStr(x, true)).join(', ')}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  return `{${entries.map(([k, x]) => `'${k}': ${pythonStr(x, true)}`).join(', ')}}`;
}

/** Correct when |p - g| / |g| < 1e-3; for g = 0, when |p| < 1e-9. */
export function isCorrectNumber(parsed: number | undefined, gold: number): boolean {
  if (parsed === undefined) return false;
  if (gold === 0) return Math.abs(parsed) < 1e-9;
  return Math.abs(parsed - gold) / Math.abs(gold) < 1e-3;
}
