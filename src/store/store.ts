import type Database from 'better-sqlite3';
import { AttemptQueries } from './attempts.js';
import { AuxResultQueries } from './aux-results.js';
import { BatchQueries } from './batches.js';
import { CellQueries } from './cells.js';
import { CoverageQueries } from './coverage.js';
import { LabelQueries } from './labels.js';
import { LeaseQueries } from './leases.js';
import { openReader, openWriter, type ReaderCheck, storeFailure } from './open.js';
import { ResponseQueries } from './responses.js';
import { RunQueries } from './runs.js';
import { hasSchema } from './schema.js';
import { Statements } from './statements.js';
import { SuiteQueries } from './suites.js';

export type { AttemptQueries } from './attempts.js';
export type { AuxResultQueries } from './aux-results.js';
export type { BatchCell, BatchQueries, BatchRecord, BatchState, NewBatch } from './batches.js';
export type { CellQueries } from './cells.js';
export type { CoverageQueries } from './coverage.js';
export type {
  LabellingItemRecord,
  LabellingSetRecord,
  LabellingSetSummary,
  LabelQueries,
  LabelRecord,
  PopulationCount,
} from './labels.js';
export { type ClaimOptions, LEASE_TTL_MS, type LeaseQueries } from './leases.js';
export { type ReaderCheck, storeFailure } from './open.js';
export type * from './records.js';
export type { ResponseQueries } from './responses.js';
export type { RunQueries } from './runs.js';
export { applyMigrations, MIGRATIONS } from './schema.js';
export type { SuiteQueries } from './suites.js';

export interface OpenOptions {
  /**
   * Read only: the file must exist, nothing is migrated, every write is refused and nothing is left
   * beside the file (see open.ts). For the commands that only read, and a reader beside a running
   * writer (the store is in WAL mode, so it sees each commit and never blocks it).
   */
  readonly?: boolean;
  /**
   * Read only: how the store is checked page by page first (open.ts, ReaderCheck): by default a
   * store of up to 256 MiB; `always` whatever its size; `never` for a reader a writer's open follows.
   */
  check?: ReaderCheck;
}

/**
 * The SQLite store: suites, runs, responses (the cache), cells and every attempt, plus the aux
 * results. A report is built from it alone. It is the only code that holds the connection or
 * writes SQL: callers ask named questions of its query objects, one per concept
 * (`store.cells.light(hash)`, `store.suites.withCellsNamed(name)`), each owning its statements and
 * giving records with named fields. A finished cell is written whole in one transaction (see
 * cell-writes.ts), so a process killed at any point never leaves half a cell.
 */
export class Store {
  readonly path: string;
  /** Opened read-only: every write is refused (a derived value is computed, not kept). */
  readonly readonly: boolean;
  private readonly db: Database.Database;
  private readonly st: Statements;
  /** Suites and their tests, and the models that have cells in them. */
  readonly suites: SuiteQueries;
  /** Cells: written whole as they finish; read whole, light, with their tests or a page at a time. */
  readonly cells: CellQueries;
  /** Stored responses (the cache), by the cache key of their request. */
  readonly responses: ResponseQueries;
  /** Every call made for a cell, and the tries of calls a stop cut short. */
  readonly attempts: AttemptQueries;
  /** Runs, their configs and status. */
  readonly runs: RunQueries;
  /** Results of calls that are not chat generations (embeddings, scores...), by key. */
  readonly aux: AuxResultQueries;
  /** Labelling sets and people's labels of their items. */
  readonly labels: LabelQueries;
  /** Chunk leases of the workers sharing the store (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells). */
  readonly leases: LeaseQueries;
  /** Provider batches and the cells each answers (docs/batch.md). */
  readonly batches: BatchQueries;
  /** A suite's cells counted against what it expects. */
  readonly coverage: CoverageQueries;

  constructor(path: string, opts: OpenOptions = {}) {
    this.path = path;
    this.readonly = opts.readonly ?? false;
    this.db = this.readonly ? openReader(path, opts.check) : openWriter(path);
    this.st = new Statements(this.db);
    this.suites = new SuiteQueries(this.st);
    this.cells = new CellQueries(this.st);
    this.responses = new ResponseQueries(this.st);
    this.attempts = new AttemptQueries(this.st);
    this.runs = new RunQueries(this.st);
    this.aux = new AuxResultQueries(this.st);
    this.labels = new LabelQueries(this.st);
    this.leases = new LeaseQueries(this.st);
    this.batches = new BatchQueries(this.st);
    this.coverage = new CoverageQueries(this.st);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /**
   * A number that changes whenever another connection commits to the store (SQLite's
   * data_version): a reader keeps what it computed until it does.
   */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /** Whether the tables exist: a read-only store may be opened before the writer made them. */
  hasSchema(): boolean {
    return hasSchema(this.st);
  }

  /** Runs `fn` in one transaction: its writes commit together, or not at all when it throws. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}

/**
 * Opens (and creates, then migrates, unless read-only) the store at `path`; ':memory:' works. A
 * store that cannot be opened (missing, unwritable for a writer, damaged, not a SQLite file, a
 * SQLite file that is not a waver store) is an InputError naming the file.
 */
export function openStore(path: string, opts: OpenOptions = {}): Store {
  return new Store(path, opts);
}

/**
 * Runs `read` over the store at `path` opened read-only, and closes it once `read` is through (its
 * promise settled, when it gives one). A damaged store is refused as it opens (checked as `check`
 * says), and a damaged page met on the way (in a store too large to be checked) is an InputError
 * naming the file all the same, never an internal error.
 */
export function readStore<T>(path: string, read: (store: Store) => T, check?: ReaderCheck): T {
  const store = openStore(path, { readonly: true, ...(check && { check }) });
  const failed = (e: unknown) => {
    store.close();
    return storeFailure(e, path) ?? e;
  };
  let result: T;
  try {
    result = read(store);
  } catch (e) {
    throw failed(e);
  }
  if (!(result instanceof Promise)) {
    store.close();
    return result;
  }
  return result.then(
    (value: unknown) => {
      store.close();
      return value;
    },
    (e: unknown) => {
      throw failed(e);
    },
  ) as T;
}
