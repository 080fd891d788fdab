import { shortLabels } from '../labels.js';
import type { TranscriptCell } from '../report-data.js';

/**
 * The transcript browser's data as it is embedded in the page: strings interned once (a seed's
 * question, a system prompt, a repeated answer appear once), tests described once and shared by
 * every model and repeat, and cells as small arrays. Long texts are cut to keep the file small
 * (docs/report.md#size), each with a marker that says how much was cut and where the full text is.
 */

export interface TranscriptPayload {
  v: 1;
  /** The string table; every text below is an index into it. */
  s: string[];
  protocols: string[];
  models: string[];
  /** Each model as the browser shows it (labels.ts shortLabels over these models), whole on hover. */
  short: string[];
  /** Tests: protocol, suite, test id, item, then the optional fields (see TestRecord). */
  t: TestRecord[];
  /** Cells: [test, model, repeat, status(1 done, 0 failed), response, error, parsed, score, correct, flipped, reason]. */
  c: CellRecord[];
  /** Texts cut to `cap` characters, and the cap (0 = none cut). */
  truncated: number;
  cap: number;
}

/** Missing values are -1 in cells and absent in tests. */
export interface TestRecord {
  p: number;
  s: number;
  i: number;
  it: number;
  f?: number;
  l?: number;
  v?: number;
  sy?: number;
  /** The prompt; or `qp`: a prefix whose continuation is the perturbed text `x` (ladder's `QUESTION: ...`). */
  q?: number;
  qp?: number;
  o?: number;
  x?: number;
  g?: number;
}

export type CellRecord = [
  number,
  number,
  number,
  0 | 1,
  number,
  number,
  number,
  number | null,
  -1 | 0 | 1,
  -1 | 0 | 1,
  number,
];

export interface PayloadOptions {
  /** Characters of text the page may hold in all (default 6,000,000, about 6 MB). */
  budget?: number;
}

export const TRUNCATION_NOTE = 'full text: waver export';

export function truncationMarker(cut: number): string {
  return `\n… [truncated: ${cut} more characters; ${TRUNCATION_NOTE}]`;
}

export function buildPayload(cells: readonly TranscriptCell[], opts: PayloadOptions = {}): TranscriptPayload {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (text: string): number => {
    let i = index.get(text);
    if (i === undefined) {
      i = strings.length;
      strings.push(text);
      index.set(text, i);
    }
    return i;
  };
  const opt = (text: string | undefined): number => (text === undefined ? -1 : intern(text));
  const protocols: string[] = [];
  const models: string[] = [];
  const indexIn = (list: string[], value: string) => {
    let i = list.indexOf(value);
    if (i < 0) i = list.push(value) - 1;
    return i;
  };

  const tests: TestRecord[] = [];
  // Tests by suite, then id (a suite hash belongs to one protocol).
  const testIndex = new Map<string, Map<string, number>>();
  const records: CellRecord[] = [];
  for (const c of cells) {
    let ofSuite = testIndex.get(c.suite);
    if (!ofSuite) {
      ofSuite = new Map();
      testIndex.set(c.suite, ofSuite);
    }
    let t = ofSuite.get(c.test);
    if (t === undefined) {
      const rec: TestRecord = {
        p: indexIn(protocols, c.protocol),
        s: intern(c.suite),
        i: intern(c.test),
        it: intern(c.item),
      };
      if (c.family !== undefined) rec.f = intern(c.family);
      if (c.level !== undefined) rec.l = intern(c.level);
      if (c.variant !== undefined) rec.v = intern(c.variant);
      if (c.system !== undefined) rec.sy = intern(c.system);
      if (c.perturbed !== undefined && c.perturbed !== '' && c.prompt.endsWith(c.perturbed)) {
        rec.qp = intern(c.prompt.slice(0, c.prompt.length - c.perturbed.length));
        rec.x = intern(c.perturbed);
      } else {
        rec.q = intern(c.prompt);
        if (c.perturbed !== undefined) rec.x = intern(c.perturbed);
      }
      if (c.original !== undefined) rec.o = intern(c.original);
      if (c.gold !== undefined) rec.g = intern(c.gold);
      t = tests.push(rec) - 1;
      ofSuite.set(c.test, t);
    }
    records.push([
      t,
      indexIn(models, c.model),
      c.repeat,
      c.status === 'done' ? 1 : 0,
      opt(c.response),
      opt(c.error),
      opt(c.parsed),
      c.score ?? null,
      c.correct === undefined ? -1 : c.correct ? 1 : 0,
      c.flipped === undefined ? -1 : c.flipped ? 1 : 0,
      opt(c.reason),
    ]);
  }
  const { cap, truncated } = capStrings(strings, opts.budget ?? 6_000_000);
  const short = shortLabels(models);
  return {
    v: 1,
    s: strings,
    protocols,
    models,
    short: models.map((m) => short.get(m) ?? m),
    t: tests,
    c: records,
    truncated,
    cap,
  };
}

/**
 * Cuts the longest strings to one common length so the table fits the budget: the largest cap
 * with sum(min(len, cap)) <= budget. Short strings (ids, answers) are never cut.
 */
function capStrings(strings: string[], budget: number): { cap: number; truncated: number } {
  let total = 0;
  for (const s of strings) total += s.length;
  if (total <= budget) return { cap: 0, truncated: 0 };
  const lengths = strings.map((s) => s.length).sort((a, b) => a - b);
  // Find the cap: walk up the sorted lengths keeping sum(min(len, cap)) within the budget.
  let lo = 200;
  let hi = lengths[lengths.length - 1] ?? 200;
  const cost = (cap: number) => {
    let sum = 0;
    for (const n of lengths) sum += Math.min(n, cap);
    return sum;
  };
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (cost(mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const cap = lo;
  let truncated = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i] as string;
    if (s.length > cap) {
      // Never split a surrogate pair.
      const end = /[\uD800-\uDBFF]/.test(s.charAt(cap - 1)) ? cap - 1 : cap;
      strings[i] = s.slice(0, end) + truncationMarker(s.length - end);
      truncated++;
    }
  }
  return { cap, truncated };
}

/** JSON for a `<script type="application/json">`: `<` escaped so no text can close the element. */
export function embedJson(value: unknown): string {
  // One pass: the payload is megabytes. U+2028/9 are escaped too, for older parsers of script text.
  return JSON.stringify(value).replace(
    /[<\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
