/**
 * The JSON objects a reply holds anywhere in its text, nested ones included, read as a careful
 * reader reads what a model wrote as JSON: with `//` and `/* *\/` comments, trailing commas, single
 * quotes, bare keys and Python's `None`, `True`, `False` (docs/ladder.md#scoring). In the order
 * they open; an outer object comes before the ones inside it.
 */
const MAX_TRIES = 256;

export function looseJsonObjects(
  text: string,
): { value: Record<string, unknown>; start: number; end: number }[] {
  const out: { value: Record<string, unknown>; start: number; end: number }[] = [];
  let tried = 0;
  // Each try may scan to the end: a reply of thousands of unmatched braces stays linear enough.
  for (
    let start = text.indexOf('{');
    start >= 0 && tried++ < MAX_TRIES;
    start = text.indexOf('{', start + 1)
  ) {
    const scanned = scanObject(text, start);
    if (!scanned) continue;
    const value = parseObject(scanned.json);
    if (value) out.push({ value, start, end: scanned.end });
  }
  return out;
}

/**
 * The object opening at `start` up to its matching brace, rewritten as strict JSON: comments and
 * trailing commas dropped, single-quoted strings double-quoted, bare keys and Python's constants
 * as JSON's. Undefined when its braces do not close.
 */
function scanObject(text: string, start: number): { json: string; end: number } | undefined {
  let out = '';
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"' || c === "'") {
      const str = readString(text, i);
      if (!str) return undefined;
      out += JSON.stringify(str.value);
      i = str.end - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const eol = text.indexOf('\n', i);
      i = (eol < 0 ? text.length : eol) - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return undefined;
      i = close + 1;
    } else if (c === '{' || c === '[') {
      depth++;
      out += c;
    } else if (c === '}' || c === ']') {
      depth--;
      out = out.replace(/,\s*$/, '') + c;
      if (depth === 0) return { json: out, end: i + 1 };
    } else if (/[A-Za-z_]/.test(c)) {
      const word = /[A-Za-z_]\w*/y;
      word.lastIndex = i;
      const w = (word.exec(text) as RegExpExecArray)[0];
      out += bareWord(w, text.slice(i + w.length));
      i += w.length - 1;
    } else out += c;
  }
  return undefined;
}

const PYTHON: Record<string, string> = { None: 'null', True: 'true', False: 'false' };

/** A bare word: a key before `:` is quoted; Python's constants become JSON's; others stay (and fail to parse). */
function bareWord(word: string, rest: string): string {
  if (/^\s*:/.test(rest)) return JSON.stringify(word);
  return PYTHON[word] ?? word;
}

function readString(text: string, start: number): { value: string; end: number } | undefined {
  const quote = text[start];
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === quote) return { value, end: i + 1 };
    if (c === '\\') {
      const escaped = text.slice(i, i + 6);
      try {
        const one = /^\\u[0-9a-fA-F]{4}/.test(escaped) ? escaped : escaped.slice(0, 2);
        value += one === "\\'" ? "'" : (JSON.parse(`"${one}"`) as string);
        i += one.length - 1;
      } catch {
        return undefined;
      }
    } else value += c;
  }
  return undefined;
}

function parseObject(json: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
