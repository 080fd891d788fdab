/**
 * The numeric answer parser of DESIGN.md ("Running the ladder"), in order:
 * a JSON object with `ground_truth` or `answer`; the last `#### <number>` line; the last number in
 * the text (a bare comma is not a number); otherwise unparsed.
 */
export type ParsedNumber =
  | { value: number; via: 'json' | 'hashes' | 'last-number' }
  | { value: undefined; via: 'unparsed' };

const NUMBER = /-?\$?\d+(?:,\d{3})*(?:\.\d+)?|-?\$?\.\d+/g;

export function parseNumericAnswer(text: string): ParsedNumber {
  const fromJson = jsonAnswer(text);
  if (fromJson !== undefined) return { value: fromJson, via: 'json' };
  const hashes = [...text.matchAll(/^\s*####\s*(.+)$/gm)].at(-1);
  if (hashes?.[1]) {
    const value = lastNumber(hashes[1]);
    if (value !== undefined) return { value, via: 'hashes' };
  }
  const value = lastNumber(text);
  return value === undefined ? { value: undefined, via: 'unparsed' } : { value, via: 'last-number' };
}

function jsonAnswer(text: string): number | undefined {
  // The last {...} that parses as JSON and carries a numeric answer field.
  const candidates = text.match(/\{[^{}]*\}/g) ?? [];
  for (const candidate of candidates.reverse()) {
    try {
      const obj = JSON.parse(candidate) as Record<string, unknown>;
      for (const field of ['ground_truth', 'answer']) {
        const v = obj[field];
        const n = typeof v === 'number' ? v : typeof v === 'string' ? lastNumber(v) : undefined;
        if (n !== undefined && Number.isFinite(n)) return n;
      }
    } catch {
      // not JSON: try the next candidate, then the other parsers
    }
  }
  return undefined;
}

function lastNumber(text: string): number | undefined {
  const match = text.match(NUMBER)?.at(-1);
  if (match === undefined) return undefined;
  const value = Number(match.replace(/[$,]/g, ''));
  return Number.isFinite(value) ? value : undefined;
}

/** Correct when |p - g| / |g| < 1e-3; for g = 0, when |p| < 1e-9. */
export function isCorrectNumber(parsed: number | undefined, gold: number): boolean {
  if (parsed === undefined) return false;
  if (gold === 0) return Math.abs(parsed) < 1e-9;
  return Math.abs(parsed - gold) / Math.abs(gold) < 1e-3;
}
