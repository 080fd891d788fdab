import { basename } from 'node:path';
import { compareEvalModels, type EvalComparison, type EvalVerdicts } from '../check/eval-comparison.js';
import { InputError } from '../errors.js';
import { type JudgeSetReport, judgeReports } from '../judge/report.js';
import { storedSpecLabel as labelOf } from '../models/spec.js';
import type { Coverage, SuiteTest } from '../run/types.js';
import type { CellQueries, LightCell, Store, SuiteQueries } from '../store/store.js';
import { WAVER_VERSION } from '../version.js';
import type { HtmlKit } from './html/section.js';
import type { LoadContext } from './load-context.js';
import { type ModelOrder, modelOrder } from './model-order.js';
import { ResultsPending } from './results-pending.js';
import { type ProtocolSuites, type SuiteRole, suiteRoles } from './suite-roles.js';
import {
  SAMPLE_LIMITS,
  type SampleLimits,
  type TranscriptCell,
  TranscriptSampler,
  type TranscriptSummary,
} from './transcript-sample.js';

export type { TranscriptCell } from './transcript-sample.js';

/**
 * Everything a report shows, read from the store alone (docs/report.md): what was run (the runs
 * table), coverage and errors per suite and model, one section per protocol suite (its results
 * recomputed by the protocol's own loader), and the cells of the transcript browser: every cell of
 * a small store, a bounded sample of a large one (transcript-sample.ts), with every cell read
 * again from the store for the JSON and CSV. The HTML, Markdown, JSON and CSV forms (formats.ts)
 * all render this one object.
 */

export interface SuiteRef {
  hash: string;
  name: string;
}

export type { SuiteRole } from './suite-roles.js';

export interface RunInfo {
  id: string;
  startedAt: string;
  finishedAt?: string;
  status: string;
  waverVersion: string;
  suite?: SuiteRef;
  role: SuiteRole;
  /** Labels of the models the run called. */
  models: string[];
  judge?: string;
  generator?: string;
  embedder?: string;
  seed?: number;
  repeats?: number;
  temperature?: number;
  maxTokens?: number;
}

/** The "what was run" table's columns; seed, repeats and temperature (indices 6-8) are numeric. */
export const RUN_COLUMNS = [
  'run',
  'suite',
  'suite hash',
  'role',
  'models',
  'roles configured',
  'seed',
  'repeats',
  'temperature',
  'waver',
  'started',
  'finished',
  'status',
] as const;
export const RUN_NUMERIC_COLUMNS = [6, 7, 8] as const;

/**
 * One row of that table, for every output format: `text` renders plain values, `code` the ids
 * and hashes (backticks in Markdown, <code> in HTML), each escaping as its format needs.
 */
export function runRow(
  r: RunInfo,
  render: { text: (s: string) => string; code: (s: string) => string },
): string[] {
  const { text, code } = render;
  const dash = (v: number | undefined) => text(v === undefined ? '—' : String(v));
  const roles = [
    r.judge && `judge ${r.judge}`,
    r.generator && `generator ${r.generator}`,
    r.embedder && `embedder ${r.embedder}`,
  ]
    .filter(Boolean)
    .join('; ');
  return [
    code(r.id.slice(0, 8)),
    text(r.suite?.name ?? '—'),
    r.suite ? code(r.suite.hash.slice(0, 12)) : text('—'),
    text(r.role),
    text(r.models.join(', ') || '—'),
    text(roles || '—'),
    dash(r.seed),
    dash(r.repeats),
    dash(r.temperature),
    text(r.waverVersion),
    text(r.startedAt),
    text(r.finishedAt ?? '—'),
    text(r.status),
  ];
}

/** The coverage table's columns; done, failed, pending and cached (indices 4-7) are numeric. */
export const COVERAGE_COLUMNS = [
  'suite',
  'hash',
  'role',
  'model',
  'done / expected',
  'failed',
  'pending',
  'cached',
  'errors by kind',
  'status',
] as const;
export const COVERAGE_NUMERIC_COLUMNS = [4, 5, 6, 7] as const;

/** One row of that table, for every output format (`strong` marks an incomplete run). */
export function coverageRow(
  c: CoverageRow,
  render: { text: (s: string) => string; code: (s: string) => string; strong: (s: string) => string },
): string[] {
  const { text, code, strong } = render;
  const pct = (x: number | undefined) => (x === undefined ? '—' : `${(100 * x).toFixed(1)}%`);
  const errors = Object.entries(c.coverage.errorsByKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    text(c.suite.name),
    code(c.suite.hash.slice(0, 12)),
    text(c.role),
    text(c.model),
    text(`${c.coverage.done}/${c.coverage.total} (${pct(c.share)})`),
    text(String(c.coverage.failed)),
    text(String(c.coverage.pending)),
    text(String(c.coverage.cached)),
    text(errors || '—'),
    c.complete
      ? text('complete')
      : `${strong('incomplete')}${text(` (below ${pct(c.minCoverage)} or pending)`)}`,
  ];
}

export interface SuiteInfo extends SuiteRef {
  /** `ladder` for `ladder/tests`; undefined for a plain suite. */
  protocol?: string;
  stage?: string;
  role: SuiteRole;
  tests: number;
  createdAt: string;
}

export interface CoverageRow {
  suite: SuiteRef;
  role: SuiteRole;
  model: string;
  identity: string;
  /** Calls per test the run asked for (a test's own `repeats` wins). */
  repeats: number;
  coverage: Coverage;
  /** done / total; undefined when nothing is expected. */
  share: number | undefined;
  minCoverage: number;
  complete: boolean;
}

export interface ErrorRow {
  suite: SuiteRef;
  model: string;
  identity: string;
  kind: string;
  status?: number;
  count: number;
  /** One message of that kind (the latest). */
  example: string;
}

/**
 * One figure of an eval's headline (docs/report.md#index): its value and how uncertain it is, or
 * why it cannot be computed (never 0 in its place).
 */
export interface HeadlineFigure {
  /** What the number is: `SAA`, `accuracy at L0`. */
  name: string;
  value?: number;
  /** Its interval, when the protocol computes one (the summary's `interval` says how). */
  low?: number;
  high?: number;
  /** Its uncertainty in words when it has no interval (`sd 0.120`). */
  spread?: string;
  /** Its value in words when it is not a number (a Collapse Point: `L2 in IQ`); `value` is then unset. */
  shown?: string;
  /** The p of the test the protocol runs on it, in words (`p = 0.003, one-sided t-test of E[s] ≤ 0.05`). */
  test?: string;
  /** What it is over: `40 items`, `24 responses, 8 seeds`. */
  over: string;
  unavailable?: string;
}

/** A dataset an eval's suite was built from, with its licence (docs/datasets.md#licences). */
export interface EvalDataset {
  name: string;
  /** SPDX-style id; unset when neither the dataset's card nor waver knows it. */
  licence?: string;
  /** What the licence means for publishing what waver made from it, when it restricts that. */
  licenceNote?: string;
}

/** What an eval's line in the report's index says (SectionModule.summary). */
export interface EvalSummary {
  datasets: EvalDataset[];
  /** The models under test, each with its headline figures. */
  models: { label: string; figures: HeadlineFigure[] }[];
  /** How the figures' intervals are made: `95% item bootstrap`. */
  interval?: string;
}

/** `SAA 0.812 [0.750, 0.870] over 32 items`, or `SAA unavailable (why) over 32 items`. */
export function formatFigure(f: HeadlineFigure): string {
  const value =
    f.shown !== undefined
      ? `${f.shown}${f.spread ? ` (${f.spread})` : ''}`
      : f.value === undefined
        ? `unavailable (${f.unavailable ?? 'not computed'})`
        : `${f.value.toFixed(3)}${f.low !== undefined && f.high !== undefined ? ` [${f.low.toFixed(3)}, ${f.high.toFixed(3)}]` : ''}${f.spread ? ` (${f.spread})` : ''}`;
  return `${f.name} ${value} over ${f.over}${f.test ? `; ${f.test}` : ''}`;
}

/** `gsm8k (MIT)`, `gsm-symbolic (CC-BY-NC-ND-4.0: non-commercial…)`, `x (licence not stated)`. */
export function formatDataset(d: EvalDataset): string {
  return `${d.name} (${d.licence ?? 'licence not stated'}${d.licenceNote ? `: ${d.licenceNote}` : ''})`;
}

/** Cells of an eval's models under test: done of expected, failed, pending, over every model. */
export function evalCoverage(
  data: ReportData,
  suiteHash: string,
): {
  done: number;
  total: number;
  failed: number;
  pending: number;
  complete: boolean;
} {
  const rows = data.coverage.filter((c) => c.suite.hash === suiteHash);
  return {
    done: rows.reduce((n, c) => n + c.coverage.done, 0),
    total: rows.reduce((n, c) => n + c.coverage.total, 0),
    failed: rows.reduce((n, c) => n + c.coverage.failed, 0),
    pending: rows.reduce((n, c) => n + c.coverage.pending, 0),
    complete: rows.every((c) => c.complete),
  };
}

/** One protocol suite's part of the report; `results` is what the protocol's loader returned. */
export interface ReportSection<R = unknown> {
  protocol: string;
  /** Anchor in the HTML page, unique within the report. */
  id: string;
  /** The protocol's title (`Ladder stress test`). */
  title: string;
  /** What the eval is named by: its datasets and models (`gsm8k · gpt-4o, llama3`). */
  name: string;
  suite: SuiteRef;
  /** Start of the suite's latest run, when it has one. */
  date?: string;
  /** Ids of the runs of the suite, oldest first. */
  runs: string[];
  /** The index's line; absent when the results could not be rebuilt or the protocol gives none. */
  summary?: EvalSummary;
  /**
   * The answer first: two or more models ranked and compared pair by pair with `check --compare`'s
   * test (docs/report.md#comparison); absent with one model or a protocol without correctness.
   */
  comparison?: EvalComparison;
  /**
   * The one order of the eval's models (docs/report.md#model-order): what it is by, and the
   * models' labels so; every per-model table, chart and list of the section follows it.
   */
  modelOrder?: { by: ModelOrder['by']; says: string; models: string[] };
  results?: R;
  /** Why the section could not be built (the loader failed), shown instead of its figures. */
  unavailable?: string;
  /** What the report's header must say about these results (the module's `caveats`), when anything. */
  caveats?: string[];
}

export interface ReportData {
  report: 'waver';
  version: 1;
  generatedAt: string;
  /** The waver that built the report (each run records its own version too). */
  waverVersion: string;
  store: { file: string; schemaVersion: number };
  runs: RunInfo[];
  suites: SuiteInfo[];
  coverage: CoverageRow[];
  errors: ErrorRow[];
  sections: ReportSection[];
  /** The cells the HTML page embeds: every cell, or the sample `transcripts` describes. */
  cells: TranscriptCell[];
  transcripts: TranscriptSummary;
  /**
   * Every cell (the JSON and CSV write them all): `cells` when that is every cell, else read
   * again from the store, which must then still be open.
   */
  eachCell(): Iterable<TranscriptCell>;
  /** Judge agreement with people and the corrected estimates, per labelling set with labels (docs/judges.md). */
  judges?: JudgeSetReport[];
}

export interface BuildReportOptions {
  /** The report's timestamp (ISO); default now. Tests pin it. */
  now?: string;
  /** Compute sago's ablations (the slowest part of its loader); default true. */
  ablations?: boolean;
  /** How many transcript cells the HTML page embeds (tests make it small). */
  sample?: SampleLimits;
  /**
   * One eval only (`waver report --run ID | --suite PREFIX`): the suite of the run whose id starts
   * with `run`, or the suite whose hash starts with `suite`. Runs, coverage, errors, sections and
   * cells are then those of that suite alone. An id or prefix matching none, or several suites,
   * is an InputError.
   */
  only?: { run?: string; suite?: string };
}

export type { LoadContext } from './load-context.js';

/**
 * A protocol as the report sees it (docs/report.md#sections-are-modules): its name (each section's
 * anchor), its section's title, and its section. The report is handed these by whoever holds the
 * protocols, and knows nothing else about a protocol.
 */
export interface ReportedProtocol<R = unknown> {
  name: string;
  title: string;
  /** Its suites and their roles, as its module declares them. */
  suites?: ProtocolSuites;
  section: SectionModule<R>;
}

/**
 * A protocol's part of the report: which suites it claims, how it rebuilds their results from
 * the store (the protocol's own loader), the cells it adds to the transcript browser, and how it
 * renders as HTML, Markdown and JSON.
 */
export interface SectionModule<R = unknown> {
  /** False for a module that only lists cells (plain suites): no section of its own. */
  sectioned: boolean;
  claims(suite: SuiteInfo): boolean;
  /** The protocol's results for a suite; throws when they cannot be rebuilt (the section says why). */
  load(store: Store, suiteHash: string, ctx: LoadContext): R;
  /**
   * Every cell of the suite for the browser; `results` is undefined when `load` failed. Read as it
   * is yielded: the report keeps a bounded sample of them (docs/report.md#transcript-sample), so a
   * generator over the store keeps the report's memory bounded, and it is read again for the JSON
   * and CSV, which hold every cell.
   */
  cells(store: Store, suiteHash: string, results: R | undefined): Iterable<TranscriptCell>;
  /**
   * One stored cell as `cells` yields it, for a module whose cells need no other cell (nothing
   * scored across cells): the viewer then pages such a suite along the store's cell index, however
   * many cells it holds, instead of reading it whole (docs/report.md#the-viewers-transcripts).
   */
  cellOf?(suiteHash: string, cell: LightCell, test: SuiteTest | undefined): TranscriptCell;
  /**
   * The results with every per-model list in `order`, the eval's one order, which the report
   * decides (docs/report.md#model-order): html, markdown and json are handed what this returns,
   * and keep its order (a ranking of the protocol's own, such as paraphrase's SAA rank, is a
   * column, not the rows' order).
   */
  inModelOrder(results: R, order: ModelOrder): R;
  /** The section body: charts and tables. */
  html(results: R, kit: HtmlKit): string;
  markdown(results: R): string;
  json(results: R): unknown;
  /**
   * Lines the report's header states about these results, beside the store line, because a
   * reader must see them before any figure (e.g. a ladder suite whose meaning was never checked).
   */
  caveats?(results: R): string[];
  /** The eval's line in the report's index: its datasets and each model's headline figures. */
  summary?(results: R): EvalSummary;
  /**
   * Each model's right/wrong verdicts as `check --compare` pairs them, for the eval's comparison;
   * absent when its answers have no correctness (sago).
   */
  verdicts?(results: R): EvalVerdicts;
}

/** Each section's caveats, for the report's header: the section's anchor, a label (protocol and suite) and the line. */
export function headerCaveats(data: ReportData): { section: string; label: string; text: string }[] {
  return data.sections.flatMap((s) =>
    (s.caveats ?? []).map((text) => ({
      section: s.id,
      label: s.name,
      text,
    })),
  );
}

const DEFAULT_MIN_COVERAGE = 0.9;

/**
 * The report of a store, with a section (and cells) for each suite one of `protocols` claims, in
 * their order; suites none claims are counted in the tables only.
 */
export function buildReport(
  source: Store,
  protocols: readonly ReportedProtocol[],
  opts: BuildReportOptions = {},
): ReportData {
  const store = readOnce(source);
  const only = opts.only && onlySuite(store, opts.only);
  const runs = store.runs.list().filter((r) => only === undefined || r.suiteHash === only);
  const latestConfig = latestConfigs(runs);
  const suites = storeSuites(store, protocols).filter((s) => only === undefined || s.hash === only);
  const suiteByHash = new Map(suites.map((s) => [s.hash, s]));
  const ref = (hash: string): SuiteRef => ({ hash, name: suiteByHash.get(hash)?.name ?? '(unknown suite)' });
  const suiteRole = suiteRoles(protocols);
  const runInfos = runs.map((r) => runInfoOf(r, ref, suiteRole));

  const minCoverageOf = (hash: string): number => {
    const v = latestConfig.get(hash)?.minCoverage;
    return typeof v === 'number' ? v : DEFAULT_MIN_COVERAGE;
  };
  const coverage = coverageRows(store, latestConfig, minCoverageOf, (h) => ({
    ref: ref(h),
    role: suiteByHash.get(h)?.role ?? 'system under test',
  })).filter((c) => only === undefined || c.suite.hash === only);
  const errors = errorRows(store, ref).filter((e) => only === undefined || e.suite.hash === only);

  const ctx: LoadContext = {
    runConfig: (hash) => latestConfig.get(hash),
    ablations: opts.ablations ?? true,
  };
  const ids = new Set<string>();
  const claimed = claimedSuites(suites, protocols, runs).map((c) => claimedSection(store, c, runs, ctx, ids));
  const sections = claimed.filter((c) => c.module.sectioned).map((c) => c.section);
  function* eachCell(): Generator<TranscriptCell> {
    for (const { module, suite, section } of claimed) yield* module.cells(store, suite, section.results);
  }
  const sampler = new TranscriptSampler(opts.sample ?? SAMPLE_LIMITS);
  for (const c of eachCell()) sampler.add(c);
  const { cells: kept, summary } = sampler.finish();
  // A section may read a text only when asked (plain suites: a getter over the store); the kept
  // cells are copied whole, so the page can be rendered once the store is closed.
  const cells = kept.map((c) => ({ ...c }));

  const judges = judgeReports(store);
  return {
    report: 'waver',
    version: 1,
    generatedAt: opts.now ?? new Date().toISOString(),
    waverVersion: WAVER_VERSION,
    store: {
      file: store.path === ':memory:' ? ':memory:' : basename(store.path),
      schemaVersion: store.schemaVersion,
    },
    runs: runInfos,
    suites,
    coverage,
    errors,
    sections,
    cells,
    transcripts: summary,
    eachCell: summary.sampled ? eachCell : () => cells,
    ...(judges.length > 0 && { judges }),
  };
}

type StoredRun = ReturnType<Store['runs']['list']>[number];

/** Each suite's config as its latest run gave it (runs.list is oldest first). */
function latestConfigs(runs: readonly StoredRun[]): Map<string, Record<string, unknown>> {
  const latest = new Map<string, Record<string, unknown>>();
  for (const r of runs)
    if (r.suiteHash !== undefined && r.config && typeof r.config === 'object')
      latest.set(r.suiteHash, r.config as Record<string, unknown>);
  return latest;
}

/** A run as the report's appendix lists it: its suite and role, models, roles and settings. */
function runInfoOf(
  r: StoredRun,
  ref: (hash: string) => SuiteRef,
  suiteRole: ReturnType<typeof suiteRoles>,
): RunInfo {
  const config = (r.config ?? {}) as Record<string, unknown>;
  const params = (config.params ?? {}) as Record<string, unknown>;
  const suite = r.suiteHash !== undefined ? ref(r.suiteHash) : undefined;
  return {
    id: r.id,
    startedAt: r.startedAt,
    ...(r.finishedAt !== undefined && { finishedAt: r.finishedAt }),
    status: r.status,
    waverVersion: r.waverVersion,
    ...(suite && { suite }),
    role: suite ? suiteRole(suite.name) : 'bookkeeping',
    models: Array.isArray(config.models) ? config.models.map(labelOf) : [],
    ...optionalLabel('judge', config.judge),
    ...optionalLabel('generator', config.generator),
    ...optionalLabel('embedder', config.embedder),
    ...(typeof config.seed === 'number' && { seed: config.seed }),
    ...(typeof config.repeats === 'number' && { repeats: config.repeats }),
    ...(typeof params.temperature === 'number' && { temperature: params.temperature }),
    ...(typeof params.maxTokens === 'number' && { maxTokens: params.maxTokens }),
  };
}

/** A claimed suite's section, with the module that reads its cells (a plain suite's has no section shown). */
interface ClaimedSection {
  module: SectionModule;
  suite: string;
  section: ReportSection;
}

/**
 * A claimed suite's section: its results rebuilt by the protocol's loader, with its caveats and its
 * line in the index; unavailable, with the reason, when the loader fails. Section ids are unique
 * in the order the suites are claimed.
 */
function claimedSection(
  store: Store,
  { suite, protocol, lastRun: date }: ClaimedSuite,
  runs: readonly StoredRun[],
  ctx: LoadContext,
  ids: Set<string>,
): ClaimedSection {
  const section: ReportSection = {
    protocol: protocol.name,
    id: uniqueId(`${protocol.name}-${suite.hash.slice(0, 8)}`, ids),
    title: protocol.title,
    name: `${protocol.name} ${suite.hash.slice(0, 8)}`,
    suite: { hash: suite.hash, name: suite.name },
    ...(date !== undefined && { date }),
    runs: runs.filter((r) => r.suiteHash === suite.hash).map((r) => r.id),
  };
  try {
    const results = protocol.section.load(store, suite.hash, ctx);
    const caveats = protocol.section.caveats?.(results) ?? [];
    if (caveats.length > 0) section.caveats = caveats;
    const verdicts = protocol.section.verdicts?.(results);
    const comparison =
      verdicts &&
      compareEvalModels(verdicts, { suiteHash: suite.hash, alpha: alphaOf(ctx.runConfig(suite.hash)) });
    if (comparison) section.comparison = comparison;
    // The eval's one order, decided here and handed to the section (docs/report.md#model-order).
    const order = modelOrder(comparison);
    section.results = protocol.section.inModelOrder(results, order);
    const summary = protocol.section.summary?.(section.results);
    if (summary) {
      section.summary = { ...summary, models: order.sort(summary.models, (m) => m) };
      section.name = evalName(section.summary, section.name);
      section.modelOrder = {
        by: order.by,
        says: order.says,
        models: section.summary.models.map((m) => m.label),
      };
    }
  } catch (e) {
    section.unavailable =
      e instanceof ResultsPending
        ? e.message
        : `the ${protocol.name} results could not be rebuilt: ${(e as Error).message}`;
  }
  return { module: protocol.section, suite: suite.hash, section };
}

/** The level of the comparison's tests: the run's `check.alpha`, else check's default 0.05. */
function alphaOf(config: Record<string, unknown> | undefined): number {
  const alpha = (config?.check as { alpha?: unknown } | undefined)?.alpha;
  return typeof alpha === 'number' && alpha > 0 && alpha < 1 ? alpha : 0.05;
}

/**
 * The store as the report reads it: each suite parsed once, and each suite's cells read for
 * scoring once. The loaders and the section modules each ask for the suites they need (the
 * ladder's is asked for four times), and a protocol's loader and its transcript both read every
 * cell of its suite: parsing a suite of thousands of tests, or reading 20,000 cells, is a good
 * part of a large report's time. Everything else is the store itself.
 */
function readOnce(store: Store): Store {
  const suites = Object.create(store.suites, {
    get: { value: memoized((hash: string) => store.suites.get(hash)) },
  }) as SuiteQueries;
  const cells = Object.create(store.cells, {
    forScoring: { value: memoized((hash: string) => store.cells.forScoring(hash)) },
  }) as CellQueries;
  return Object.create(store, { suites: { value: suites }, cells: { value: cells } }) as Store;
}

function memoized<T>(read: (hash: string) => T): (hash: string) => T {
  const done = new Map<string, T>();
  return (hash) => {
    if (!done.has(hash)) done.set(hash, read(hash));
    return done.get(hash) as T;
  };
}

/** A suite with the protocol that claims it, and the start of its latest run. */
export interface ClaimedSuite {
  suite: SuiteInfo;
  protocol: ReportedProtocol;
  lastRun?: string;
}

/**
 * The suites some protocol claims (each eval's section, the plain suites' cells), in the report's
 * order: by protocol (in `protocols`' order), then by their latest run, oldest first. The report's
 * sections and both transcript browsers (the report's, the viewer's) list them so.
 */
export function claimedSuites(
  suites: readonly SuiteInfo[],
  protocols: readonly ReportedProtocol[],
  runs: readonly { suiteHash?: string; startedAt: string }[],
): ClaimedSuite[] {
  const lastRun = new Map<string, string>();
  for (const r of runs) if (r.suiteHash !== undefined) lastRun.set(r.suiteHash, r.startedAt); // oldest first
  const out: (ClaimedSuite & { rank: number })[] = [];
  for (const suite of suites) {
    const rank = protocols.findIndex((p) => p.section.claims(suite));
    const protocol = protocols[rank];
    const date = lastRun.get(suite.hash);
    if (protocol) out.push({ suite, protocol, rank, ...(date !== undefined && { lastRun: date }) });
  }
  return out
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        (a.lastRun ?? a.suite.createdAt).localeCompare(b.lastRun ?? b.suite.createdAt) ||
        a.suite.hash.localeCompare(b.suite.hash),
    )
    .map(({ rank: _rank, ...c }) => c);
}

/** Every suite of a store, with the protocol its name says and the role `protocols` declare for it. */
export function storeSuites(store: Store, protocols: readonly ReportedProtocol[]): SuiteInfo[] {
  return suiteInfos(store, new Set(protocols.map((p) => p.name)), suiteRoles(protocols));
}

/**
 * An eval is named by what it measured: its datasets and models (`gsm8k · alpha, beta`); the
 * suite hash only when the protocol names neither (docs/report.md#index).
 */
export function evalName(summary: EvalSummary, fallback: string): string {
  const datasets = summary.datasets.map((d) => d.name);
  const models = summary.models.map((m) => m.label);
  const list = (xs: string[]) =>
    xs.length > 3 ? `${xs.slice(0, 3).join(', ')} +${xs.length - 3}` : xs.join(', ');
  const parts = [list(datasets), list(models)].filter((x) => x !== '');
  return parts.length === 0 ? fallback : parts.join(' · ');
}

/** The suite `waver report --run ID | --suite PREFIX` names (docs/report.md#one-eval). */
function onlySuite(store: Store, only: { run?: string; suite?: string }): string {
  if (only.run !== undefined) {
    const runs = store.runs.list().filter((r) => r.id.startsWith(only.run as string));
    if (runs.length === 0)
      throw new InputError(`no run whose id starts with '${only.run}'`, { field: '--run' });
    const hashes = [...new Set(runs.map((r) => r.suiteHash))];
    if (hashes.length > 1)
      throw new InputError(`'${only.run}' starts ${runs.length} run ids: give more of the id`, {
        field: '--run',
      });
    const hash = hashes[0];
    if (hash === undefined) throw new InputError(`run '${runs[0]?.id}' has no suite`, { field: '--run' });
    return hash;
  }
  const prefix = (only.suite ?? '').toLowerCase();
  const hashes = store.suites.list().filter((s) => s.hash.startsWith(prefix));
  if (prefix === '' || hashes.length === 0)
    throw new InputError(`no suite whose sha256 starts with '${only.suite}'`, { field: '--suite' });
  if (hashes.length > 1)
    throw new InputError(`'${only.suite}' starts ${hashes.length} suite hashes: give more of it`, {
      field: '--suite',
    });
  return (hashes[0] as { hash: string }).hash;
}

function uniqueId(base: string, taken: Set<string>): string {
  let id = base.replace(/[^A-Za-z0-9-]/g, '-');
  for (let i = 2; taken.has(id); i++) id = `${base}-${i}`;
  taken.add(id);
  return id;
}

function optionalLabel<K extends string>(key: K, spec: unknown): Partial<Record<K, string>> {
  return spec === undefined || spec === null ? {} : ({ [key]: labelOf(spec) } as Record<K, string>);
}

/**
 * A suite named `<protocol>/<stage>` belongs to a protocol: one of `protocols`, or a name of that
 * shape (`ladder/tests`) for a protocol the report was not handed. A plain suite is named by its
 * file, and `data/questions.jsonl` is not a protocol `data`.
 */
function suiteInfos(
  store: Store,
  protocols: ReadonlySet<string>,
  suiteRole: (name: string) => SuiteRole,
): SuiteInfo[] {
  return store.suites.list().map((r) => {
    const slash = r.name.indexOf('/');
    const named =
      slash > 0 &&
      !r.name.includes(':') &&
      (protocols.has(r.name.slice(0, slash)) || /^[a-z][a-z0-9-]*\/[a-z][a-z0-9-]*$/.test(r.name));
    return {
      hash: r.hash,
      name: r.name,
      ...(named && { protocol: r.name.slice(0, slash), stage: r.name.slice(slash + 1) }),
      role: suiteRole(r.name),
      tests: r.tests,
      createdAt: r.createdAt,
    };
  });
}

/** Coverage of every (suite, model) in the store, as store.coverage.of counts it. */
function coverageRows(
  store: Store,
  configs: Map<string, Record<string, unknown>>,
  minCoverageOf: (hash: string) => number,
  suiteOf: (hash: string) => { ref: SuiteRef; role: SuiteRole },
): CoverageRow[] {
  const runRepeats = (hash: string) => {
    const v = configs.get(hash)?.repeats;
    return typeof v === 'number' ? v : 1;
  };
  const repeatsBySuite = Object.fromEntries([...configs.keys()].map((h) => [h, runRepeats(h)]));
  return store.coverage
    .everySuite(repeatsBySuite)
    .map(({ suiteHash: hash, modelIdentity, model, coverage }) => {
      const total = coverage.total;
      const share = total === 0 ? undefined : coverage.done / total;
      const minCoverage = minCoverageOf(hash);
      const { ref, role } = suiteOf(hash);
      return {
        suite: ref,
        role,
        model,
        identity: modelIdentity,
        repeats: runRepeats(hash),
        coverage,
        share,
        minCoverage,
        complete: share !== undefined && share >= minCoverage && coverage.pending === 0,
      };
    });
}

function errorRows(store: Store, ref: (hash: string) => SuiteRef): ErrorRow[] {
  return store.cells.failureGroups().map((g) => ({
    suite: ref(g.suiteHash),
    model: g.model,
    identity: g.modelIdentity,
    kind: g.kind,
    ...(g.status !== undefined && { status: g.status }),
    count: g.count,
    example: g.example ?? '',
  }));
}
