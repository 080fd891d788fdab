import { basename } from 'node:path';
import { type JudgeSetReport, judgeReports } from '../judge/report.js';
import { storedSpecLabel as labelOf } from '../models/spec.js';
import type { Coverage } from '../run/types.js';
import type { Store } from '../store/store.js';
import { WAVER_VERSION } from '../version.js';
import type { HtmlKit } from './html/section.js';
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

/** One protocol suite's part of the report; `results` is what the protocol's loader returned. */
export interface ReportSection<R = unknown> {
  protocol: string;
  /** Anchor in the HTML page, unique within the report. */
  id: string;
  title: string;
  suite: SuiteRef;
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
}

/** Context a section module's loader gets: the settings the suite was run with. */
export interface LoadContext {
  /** The config of the latest run of a suite (secrets were never stored). */
  runConfig(suiteHash: string): Record<string, unknown> | undefined;
  ablations: boolean;
}

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
  /** The section body: charts and tables. */
  html(results: R, kit: HtmlKit): string;
  markdown(results: R): string;
  json(results: R): unknown;
  /**
   * Lines the report's header states about these results, beside the store line, because a
   * reader must see them before any figure (e.g. a ladder suite whose meaning was never checked).
   */
  caveats?(results: R): string[];
}

/** Each section's caveats, for the report's header: the section's anchor, a label (protocol and suite) and the line. */
export function headerCaveats(data: ReportData): { section: string; label: string; text: string }[] {
  return data.sections.flatMap((s) =>
    (s.caveats ?? []).map((text) => ({
      section: s.id,
      label: `${s.protocol} ${s.suite.hash.slice(0, 8)}`,
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
  const runs = store.listRuns();
  const latestConfig = new Map<string, Record<string, unknown>>();
  for (const r of runs)
    if (r.suiteHash !== undefined && r.config && typeof r.config === 'object')
      latestConfig.set(r.suiteHash, r.config as Record<string, unknown>); // listRuns is oldest first
  const suiteRole = suiteRoles(protocols);
  const suites = suiteInfos(store, new Set(protocols.map((p) => p.name)), suiteRole);
  const suiteByHash = new Map(suites.map((s) => [s.hash, s]));
  const ref = (hash: string): SuiteRef => ({ hash, name: suiteByHash.get(hash)?.name ?? '(unknown suite)' });

  const runInfos: RunInfo[] = runs.map((r) => {
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
  });

  const minCoverageOf = (hash: string): number => {
    const v = latestConfig.get(hash)?.minCoverage;
    return typeof v === 'number' ? v : DEFAULT_MIN_COVERAGE;
  };
  const coverage = coverageRows(store, latestConfig, minCoverageOf, (h) => ({
    ref: ref(h),
    role: suiteByHash.get(h)?.role ?? 'system under test',
  }));
  const errors = errorRows(store, ref);

  const ctx: LoadContext = {
    runConfig: (hash) => latestConfig.get(hash),
    ablations: opts.ablations ?? true,
  };
  const sections: ReportSection[] = [];
  const cellSources: { module: SectionModule; suite: string; section: ReportSection }[] = [];
  const lastRun = new Map<string, string>();
  for (const r of runs) if (r.suiteHash !== undefined) lastRun.set(r.suiteHash, r.startedAt);
  const claimant = (suite: SuiteInfo) => protocols.find((p) => p.section.claims(suite));
  const rank = (suite: SuiteInfo) => {
    const p = claimant(suite);
    return p ? protocols.indexOf(p) : protocols.length;
  };
  const ordered = [...suites].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (lastRun.get(a.hash) ?? a.createdAt).localeCompare(lastRun.get(b.hash) ?? b.createdAt) ||
      a.hash.localeCompare(b.hash),
  );
  const ids = new Set<string>();
  for (const suite of ordered) {
    const protocol = claimant(suite);
    if (!protocol) continue;
    const id = uniqueId(`${protocol.name}-${suite.hash.slice(0, 8)}`, ids);
    const section: ReportSection = {
      protocol: protocol.name,
      id,
      title: protocol.title,
      suite: { hash: suite.hash, name: suite.name },
    };
    try {
      section.results = protocol.section.load(store, suite.hash, ctx);
      const caveats = protocol.section.caveats?.(section.results) ?? [];
      if (caveats.length > 0) section.caveats = caveats;
    } catch (e) {
      section.unavailable = `the ${protocol.name} results could not be rebuilt: ${(e as Error).message}`;
    }
    if (protocol.section.sectioned) sections.push(section);
    cellSources.push({ module: protocol.section, suite: suite.hash, section });
  }
  function* eachCell(): Generator<TranscriptCell> {
    for (const { module, suite, section } of cellSources) yield* module.cells(store, suite, section.results);
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

/**
 * The store as the report reads it: each suite parsed once. The loaders and the section modules
 * each ask for the suites they need (the ladder's is asked for four times), and parsing a suite of
 * thousands of tests is a good part of a large report's time. Everything else is the store itself.
 */
function readOnce(store: Store): Store {
  const suites = new Map<string, ReturnType<Store['getSuite']>>();
  return Object.create(store, {
    getSuite: {
      value(hash: string) {
        if (!suites.has(hash)) suites.set(hash, store.getSuite(hash));
        return suites.get(hash);
      },
    },
  }) as Store;
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
  return store.listSuites().map((r) => {
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

/** Coverage of every (suite, model) in the store, as Store.coverage counts it. */
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
  return store
    .coverageOfEverySuite(repeatsBySuite)
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
  return store.failureGroups().map((g) => ({
    suite: ref(g.suiteHash),
    model: g.model,
    identity: g.modelIdentity,
    kind: g.kind,
    ...(g.status !== undefined && { status: g.status }),
    count: g.count,
    example: g.example ?? '',
  }));
}
