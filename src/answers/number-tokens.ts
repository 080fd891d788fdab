/**
 * The numbers written in a text, each with where it stands and how it was written, for the numeric
 * answer reader (number.ts). What counts as one number, and which readings are left alone because
 * they are ambiguous, is docs/ladder.md#scoring.
 */

/** How a number was written, where it is not plain ASCII digits (English thousands commas included). */
export type NumberForm =
  | 'fraction'
  | 'mixed-number'
  | 'latex-fraction'
  | 'decimal-comma'
  | 'grouped'
  | 'scientific'
  | 'number-word'
  | 'unicode-digits';

export interface NumberToken {
  value: number;
  /** Where the number starts (its sign or currency symbol included) and ends, in the text. */
  start: number;
  end: number;
  form?: NumberForm;
}

interface Core {
  re: RegExp;
  form?: NumberForm;
  value: (m: RegExpExecArray) => number;
}

const num = (s: string | undefined) => Number(s);
const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);

/** Tried in order at each place a number can start; the first that matches is the number. */
const CORES: readonly Core[] = [
  {
    re: /\\[dt]?frac\s*\{\s*(\d+(?:\.\d+)?)\s*\}\s*\{\s*(\d+(?:\.\d+)?)\s*\}/y,
    form: 'latex-fraction',
    value: (m) => ratio(num(m[1]), num(m[2])),
  },
  { re: /\\[dt]?frac(\d)(\d)/y, form: 'latex-fraction', value: (m) => ratio(num(m[1]), num(m[2])) },
  // 1.234,5: a dot between groups of three and a decimal comma (both, so it cannot be 1.234).
  {
    re: /\d{1,3}(?:\.\d{3})+,\d+(?!\d)/y,
    form: 'grouped',
    value: (m) => num(m[0].replace(/\./g, '').replace(',', '.')),
  },
  // 1,250 (LaTeX writes the comma {,}).
  {
    re: /\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?(?![\d,])/y,
    value: (m) => num(m[0].replace(/\{,\}|,/g, '')),
  },
  // Thin or no-break spaces between groups of three (1 234,5 in French).
  {
    re: /\d{1,3}(?:[\u00A0\u2009\u202F]\d{3})+(?:[.,]\d+)?(?!\d)/y,
    form: 'grouped',
    value: (m) => num(m[0].replace(/[\u00A0\u2009\u202F]/g, '').replace(',', '.')),
  },
  {
    re: /(\d+) (\d+)\/(\d+)(?![\d/])/y,
    form: 'mixed-number',
    value: (m) => num(m[1]) + ratio(num(m[2]), num(m[3])),
  },
  { re: /(\d+)\/(\d+)(?![\d/])/y, form: 'fraction', value: (m) => ratio(num(m[1]), num(m[2])) },
  { re: /\d+(?:\.\d+)?[eE][-+]?\d+(?!\d)/y, form: 'scientific', value: (m) => num(m[0]) },
  // 18,5: one or two digits after a comma cannot be a thousands group; not a list (1,2,3).
  { re: /\d+,\d{1,2}(?!\d|,\d)/y, form: 'decimal-comma', value: (m) => num(m[0].replace(',', '.')) },
  { re: /\d+(?:\.\d+)?|\.\d+/y, value: (m) => num(m[0]) },
];

const CURRENCY = /[$€£¥₹]/;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * Every number in a text, in order. A minus sign (`-` or `−`) is the number's when it touches it
 * (or its currency symbol) and does not follow a word, a digit or a closing bracket: `10-5` and
 * `x - 5` hold 10 and 5, `so -5` holds -5.
 */
export function numberTokens(text: string): NumberToken[] {
  const s = asciiDigits(text);
  const out: NumberToken[] = [];
  const starts = /\\[dt]?frac|\.?\d/g;
  for (let m = starts.exec(s); m; m = starts.exec(s)) {
    const at = m.index;
    const core = coreAt(s, at);
    if (!core) continue;
    starts.lastIndex = core.end;
    const value = core.value;
    if (!Number.isFinite(value)) continue;
    let start = at;
    if (CURRENCY.test(s[start - 1] ?? '')) start--;
    const negative = s[start - 1] === '-' && !/[\p{L}\p{N}_)\]}]/u.test(s[start - 2] ?? '');
    if (negative) start--;
    const form =
      core.form ?? (s.slice(at, core.end) !== text.slice(at, core.end) ? 'unicode-digits' : undefined);
    out.push({ value: negative ? -value : value, start, end: core.end, ...(form && { form }) });
  }
  return out;
}

function coreAt(s: string, at: number): { value: number; end: number; form?: NumberForm } | undefined {
  const before = s[at - 1] ?? '';
  // Inside a word (H2O, x2) or the tail of a number this reading did not take (3/4/2024, 1.2.3).
  if (WORD_CHAR.test(before)) return undefined;
  if (/[./]/.test(before) && /\d/.test(s[at - 2] ?? '')) return undefined;
  const afterComma = before === ',' && /\d/.test(s[at - 2] ?? '');
  for (const core of CORES) {
    if (afterComma && core.form === 'decimal-comma') continue;
    core.re.lastIndex = at;
    const m = core.re.exec(s);
    if (m) return { value: core.value(m), end: at + m[0].length, ...(core.form && { form: core.form }) };
  }
  return undefined;
}

const OTHER_DIGIT = /(?![0-9])[\p{Nd}−]/u;
const OTHER_DIGITS = /(?![0-9])[\p{Nd}−]/gu;

/**
 * The text with every decimal digit of the Basic Multilingual Plane as its ASCII digit and `−` as
 * `-`, one character for one, so positions stay the same (`１８` and `١٨` are 18).
 */
function asciiDigits(text: string): string {
  if (!OTHER_DIGIT.test(text)) return text;
  return text.replace(OTHER_DIGITS, (c) => {
    if (c === '−') return '-';
    const code = c.codePointAt(0) as number;
    if (c.length > 1) return c;
    // Decimal digits come in runs of ten, from zero: the digit is the distance from the run's start.
    let zero = code;
    while (zero > 0 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    return String((code - zero) % 10);
  });
}
