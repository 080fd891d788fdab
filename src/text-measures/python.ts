/**
 * The few Python string and number semantics the ladder's reference numbers depend on, so that a
 * SIM, a magnitude or a word count computed here equals the one CPython 3.11 computed.
 * See docs/ladder-measure.md#python-semantics.
 */

/**
 * Python's `round(x, ndigits)` for a double: rounds the exact binary value of `x` to `ndigits`
 * decimals, ties to even. `Math.round(x * 10 ** n) / 10 ** n` is wrong twice over: the product is
 * itself rounded (so 1.0005 can look like a tie) and ties go up (round(0.03125, 4) is 0.0312).
 */
export function pyRound(x: number, ndigits = 0): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (!Number.isInteger(ndigits) || ndigits < 0 || ndigits > 300) {
    throw new RangeError(`pyRound: ndigits must be an integer in 0..300, got ${ndigits}`);
  }
  const { mantissa, exponent } = decompose(Math.abs(x));
  // |x| = mantissa * 2^exponent exactly; an integer-valued double has no digits to round away.
  if (exponent >= 0) return x;
  const scale = 10n ** BigInt(ndigits);
  const numerator = mantissa * scale;
  const shift = BigInt(-exponent);
  let q = numerator >> shift;
  const remainder = numerator - (q << shift);
  const twice = remainder << 1n;
  const denominator = 1n << shift;
  if (twice > denominator || (twice === denominator && (q & 1n) === 1n)) q += 1n;
  // q / 10^n as the nearest double, as CPython's strtod of the rounded digit string gives.
  const magnitude = Number(`${q}e-${ndigits}`);
  return x < 0 ? -magnitude : magnitude;
}

const view = new DataView(new ArrayBuffer(8));

/** A positive finite double as an exact integer mantissa times a power of two. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const fraction = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { mantissa: fraction, exponent: -1074 }; // subnormal
  return { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/**
 * Code points that JavaScript's `toLowerCase` (Node's ICU, Unicode 15+) lowercases but CPython 3.11
 * (Unicode 14.0) leaves alone: letters given case mappings after Unicode 14. A newer Node may add
 * more; docs/ladder-measure.md#lowercasing says how to regenerate the list.
 */
const NEWER_THAN_PY311 =
  /[\u1c89\ua7cb\ua7cc\ua7ce\ua7d2\ua7d4\ua7da\ua7dc\u{10d50}-\u{10d65}\u{16ea0}-\u{16eb8}]/u;
const NEWER_THAN_PY311_SPLIT = new RegExp(`(${NEWER_THAN_PY311.source})`, 'u');

/**
 * Python 3.11's `str.lower()`. JavaScript's `toLowerCase` applies the same full Unicode mappings
 * (İ -> i̇, final sigma by context), so only letters newer than Unicode 14 need undoing; they are
 * kept as they are, and the text between them is lowercased on its own, which gives a sigma the
 * same context Python sees (an unassigned code point is neither cased nor case-ignorable).
 */
export function pyLower(text: string): string {
  const lowered = text.toLowerCase();
  if (!NEWER_THAN_PY311.test(text)) return lowered;
  const parts = text.split(NEWER_THAN_PY311_SPLIT);
  // split with a capture group alternates [text, kept, text, kept, ..., text].
  return parts.map((part, i) => (i % 2 === 1 ? part : part.toLowerCase())).join('');
}

/** Python's `str.isspace` set, which is what `str.split()` and `re`'s `\s` use on str. Not JS `\s`:
 * Python adds U+001C..U+001F and U+0085 and leaves out U+FEFF. */
export const PY_WHITESPACE_CLASS =
  '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_WHITESPACE_RUN = new RegExp(`[${PY_WHITESPACE_CLASS}]+`, 'g');

/** Python's `text.split()`: runs of whitespace separate, leading and trailing whitespace ignored. */
export function pySplit(text: string): string[] {
  return text.split(PY_WHITESPACE_RUN).filter((w) => w.length > 0);
}

/** Python's `re.sub(r'\s+', ' ', text)`. */
export function pyCollapseWhitespace(text: string): string {
  return text.replace(PY_WHITESPACE_RUN, ' ');
}

/** Python's `text.strip(chars)`; with no `chars`, Python's whitespace. */
export function pyStrip(text: string, chars?: string): string {
  const drop = chars === undefined ? (c: string) => isPyWhitespace(c) : (c: string) => chars.includes(c);
  let start = 0;
  let end = text.length;
  while (start < end && drop(text[start] as string)) start++;
  while (end > start && drop(text[end - 1] as string)) end--;
  return text.slice(start, end);
}

const PY_WHITESPACE_ONE = new RegExp(`^[${PY_WHITESPACE_CLASS}]$`);
function isPyWhitespace(c: string): boolean {
  return PY_WHITESPACE_ONE.test(c);
}
