/**
 * The few pieces of Python that the ladder reference's parser and KB judge lean on, ported so
 * `parser: reference` and `kbScoring: reference` read a reply exactly as CPython 3 does: `json.loads`
 * (ints kept apart from floats, `NaN` and `Infinity` accepted, keys in insertion order), `str()` of
 * what it returns (`repr` of floats: `5e-05`, `1e+16`, `18.0`), `float()` of a string, `str.strip()`,
 * and the Unicode classes `\d` (every decimal digit, `１８` is 18) and `\s` of `re` on `str`
 * (docs/decisions.md#e27-reference-modes-port-the-references-python-not-an-approximation-of-it).
 */

/** A value as `json.loads` returns it: an int keeps its digits (Python ints are unbounded). */
export type PyValue =
  | null
  | boolean
  | string
  | { int: string }
  | { float: number }
  | PyValue[]
  | { dict: [string, PyValue][] };

/** `re`'s `\s` on `str` (Unicode whitespace, as `str.isspace`): JavaScript's lacks \x1c-\x1f and \x85, and adds \ufeff. */
export const PY_SPACE =
  '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
/** `re`'s `\d` on `str`: any decimal digit (Unicode category Nd). Patterns using it need the `u` flag. */
export const PY_DIGIT = '\\p{Nd}';

const SPACE_RUN = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'gu');

/** What `float()` strips: `str.strip()`'s whitespace but the separators \x1c-\x1f. */
const FLOAT_SPACE = PY_SPACE.replace('\\x1c-\\x1f', '');
const FLOAT_SPACE_RUN = new RegExp(`^${FLOAT_SPACE}+|${FLOAT_SPACE}+$`, 'gu');

/** `str.strip()`. */
export function pyStrip(text: string): string {
  return text.replace(SPACE_RUN, '');
}

const IS_DIGIT = /^\p{Nd}$/u;

/**
 * Every decimal digit as its ASCII digit. Unicode lays out each script's digits as runs of ten,
 * zero first, so a digit's value is its distance from the start of its run, modulo 10.
 */
export function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (ch) => {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) return ch;
    let start = cp;
    while (IS_DIGIT.test(String.fromCodePoint(start - 1))) start--;
    return String((cp - start) % 10);
  });
}

/**
 * `float(text)` for a string: surrounding whitespace allowed (not \x1c-\x1f), Unicode digits read, `nan`/`inf`
 * spelled any case; undefined where Python raises ValueError.
 */
export function pyFloat(text: string): number | undefined {
  const t = asciiDigits(text.replace(FLOAT_SPACE_RUN, '')).toLowerCase();
  const special = /^([+-]?)(nan|inf|infinity)$/.exec(t);
  if (special) return special[2] === 'nan' ? Number.NaN : special[1] === '-' ? -Infinity : Infinity;
  const digits = '\\d(?:_?\\d)*';
  const pattern = new RegExp(`^[+-]?(?:${digits}(?:\\.(?:${digits})?)?|\\.${digits})(?:e[+-]?${digits})?$`);
  if (!pattern.test(t)) return undefined;
  return Number(t.replace(/_/g, ''));
}

/** `repr()` of a Python float (what `str()` gives too): the shortest digits, scientific below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = x.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 16) {
    const sign = e < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const point = e + 1;
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? `${digits}${'0'.repeat(point - digits.length)}.0`
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${negative ? '-' : ''}${body}`;
}

/** `str()` of a parsed value (`repr()` of the values inside a list or dict). */
export function pyStr(v: PyValue, nested = false): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return nested ? pyStringRepr(v) : v;
  if (Array.isArray(v)) return `[${v.map((x) => pyStr(x, true)).join(', ')}]`;
  if ('int' in v) return v.int;
  if ('float' in v) return pyFloatRepr(v.float);
  return `{${v.dict.map(([k, x]) => `${pyStringRepr(k)}: ${pyStr(x, true)}`).join(', ')}}`;
}

/** `repr()` of a str, as far as quotes go: single quotes unless the text holds one and no double quote. */
function pyStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
  return `${quote}${body.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}${quote}`;
}

/** The value of a dict's key (the last one written wins, as in Python), undefined when absent. */
export function pyGet(v: PyValue, key: string): PyValue | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !('dict' in v)) return undefined;
  return v.dict.find(([k]) => k === key)?.[1];
}

export function isPyDict(v: PyValue | undefined): v is { dict: [string, PyValue][] } {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && 'dict' in v;
}

/** `json.loads(text)`; undefined where it raises. */
export function pyJsonLoads(text: string): PyValue | undefined {
  const p = new JsonReader(text);
  try {
    p.space();
    const v = p.value();
    p.space();
    return p.done() ? v : undefined;
  } catch {
    return undefined;
  }
}

class JsonReader {
  private at = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.at === this.s.length;
  }

  space(): void {
    while (this.at < this.s.length && ' \t\n\r'.includes(this.s[this.at] as string)) this.at++;
  }

  private fail(): never {
    throw new Error('not JSON');
  }

  private expect(word: string): void {
    if (this.s.startsWith(word, this.at)) this.at += word.length;
    else this.fail();
  }

  value(): PyValue {
    const c = this.s[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, v] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', { float: Number.NaN }],
      ['Infinity', { float: Infinity }],
      ['-Infinity', { float: -Infinity }],
    ] as const)
      if (this.s.startsWith(word, this.at)) {
        this.at += word.length;
        return v;
      }
    return this.number();
  }

  private number(): PyValue {
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(this.s.slice(this.at));
    if (!m) this.fail();
    this.at += m[0].length;
    if (m[1] === undefined && m[2] === undefined) return { int: m[0].replace(/^-0$/, '0') };
    return { float: Number(m[0]) };
  }

  private string(): string {
    this.at++;
    let out = '';
    for (;;) {
      const c = this.s[this.at];
      if (c === undefined || c < ' ') this.fail();
      this.at++;
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.at++];
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (e !== undefined && e in simple) out += simple[e];
      else if (e === 'u') {
        const hex = this.s.slice(this.at, this.at + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.at += 4;
      } else this.fail();
    }
  }

  private array(): PyValue[] {
    this.at++;
    const out: PyValue[] = [];
    this.space();
    if (this.s[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      out.push(this.value());
      this.space();
      if (this.s[this.at] === ']') {
        this.at++;
        return out;
      }
      this.expect(',');
    }
  }

  private object(): { dict: [string, PyValue][] } {
    this.at++;
    const entries: [string, PyValue][] = [];
    const put = (k: string, v: PyValue) => {
      const i = entries.findIndex(([key]) => key === k);
      if (i >= 0) entries[i] = [k, v];
      else entries.push([k, v]);
    };
    this.space();
    if (this.s[this.at] === '}') {
      this.at++;
      return { dict: entries };
    }
    for (;;) {
      this.space();
      if (this.s[this.at] !== '"') this.fail();
      const key = this.string();
      this.space();
      this.expect(':');
      this.space();
      put(key, this.value());
      this.space();
      if (this.s[this.at] === '}') {
        this.at++;
        return { dict: entries };
      }
      this.expect(',');
    }
  }
}
