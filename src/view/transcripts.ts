import { existsSync } from 'node:fs';
import { buildPayload, type TranscriptPayload } from '../report/html/payload.js';
import { shortLabels } from '../report/labels.js';
import {
  type ClaimedSuite,
  claimedSuites,
  evalName,
  type ReportedProtocol,
  storeSuites,
  type TranscriptCell,
} from '../report/report-data.js';
import { type Outcome, outcomeOf } from '../report/transcript-sample.js';
import { type CellCursor, openStore, type Store, storeFailure } from '../store/store.js';

/**
 * The viewer's pages of the transcript browser (docs/report.md#the-viewers-transcripts): every
 * cell of a store, scored as the report scores it, filtered as the report's browser filters, a
 * page at a time. The page goes to the report's own browser (report/html/client.ts), which draws
 * it as it draws the report's cells. Runs in the viewer's query thread (cli/query-worker.ts).
 *
 * A suite whose cells the protocol scores across cells (a ladder flip needs the seed's baseline) is
 * read whole, once per store version, with the protocol's loader, as the report reads it; a suite
 * whose cells need no other cell (SectionModule.cellOf: plain suites, which may hold a million
 * cells) is paged along the store's cell index, each page looking at a bounded number of cells.
 */

const OUTCOMES: readonly Outcome[] = ['correct', 'incorrect', 'unscored', 'failed'];

/** The report browser's filters (client.ts `matches`), plus the eval. */
export interface TranscriptFilter {
  /** A suite hash: one eval. */
  suite?: string;
  protocol?: string;
  /** A model label. */
  model?: string;
  family?: string;
  level?: string;
  outcome?: Outcome;
  flipped?: 'yes' | 'no';
  q?: string;
  /** Two models' cells paired on the same test and repeat. */
  compare?: { a: string; b: string; differ: boolean };
}

export interface TranscriptQuery extends TranscriptFilter {
  /** The store file. */
  path: string;
  /** The cursor of the page before (TranscriptPage.next). */
  after?: string;
}

export interface EvalOption {
  hash: string;
  /** The eval's name, as the report's index names it. */
  label: string;
  protocol: string;
  cells: number;
}

export interface TranscriptPage {
  /** The page's cells as the report embeds its own (payload.ts). */
  payload: TranscriptPayload;
  /** Each row's cells in `payload.c`: [cell], or [model A's, model B's] when comparing. */
  rows: number[][];
  /** The query as understood (a filter naming nothing there is dropped). */
  query: TranscriptFilter;
  options: {
    evals: EvalOption[];
    protocols: string[];
    models: string[];
    /** Each model as the browser shows it (labels.ts shortLabels), in `models`' order. */
    short: string[];
    families: string[];
    levels: string[];
  };
  /** The position of the page's first row among the rows that match (1-based). */
  first: number;
  /** Rows that match in all, when known without reading every cell. */
  total?: number;
  /** Cells in the evals shown. */
  cells: number;
  /** Cells looked at for this page. */
  scanned: number;
  next?: string;
  ms: number;
}

export const PAGE_SIZE = 50;
/** Cells a page looks at at most in a suite paged along the index (a filter the index cannot apply). */
export const SCAN_BUDGET = 5_000;
/** Characters of text a page holds at most; the longest texts are cut first (payload.ts). */
const PAGE_TEXT_BUDGET = 400_000;
/** Cells of an indexed suite its family and level lists are read from. */
const FACET_SAMPLE = 2_000;

interface Row {
  a: TranscriptCell;
  b?: TranscriptCell;
}

interface Rows {
  rows: Row[];
  /** Where the next page goes on in this suite; undefined when it has no more. */
  next?: number | CellCursor;
  scanned: number;
}

/** A suite's cells as the browser pages them. */
interface Source {
  hash: string;
  /** Paged along the store's index: the cells it looks at count against a page's scan budget. */
  indexed: boolean;
  protocol: string;
  label: string;
  cells: number;
  models: string[];
  facets(): Facets;
  rows(f: TranscriptFilter, after: number | CellCursor | undefined, want: number, budget: number): Rows;
  /** Rows that match, when known without reading the suite. */
  count(f: TranscriptFilter): number | undefined;
}

// --- the report browser's filters --------------------------------------------------------------

/** client.ts `matches`: the filters on one cell but model and outcome. */
function matches(c: TranscriptCell, f: TranscriptFilter): boolean {
  if (f.protocol && c.protocol !== f.protocol) return false;
  if (f.family && c.family !== f.family) return false;
  if (f.level && c.level !== f.level) return false;
  if (f.flipped === 'yes' && c.flipped !== true) return false;
  if (f.flipped === 'no' && c.flipped === true) return false;
  const q = f.q?.trim().toLowerCase();
  if (q) {
    const hay = `${c.test} ${c.item} ${c.prompt} ${c.response ?? ''} ${c.error ?? ''}`.toLowerCase();
    if (!hay.includes(q)) return false;
  }
  return true;
}

/** client.ts `compute`: a cell alone, or a pair when comparing. */
function keeps(f: TranscriptFilter, a: TranscriptCell, b?: TranscriptCell): boolean {
  if (!matches(a, f)) return false;
  if (!f.compare) return (!f.model || a.model === f.model) && (!f.outcome || outcomeOf(a) === f.outcome);
  if (!b) return false;
  if (f.outcome && outcomeOf(a) !== f.outcome && outcomeOf(b) !== f.outcome) return false;
  return !(f.compare.differ && !differ(a, b));
}

/**
 * client.ts `differ`: two models' cells differ by outcome (correct, incorrect, failed); unscored
 * cells, which have none, by their text (issue 37.6: both incorrect in other words is no difference).
 */
function differ(a: TranscriptCell, b: TranscriptCell): boolean {
  const o = outcomeOf(a);
  return o !== outcomeOf(b) || (o === 'unscored' && a.response !== b.response);
}

/** The model filter's options, each with the label the browser shows (labels.ts). */
function modelOptions(models: string[]): { models: string[]; short: string[] } {
  const short = shortLabels(models);
  return { models, short: models.map((m) => short.get(m) ?? m) };
}

// --- suites read whole -------------------------------------------------------------------------

function keyOf(c: TranscriptCell): string {
  return `${c.test}\u0000${c.repeat}`;
}

/** The rows of `cells` that match, paired when comparing (client.ts `compute`). */
function matchingRows(cells: readonly TranscriptCell[], f: TranscriptFilter): Row[] {
  const rows: Row[] = [];
  if (f.compare) {
    const { a, b } = f.compare;
    const ofB = new Map<string, TranscriptCell>();
    for (const c of cells) if (c.model === b) ofB.set(keyOf(c), c);
    for (const c of cells) {
      if (c.model !== a) continue;
      const other = ofB.get(keyOf(c));
      if (other && keeps(f, c, other)) rows.push({ a: c, b: other });
    }
  } else for (const c of cells) if (keeps(f, c)) rows.push({ a: c });
  return rows;
}

/** The last filter's result, kept: the next page of a suite asks the same. */
function lastMatching(cells: () => readonly TranscriptCell[]): (f: TranscriptFilter) => Row[] {
  let last: { key: string; rows: Row[] } | undefined;
  return (f) => {
    const key = JSON.stringify(f);
    if (last?.key !== key) last = { key, rows: matchingRows(cells(), f) };
    return last.rows;
  };
}

function loadedSource(
  claimed: ClaimedSuite,
  cells: TranscriptCell[],
  label: string,
  models: string[],
): Source {
  const matching = lastMatching(() => cells);
  return {
    hash: claimed.suite.hash,
    indexed: false,
    protocol: claimed.protocol.name,
    label,
    cells: cells.length,
    models,
    facets: () => facetsOf(cells),
    rows(f, after, want) {
      const all = matching(f);
      const from = typeof after === 'number' ? after : 0;
      const to = from + want;
      return { rows: all.slice(from, to), scanned: cells.length, ...(to < all.length && { next: to }) };
    },
    count: (f) => matching(f).length,
  };
}

interface Facets {
  families: string[];
  levels: string[];
}

function facetsOf(cells: Iterable<TranscriptCell>): Facets {
  const families = new Set<string>();
  const levels = new Set<string>();
  for (const c of cells) {
    if (c.family !== undefined) families.add(c.family);
    if (c.level !== undefined) levels.add(c.level);
  }
  return { families: [...families], levels: [...levels] };
}

// --- suites paged along the store's index -------------------------------------------------------

type CellOf = NonNullable<ClaimedSuite['protocol']['section']['cellOf']>;

/** A suite paged along the store's cell index: a page looks at a bounded number of its cells. */
class IndexedSource implements Source {
  readonly hash: string;
  readonly indexed = true;
  readonly protocol: string;
  readonly cells: number;
  readonly models: string[];
  #facets: Facets | undefined;
  #whole: TranscriptCell[] | undefined;
  readonly #small: (f: TranscriptFilter) => Row[];

  constructor(
    private readonly store: Store,
    claimed: ClaimedSuite,
    private readonly cellOf: CellOf,
    private readonly counts: { identity: string; status: string; count: number }[],
    private readonly identities: { label: string; identity: string }[],
    readonly label: string,
    private readonly sampled: Map<string, Facets>,
  ) {
    this.hash = claimed.suite.hash;
    this.protocol = claimed.protocol.name;
    this.cells = counts.reduce((n, c) => n + c.count, 0);
    this.models = [...new Set(identities.map((m) => m.label))];
    this.#small = lastMatching(() => {
      this.#whole ??= this.#everyCell();
      return this.#whole;
    });
  }

  facets(): Facets {
    this.#facets ??= this.sampled.get(this.hash);
    if (this.#facets) return this.#facets;
    const { rows } = this.store.cells.page({ suiteHash: this.hash, limit: FACET_SAMPLE });
    const facets = facetsOf(rows.map((r) => this.cellOf(this.hash, r.cell, r.test)));
    this.#facets = facets;
    // A full sample is kept while the store changes (a run writing another suite asks again at every page).
    if (rows.length === FACET_SAMPLE) this.sampled.set(this.hash, facets);
    return facets;
  }

  rows(f: TranscriptFilter, after: number | CellCursor | undefined, want: number, budget: number): Rows {
    const pre = this.#indexFilter(f);
    const decides = this.#indexDecides(f);
    const b = f.compare ? this.#identitiesOf(f.compare.b)[0] : undefined;
    if (f.compare && (b === undefined || pre.modelIdentity === undefined)) return { rows: [], scanned: 0 };
    const rows: Row[] = [];
    let at = typeof after === 'object' ? after : undefined;
    let scanned = 0;
    // A text is looked for by the store (its LIKE, ASCII case-insensitive), then the cells it
    // found by the browser's own filter (any case; and the other filters).
    const search = f.q?.trim();
    while (rows.length < want && scanned < budget) {
      const page = this.store.cells.page({
        suiteHash: this.hash,
        ...pre,
        ...(at && { after: at }),
        ...(search
          ? { search, scan: budget - scanned, limit: want - rows.length }
          : { limit: decides ? want - rows.length : Math.min(500, budget - scanned) }),
      });
      scanned += search ? page.scanned : page.rows.length;
      let full = false;
      for (const r of page.rows) {
        at = { modelIdentity: r.cell.modelIdentity, testId: r.cell.testId, repeat: r.cell.repeat };
        const a = this.cellOf(this.hash, r.cell, r.test);
        const other = b !== undefined ? this.#partner(b, a) : undefined;
        if (keeps(f, a, other)) rows.push(other ? { a, b: other } : { a });
        if (rows.length === want) {
          full = r !== page.rows.at(-1) || page.next !== undefined;
          break;
        }
      }
      // The suite's last cell was read: no next page in it.
      if (page.next === undefined && !full) return { rows, scanned };
      // A search looked past its last hit: go on from there.
      if (!full && page.next) at = page.next;
    }
    return { rows, scanned, ...(at && { next: at }) };
  }

  count(f: TranscriptFilter): number | undefined {
    // A suite small enough to read whole in one page's budget is counted so.
    if (!this.#indexDecides(f)) return this.cells <= SCAN_BUDGET ? this.#small(f).length : undefined;
    const ids = f.model ? this.#identitiesOf(f.model) : undefined;
    return this.counts
      .filter(
        (c) =>
          (!ids || ids.includes(c.identity)) &&
          (f.outcome === undefined || (f.outcome === 'failed') === (c.status === 'failed')),
      )
      .reduce((n, c) => n + c.count, 0);
  }

  #identitiesOf(label: string): string[] {
    return this.identities.filter((m) => m.label === label).map((m) => m.identity);
  }

  /** The filters the index applies: one model, done or failed. */
  #indexFilter(f: TranscriptFilter): { modelIdentity?: string; status?: 'done' | 'failed' } {
    const ids = f.compare
      ? this.#identitiesOf(f.compare.a)
      : f.model
        ? this.#identitiesOf(f.model)
        : undefined;
    const status = f.compare ? undefined : f.outcome === 'failed' ? 'failed' : f.outcome ? 'done' : undefined;
    return { ...(ids?.length === 1 && { modelIdentity: ids[0] }), ...(status && { status }) } as {
      modelIdentity?: string;
      status?: 'done' | 'failed';
    };
  }

  /** Whether the index alone decides which cells match (then they can be counted). */
  #indexDecides(f: TranscriptFilter): boolean {
    return (
      !f.compare &&
      !f.family &&
      !f.level &&
      !f.flipped &&
      !f.q?.trim() &&
      (f.outcome === undefined || f.outcome === 'failed') &&
      (!f.model || this.#identitiesOf(f.model).length === 1)
    );
  }

  /** Model `identity`'s cell on the same test and repeat as `c`, when it has one. */
  #partner(identity: string, c: TranscriptCell): TranscriptCell | undefined {
    const found = this.store.cells.page({
      suiteHash: this.hash,
      modelIdentity: identity,
      after: { modelIdentity: identity, testId: c.test, repeat: c.repeat - 1 },
      limit: 1,
    }).rows[0];
    return found && found.cell.testId === c.test && found.cell.repeat === c.repeat
      ? this.cellOf(this.hash, found.cell, found.test)
      : undefined;
  }

  #everyCell(): TranscriptCell[] {
    return this.store.cells
      .page({ suiteHash: this.hash, limit: this.cells })
      .rows.map((r) => this.cellOf(this.hash, r.cell, r.test));
  }
}

// --- a store's sources, kept while the store is unchanged ----------------------------------------

interface OpenStore {
  store: Store;
  version?: number;
  sources?: Source[];
  /** Indexed suites' family and level lists from a full sample, by suite hash. */
  sampled: Map<string, Facets>;
}

const stores = new Map<string, OpenStore>();

export function closeTranscriptStores(): void {
  for (const s of stores.values()) s.store.close();
  stores.clear();
}

function listOf(xs: string[]): string {
  return xs.length > 3 ? `${xs.slice(0, 3).join(', ')} +${xs.length - 3}` : xs.join(', ');
}

/**
 * Every claimed suite of the store as a source, read again when the store has changed (a suite
 * read whole is scored over its whole self, so a new cell may change another's flip).
 */
function sourcesOf(open: OpenStore, protocols: readonly ReportedProtocol[]): Source[] {
  const { store } = open;
  const version = store.dataVersion();
  if (open.sources && open.version === version) return open.sources;
  const runs = store.runs.list();
  const configs = new Map<string, Record<string, unknown>>();
  for (const r of runs)
    if (r.suiteHash !== undefined && r.config && typeof r.config === 'object')
      configs.set(r.suiteHash, r.config as Record<string, unknown>);
  const totals = store.coverage.cellTotals();
  const sources: Source[] = [];
  for (const claimed of claimedSuites(storeSuites(store, protocols), protocols, runs)) {
    const { suite, protocol } = claimed;
    const counts = totals
      .filter((t) => t.suiteHash === suite.hash)
      .map((t) => ({ identity: t.modelIdentity, status: t.status, count: t.count }));
    if (counts.length === 0) continue;
    const models = store.suites
      .models(suite.hash)
      .map((m) => ({ label: m.model, identity: m.modelIdentity }));
    const labels = [...new Set(models.map((m) => m.label))];
    const day = claimed.lastRun ? ` · ${claimed.lastRun.slice(0, 10)}` : '';
    const module = protocol.section;
    if (module.cellOf) {
      const label = `${suite.name} · ${listOf(labels)}${day}`;
      sources.push(
        new IndexedSource(store, claimed, module.cellOf.bind(module), counts, models, label, open.sampled),
      );
      continue;
    }
    // As the report builds the section: the protocol's loader, then its cells (sago's ablations are
    // not needed for either).
    let results: unknown;
    let name = `${protocol.name} · ${listOf(labels)}`;
    try {
      results = module.load(store, suite.hash, { runConfig: (h) => configs.get(h), ablations: false });
      const summary = module.summary?.(results);
      if (summary) name = `${protocol.name} · ${evalName(summary, name)}`;
    } catch {
      results = undefined; // its cells are shown unscored, as in the report
    }
    const cells = [...module.cells(store, suite.hash, results)].map((c) => ({ ...c }));
    sources.push(loadedSource(claimed, cells, `${name}${day}`, labels));
  }
  open.version = version;
  open.sources = sources;
  return sources;
}

// --- a page -----------------------------------------------------------------------------------

interface Cursor {
  /** The suite the page goes on in. */
  h: string;
  /** Where in it (Rows.next). */
  c?: number | CellCursor;
  /** Rows shown before. */
  o: number;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(text: string | undefined): Cursor | undefined {
  if (!text) return undefined;
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof c.h !== 'string' || !Number.isInteger(c.o) || (c.o as number) < 0) return undefined;
    const inner = c.c;
    const ok =
      inner === undefined ||
      (typeof inner === 'number' && Number.isInteger(inner) && inner >= 0) ||
      (typeof inner === 'object' &&
        inner !== null &&
        typeof inner.modelIdentity === 'string' &&
        typeof inner.testId === 'string' &&
        Number.isInteger(inner.repeat));
    return ok ? (c as Cursor) : undefined;
  } catch {
    return undefined; // a cursor that is not one: the first page
  }
}

/** The query with what names nothing in this store dropped, so a page never filters on a stale value. */
function understood(
  q: TranscriptQuery,
  sources: Source[],
  facets: (scope: Source[]) => Facets,
): TranscriptFilter {
  const f: TranscriptFilter = {};
  if (q.suite && sources.some((s) => s.hash === q.suite)) f.suite = q.suite;
  const scope = sources.filter((s) => !f.suite || s.hash === f.suite);
  const models = new Set(scope.flatMap((s) => s.models));
  const { families, levels } = facets(scope);
  if (q.protocol && scope.some((s) => s.protocol === q.protocol)) f.protocol = q.protocol;
  if (q.model && models.has(q.model)) f.model = q.model;
  if (q.family && families.includes(q.family)) f.family = q.family;
  if (q.level && levels.includes(q.level)) f.level = q.level;
  if (q.outcome && OUTCOMES.includes(q.outcome)) f.outcome = q.outcome;
  if (q.flipped === 'yes' || q.flipped === 'no') f.flipped = q.flipped;
  if (q.q?.trim()) f.q = q.q;
  const c = q.compare;
  if (c && c.a !== c.b && models.has(c.a) && models.has(c.b))
    f.compare = { a: c.a, b: c.b, differ: c.differ };
  return f;
}

function storeOf(path: string): OpenStore | undefined {
  const open = stores.get(path);
  if (open) return open;
  if (!existsSync(path)) return undefined;
  const opened = { store: openStore(path, { readonly: true }), sampled: new Map<string, Facets>() };
  stores.set(path, opened);
  return opened;
}

/**
 * A page of a store's cells. A damaged store is the user's to fix (an InputError naming the file,
 * which the viewer answers 503): its connection is dropped, so the store is opened and checked
 * again at the next request, once it may have been restored.
 */
export function transcriptPage(
  query: TranscriptQuery,
  protocols: readonly ReportedProtocol[],
): TranscriptPage {
  try {
    return readPage(query, protocols);
  } catch (e) {
    const failure = storeFailure(e, query.path);
    if (!failure) throw e;
    stores.get(query.path)?.store.close();
    stores.delete(query.path);
    throw failure;
  }
}

function readPage(query: TranscriptQuery, protocols: readonly ReportedProtocol[]): TranscriptPage {
  const started = performance.now();
  const open = storeOf(query.path);
  const all = open?.store.hasSchema() ? sourcesOf(open, protocols) : [];
  const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
  const facetsOf = (scope: Source[]) => {
    const each = scope.map((s) => s.facets());
    return {
      families: sorted(each.flatMap((x) => x.families)),
      levels: sorted(each.flatMap((x) => x.levels)),
    };
  };
  const f = understood(query, all, facetsOf);
  const inSuite = all.filter((s) => !f.suite || s.hash === f.suite);
  const scope = inSuite.filter((s) => !f.protocol || s.protocol === f.protocol);
  const cursor = decodeCursor(query.after);
  const start = cursor
    ? Math.max(
        0,
        scope.findIndex((s) => s.hash === cursor.h),
      )
    : 0;
  const found: Row[] = [];
  let scanned = 0;
  let budget = SCAN_BUDGET;
  let next: Cursor | undefined;
  for (let i = start; i < scope.length; i++) {
    const source = scope[i] as Source;
    const after = i === start && cursor ? cursor.c : undefined;
    const got = source.rows(f, after, PAGE_SIZE - found.length, budget);
    found.push(...got.rows);
    scanned += got.scanned;
    if (source.indexed) budget = Math.max(0, budget - got.scanned);
    const o = (cursor?.o ?? 0) + found.length;
    if (got.next !== undefined) {
      next = { h: source.hash, c: got.next, o };
      break;
    }
    const following = scope[i + 1];
    if (following && (found.length === PAGE_SIZE || budget === 0)) {
      next = { h: following.hash, o };
      break;
    }
  }
  // Counted by the sources when they can; else known when this one page read every cell.
  const counts = scope.map((s) => s.count(f));
  const total = counts.every((n) => n !== undefined)
    ? counts.reduce((a: number, n) => a + (n as number), 0)
    : !cursor && !next
      ? found.length
      : undefined;
  const pageCells: TranscriptCell[] = [];
  const rows = found.map((r) => {
    const at = pageCells.push(r.a) - 1;
    return r.b ? [at, pageCells.push(r.b) - 1] : [at];
  });
  return {
    payload: buildPayload(pageCells, { budget: PAGE_TEXT_BUDGET }),
    rows,
    query: f,
    options: {
      evals: all.map((s) => ({ hash: s.hash, label: s.label, protocol: s.protocol, cells: s.cells })),
      protocols: sorted(inSuite.map((s) => s.protocol)),
      ...modelOptions(sorted(inSuite.flatMap((s) => s.models))),
      ...facetsOf(inSuite),
    },
    first: (cursor?.o ?? 0) + 1,
    ...(total !== undefined && { total }),
    cells: scope.reduce((n, s) => n + s.cells, 0),
    scanned,
    ...(next && { next: encodeCursor(next) }),
    ms: performance.now() - started,
  };
}

/** A transcript query from a page's URL parameters (the names client.ts writes). */
export function transcriptQueryOf(path: string, params: URLSearchParams): TranscriptQuery {
  const one = (k: string) => params.get(k) || undefined;
  const a = one('a');
  const b = one('b');
  return {
    path,
    ...(one('suite') && { suite: one('suite') }),
    ...(one('protocol') && { protocol: one('protocol') }),
    ...(one('model') && { model: one('model') }),
    ...(one('family') && { family: one('family') }),
    ...(one('level') && { level: one('level') }),
    ...(one('outcome') && { outcome: one('outcome') as Outcome }),
    ...(one('flipped') && { flipped: one('flipped') as 'yes' | 'no' }),
    ...(one('q') && { q: one('q') }),
    ...(one('cmp') && a && b && { compare: { a, b, differ: one('differ') === '1' } }),
    ...(one('after') && { after: one('after') }),
  };
}
