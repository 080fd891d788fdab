import type { LoadContext } from '../report/load-context.js';
import { readStore, type Store } from '../store/store.js';
import { WAVER_VERSION } from '../version.js';
import type { Protocol } from './types.js';

/**
 * The version of `ResultsRecord`'s shape (docs/library.md#results-records): raised when a field of
 * the record is renamed, removed or changes meaning; a field added leaves it as it is. The
 * protocols' `results` follow their own types, which the library's types name.
 */
export const RESULTS_SCHEMA_VERSION = 1;

/** One protocol's results for one suite of a store, as `readResults` gives them. */
export interface ResultsRecord<Results = unknown> {
  schemaVersion: typeof RESULTS_SCHEMA_VERSION;
  /** The waver that read the store (the store records the one that wrote each run). */
  waverVersion: string;
  /** The protocol whose primary suite this is (`ladder`, `sago`, `paraphrase`; `run` for a plain suite). */
  protocol: string;
  suite: { hash: string; name: string; createdAt: string; tests: number };
  /** The model labels with cells in the suite, sorted. */
  models: string[];
  /** The config of the suite's latest run, as stored (no secrets are ever stored); absent for a suite never run. */
  config?: Record<string, unknown>;
  /** What the protocol's `load` rebuilds from the store alone (what the report shows); undefined for a plain suite. */
  results: Results;
}

export interface ReadResultsOptions {
  /** A suite's name, or its hash or a prefix of it. */
  suite?: string;
  /** Only this protocol's suites (`paraphrase`; `run` for plain suites). */
  protocol?: string;
  /** Only suites with cells of this model label. */
  model?: string;
}

/**
 * The results of the systems under test in a store, one record per suite (a protocol's primary
 * suite, or a plain suite), oldest suite first, each rebuilt by its protocol from the store alone.
 * A store path is opened read-only and closed; a store handed in stays open. Role suites (judges,
 * generators, bookkeeping) are read by the records of the suites they serve, not given apart.
 */
export async function readResults(
  source: string | Store,
  protocols: readonly Protocol[],
  opts: ReadResultsOptions = {},
): Promise<ResultsRecord[]> {
  // A path is read as `waver report` reads one: refused, naming the file, when it cannot be.
  if (typeof source === 'string') return readStore(source, (store) => recordsOf(store, protocols, opts));
  return recordsOf(source, protocols, opts);
}

async function recordsOf(
  store: Store,
  protocols: readonly Protocol[],
  opts: ReadResultsOptions,
): Promise<ResultsRecord[]> {
  const latest = new Map<string, Record<string, unknown>>();
  for (const r of store.runs.list())
    if (r.suiteHash !== undefined && r.config && typeof r.config === 'object')
      latest.set(r.suiteHash, r.config as Record<string, unknown>);
  const ctx: LoadContext = { runConfig: (hash) => latest.get(hash), ablations: true };
  const records: ResultsRecord[] = [];
  for (const suite of store.suites.list()) {
    if (
      opts.suite !== undefined &&
      suite.name !== opts.suite &&
      !suite.hash.startsWith(opts.suite.toLowerCase())
    )
      continue;
    const protocol = protocolOf(suite.name, protocols);
    if (!protocol || (opts.protocol !== undefined && protocol.name !== opts.protocol)) continue;
    const models = store.suites.modelLabels(suite.hash);
    if (opts.model !== undefined && !models.includes(opts.model)) continue;
    const config = latest.get(suite.hash);
    records.push({
      schemaVersion: RESULTS_SCHEMA_VERSION,
      waverVersion: WAVER_VERSION,
      protocol: protocol.name,
      suite,
      models,
      ...(config && { config }),
      results: await protocol.load(store, suite.hash, ctx),
    });
  }
  return records;
}

/**
 * The protocol a suite is the primary suite of; a suite of no protocol's prefix is a plain suite,
 * the protocol that declares no suites of its own (`waver run`'s); a role suite is none.
 */
function protocolOf(name: string, protocols: readonly Protocol[]): Protocol | undefined {
  const owner = protocols.find((p) => p.suites && name.startsWith(`${p.name}/`));
  if (owner) return owner.suites?.primary === name ? owner : undefined;
  return protocols.find((p) => !p.suites);
}
