import type Database from 'better-sqlite3';
import type { SuiteTest } from '../domain/suites.js';
import { AuxResultQueries } from './aux-results.js';
import { BatchQueries } from './batches.js';
import { type CellWriters, cellWriters } from './cell-writes.js';
import {
  attemptsOf,
  cellPage,
  cells,
  cellsWithTests,
  doneCellKey,
  failureGroups,
  getResponse,
  hasResponse,
  lightCells,
  repeatCells,
  responseText,
  stoppedAttempts,
} from './cells.js';
import { CoverageQueries } from './coverage.js';
import { LabelQueries } from './labels.js';
import { LeaseQueries } from './leases.js';
import { openReader, openWriter } from './open.js';

export { storeFailure } from './open.js';

import type {
  CellFilter,
  CellPage,
  CellPageFilter,
  CellText,
  CellWrite,
  FailureGroup,
  LightCell,
  SaveCellCached,
  SaveCellDone,
  SaveCellFailed,
  StoppedAttempt,
  StoredAttempt,
  StoredCell,
  StoredResponse,
} from './records.js';
import { RunQueries } from './runs.js';
import { hasSchema } from './schema.js';
import { Statements } from './statements.js';
import { SuiteQueries } from './suites.js';

export type { AuxResultQueries } from './aux-results.js';
export type { BatchCell, BatchQueries, BatchRecord, BatchState, NewBatch } from './batches.js';
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
export type * from './records.js';
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
}

/**
 * The SQLite store: suites, runs, responses (the cache), cells and every attempt, plus the aux
 * results. A report is built from it alone. It is the only code that holds the connection or
 * writes SQL: callers ask it named questions. A finished cell is written whole in one transaction
 * (see cell-writes.ts), so a process killed at any point never leaves half a cell.
 */
export class Store {
  readonly path: string;
  /** Opened read-only: every write is refused (a derived value is computed, not kept). */
  readonly readonly: boolean;
  private readonly db: Database.Database;
  private readonly st: Statements;
  private readonly writes: CellWriters;
  /** Suites and their tests, and the models that have cells in them. */
  readonly suites: SuiteQueries;
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
    this.db = this.readonly ? openReader(path) : openWriter(path);
    this.st = new Statements(this.db);
    this.writes = cellWriters(this.st);
    this.suites = new SuiteQueries(this.st);
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

  // Responses and cells

  getResponse(key: string): StoredResponse | undefined {
    return getResponse(this.st, key);
  }

  /** The text of the response stored under `key`. */
  responseText(key: string): string | undefined {
    return responseText(this.st, key);
  }

  /** Whether a response is stored under `key`. */
  hasResponse(key: string): boolean {
    return hasResponse(this.st, key);
  }

  /** The response key of a cell stored done, else undefined (one lookup in the cells' unique index). */
  doneCellKey(suiteHash: string, modelIdentity: string, testId: string, repeat: number): string | undefined {
    return doneCellKey(this.st, suiteHash, modelIdentity, testId, repeat);
  }

  /** Response, cell and attempts of a finished cell, in one transaction. */
  saveCellDone(c: SaveCellDone): void {
    this.writes.done.immediate(c);
  }

  /** A failed cell with its reason and attempts, in one transaction. */
  saveCellFailed(c: SaveCellFailed): void {
    this.writes.failed.immediate(c);
  }

  /**
   * Several finished cells in one transaction (group commit): the engine commits the cells that
   * finished within a few milliseconds together, so a commit's cost is shared while a killed
   * process still loses only cells that were not yet committed — never half a cell.
   */
  saveBatch(writes: readonly CellWrite[]): void {
    if (writes.length > 0) this.writes.batch.immediate(writes);
  }

  /** Done cells whose response is already stored (attempts 0), in one transaction. */
  saveCellsCached(cells: SaveCellCached[]): void {
    if (cells.length > 0) this.writes.cached.immediate(cells);
  }

  /**
   * Cells matching the filter in a stable order: suite, model identity, test position in its
   * suite, repeat. The ids are read first and the rows a page at a time, so the order does not
   * depend on when each cell finished and the caller may write to the store while iterating.
   */
  cells(filter: CellFilter = {}): Generator<StoredCell> {
    return cells(this.st, filter);
  }

  /** Every call made for a cell, oldest first (all runs), tries a stop cut short included. */
  attemptsOf(cellId: number): StoredAttempt[] {
    return attemptsOf(this.st, cellId);
  }

  /** The tries of calls a stop cut short (their cells stayed pending), oldest first; of one run when given. */
  stoppedAttempts(runId?: string): StoppedAttempt[] {
    return stoppedAttempts(this.st, runId);
  }

  /** A suite's cells in the order of `cells()`, without their requests and token log-probs. */
  lightCells(suiteHash: string): LightCell[] {
    return lightCells(this.st, suiteHash);
  }

  /**
   * A suite's cells with their tests, in the order of lightCells, for the given model identities
   * (each in turn), streamed a page of tests at a time: for suites too large to hold. Without
   * their response texts (responseText has them).
   */
  cellsWithTests(
    suiteHash: string,
    identities: readonly string[],
  ): Generator<{ cell: LightCell; test: SuiteTest }> {
    return cellsWithTests(this.st, suiteHash, identities);
  }

  /** A page of a suite's cells, filtered and searched, for the viewer's transcript browser. */
  cellPage(filter: CellPageFilter): CellPage {
    return cellPage(this.st, filter);
  }

  /** A model's cells of repeat 0 in a suite, without their requests and tokens, in no set order. */
  firstRepeatCells(suiteHash: string, modelIdentity: string): CellText[] {
    return repeatCells(this.st, suiteHash, modelIdentity, 0);
  }

  /** A model's cells of one repeat in a suite, as firstRepeatCells gives those of repeat 0. */
  repeatCells(suiteHash: string, modelIdentity: string, repeat: number): CellText[] {
    return repeatCells(this.st, suiteHash, modelIdentity, repeat);
  }

  /** Failed cells grouped by suite, model identity and error kind, in the order they were first stored. */
  failureGroups(): FailureGroup[] {
    return failureGroups(this.st);
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
