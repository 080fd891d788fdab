import type { KeyRule, McOption } from './mc-item.js';

/**
 * Evaluating key rules: a rule yields the correct answer's value, and `optionsMatching` finds the
 * options that carry it. Kept apart from the key check so that loaders and tests can use it too.
 */

export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** What the rule computes; throws an Error saying why when the rule itself is broken. */
export function evaluateRule(rule: KeyRule): string | number {
  switch (rule.kind) {
    case 'arithmetic':
      return evaluateArithmetic(rule.expression);
    case 'weekday':
      return WEEKDAYS[utcDate(rule.date).getUTCDay()] as string;
    case 'days-between':
      return Math.round((utcDate(rule.to).getTime() - utcDate(rule.from).getTime()) / 86_400_000);
    case 'code':
      return rule.compute();
  }
}

/** A human description of the rule, for messages. */
export function describeRule(rule: KeyRule): string {
  switch (rule.kind) {
    case 'arithmetic':
      return rule.expression;
    case 'weekday':
      return `weekday of ${rule.date}`;
    case 'days-between':
      return `days from ${rule.from} to ${rule.to}`;
    case 'code':
      return rule.describe;
  }
}

function utcDate(iso: string): Date {
  const d = new Date(`${iso}T00:00:00Z`);
  // Date accepts 2023-02-30 by rolling over; a rule naming an impossible date is broken.
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso)
    throw new Error(`not a date: ${iso}`);
  return d;
}

/** The number an option states, when it states exactly one ("$1,250.50" -> 1250.5, "7 days" -> 7). */
export function optionNumber(text: string): number | undefined {
  const found = text.match(/-?\d+(?:,\d{3})*(?:\.\d+)?|-?\.\d+/g);
  const only = found?.length === 1 ? found[0] : undefined;
  return only === undefined ? undefined : Number(only.replace(/,/g, ''));
}

/** Lowercase, single spaces, no surrounding punctuation: "  The same. " -> "the same". */
export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\s"'“”‘’.,;:!?()[\]*_`-]+|[\s"'“”‘’.,;:!?()[\]*_`-]+$/g, '');
}

/** The options carrying the value: numbers compare with a relative tolerance of 1e-9, texts after normalising. */
export function optionsMatching(options: readonly McOption[], value: string | number): McOption[] {
  if (typeof value === 'number') {
    return options.filter((o) => {
      const n = optionNumber(o.text);
      if (n === undefined) return false;
      const scale = Math.max(1, Math.abs(value), Math.abs(n));
      return Math.abs(n - value) <= 1e-9 * scale;
    });
  }
  const wanted = normaliseText(value);
  return options.filter((o) => normaliseText(o.text) === wanted);
}

/**
 * A safe evaluator for the arithmetic rules of data files: numbers, + - * / ^, parentheses and
 * unary minus. No names, no calls: a data file cannot run code.
 */
export function evaluateArithmetic(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|\.\d+|[-+*/^()]|\S/g) ?? [];
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const expr = (): number => {
    let v = term();
    while (peek() === '+' || peek() === '-') v = next() === '+' ? v + term() : v - term();
    return v;
  };
  const term = (): number => {
    let v = power();
    while (peek() === '*' || peek() === '/') v = next() === '*' ? v * power() : v / power();
    return v;
  };
  const power = (): number => {
    const base = unary();
    // Right-associative, as in mathematics: 2^3^2 = 2^9.
    if (peek() === '^') {
      next();
      return base ** power();
    }
    return base;
  };
  const unary = (): number => {
    if (peek() === '-') {
      next();
      return -unary();
    }
    if (peek() === '+') {
      next();
      return unary();
    }
    return atom();
  };
  const atom = (): number => {
    const t = next();
    if (t === '(') {
      const v = expr();
      if (next() !== ')') throw new Error(`missing ')' in '${expression}'`);
      return v;
    }
    if (t !== undefined && /^(\d|\.\d)/.test(t)) return Number(t);
    throw new Error(`unexpected ${t === undefined ? 'end' : `'${t}'`} in '${expression}'`);
  };
  const value = expr();
  if (pos !== tokens.length) throw new Error(`unexpected '${tokens[pos]}' in '${expression}'`);
  if (!Number.isFinite(value)) throw new Error(`'${expression}' is not a finite number`);
  return value;
}
