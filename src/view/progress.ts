import { existsSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';
import { storedSpecLabel } from '../models/spec.js';
import { openStore, type RunWithCells, type Store, storeFailure } from '../store/store.js';

/**
 * Live progress of a store's latest run, read through a read-only store: the store is
 * in WAL mode, so a reader sees each committed cell while `waver run` keeps writing, and never
 * blocks it. Coverage is counted from the cells of the run's suite and models, whichever run wrote
 * them (a resumed run's earlier cells count as done, as they do in `waver run`'s own coverage),
 * as the store's cell counts hold them: a poll reads a few rows however many cells there are.
 */

export interface ModelProgress {
  label: string;
  total: number;
  done: number;
  failed: number;
  pending: number;
}

export interface RunProgress {
  /**
   * `missing`: no store file yet; `empty`: no run recorded yet; `ok`: a run to show; `unreadable`:
   * the store cannot be read (damaged, not a store), `error` saying why.
   */
  state: 'missing' | 'empty' | 'ok' | 'unreadable';
  /** Why the store cannot be read, one line naming it (`unreadable`). */
  error?: string;
  run?: {
    id: string;
    status: string;
    startedAt: string;
    finishedAt?: string;
    suiteHash?: string;
    suiteName?: string;
  };
  total: number;
  done: number;
  failed: number;
  pending: number;
  /** done / total; undefined when nothing is expected. */
  share?: number;
  /** Cells written by this very run (the rest were stored before). */
  writtenThisRun: number;
  models: ModelProgress[];
}

/**
 * A store opened read-only on demand: the file may appear only once a run starts. A store that
 * cannot be read (damaged: checked page by page as it opens, or met by a page that read it) is
 * remembered as such, and opened again once its file changes (restored from a copy).
 */
export class StoreReader {
  private store: Store | undefined;
  /** Cells a suite expects, by suite and repeats: a suite's tests never change, and counting them reads each. */
  private readonly expected = new Map<string, number>();
  /** Why the store cannot be read, and its files as they were then. */
  private unreadable: { failure: InputError; files: string } | undefined;

  constructor(readonly path: string) {}

  /** The store, opened when the file exists; undefined before. Throws when it cannot be read. */
  private opened(): Store | undefined {
    if (this.store) return this.store;
    if (!existsSync(this.path)) return undefined;
    if (this.unreadable?.files === filesOf(this.path)) throw this.unreadable.failure;
    try {
      this.store = openStore(this.path, { readonly: true });
    } catch (e) {
      throw this.failure(e) ?? e;
    }
    this.unreadable = undefined;
    return this.store;
  }

  close(): void {
    this.store?.close();
    this.store = undefined;
  }

  /**
   * The error as the store's own failure (one line naming the file), when it is one, met here or
   * by anything that read the store: remembered, and the store closed. Undefined for another error.
   */
  failure(e: unknown): InputError | undefined {
    const failure = e instanceof InputError ? e : storeFailure(e, this.path);
    if (failure?.file !== this.path) return undefined;
    this.close();
    this.unreadable = { failure, files: filesOf(this.path) };
    return failure;
  }

  /** Why the store cannot be read; undefined when it can (or does not exist yet). */
  problem(): InputError | undefined {
    try {
      this.opened();
      return undefined;
    } catch (e) {
      const failure = this.failure(e);
      if (failure) return failure;
      throw e;
    }
  }

  /** The store's data version (Store.dataVersion); undefined while there is no store file. */
  version(): number | undefined {
    return this.opened()?.dataVersion();
  }

  /** Runs, newest first, with their suite name and the cells they wrote. */
  runs(): RunWithCells[] {
    const store = this.opened();
    if (!store?.hasSchema()) return [];
    return store.runs.withCells();
  }

  /** Coverage of the latest run that calls models (bookkeeping runs, e.g. a sago manifest, are skipped). */
  progress(): RunProgress {
    try {
      return this.latestRun();
    } catch (e) {
      const failure = this.failure(e);
      if (!failure) throw e;
      return { state: 'unreadable', error: failure.format(), ...noCounts() };
    }
  }

  private latestRun(): RunProgress {
    const empty = noCounts();
    const store = this.opened();
    if (!store) return { state: 'missing', ...empty };
    if (!store.hasSchema()) return { state: 'empty', ...empty };
    const runs = store.runs.latest(20);
    const row = runs.find((r) => modelLabels(r.configJson).length > 0) ?? runs[0];
    if (!row) return { state: 'empty', ...empty };
    const config = parseJson(row.configJson) as { repeats?: unknown };
    const repeats = typeof config.repeats === 'number' ? config.repeats : 1;
    const labels = modelLabels(row.configJson);
    const run = {
      id: row.id,
      status: row.status,
      startedAt: row.startedAt,
      ...(row.finishedAt !== undefined && { finishedAt: row.finishedAt }),
      ...(row.suiteHash !== undefined && { suiteHash: row.suiteHash }),
      ...(row.suiteName !== undefined && { suiteName: row.suiteName }),
    };
    if (row.suiteHash === undefined) return { state: 'ok', run, ...empty };
    const key = `${row.suiteHash}\u0000${repeats}`;
    let expected = this.expected.get(key);
    if (expected === undefined) {
      expected = store.coverage.expected(row.suiteHash, repeats);
      // Kept once the suite is stored whole (a run stores its suite before its first cell).
      if (expected > 0) this.expected.set(key, expected);
    }
    const counts = store.coverage.modelStatusCounts(row.suiteHash, row.id, repeats);
    const names = labels.length > 0 ? labels : [...new Set(counts.map((c) => c.model))];
    const models = names.map((label): ModelProgress => {
      const of = (status: string) => counts.find((c) => c.model === label && c.status === status)?.count ?? 0;
      const done = of('done');
      const failed = of('failed');
      return { label, total: expected, done, failed, pending: Math.max(0, expected - done - failed) };
    });
    const sum = (k: 'total' | 'done' | 'failed' | 'pending') => models.reduce((a, m) => a + m[k], 0);
    const total = sum('total');
    return {
      state: 'ok',
      run,
      total,
      done: sum('done'),
      failed: sum('failed'),
      pending: sum('pending'),
      ...(total > 0 && { share: sum('done') / total }),
      writtenThisRun: counts.filter((c) => names.includes(c.model)).reduce((a, c) => a + c.byRun, 0),
      models,
    };
  }
}

/** The counts of a store with no run to show. */
function noCounts(): Omit<RunProgress, 'state'> {
  return { total: 0, done: 0, failed: 0, pending: 0, writtenThisRun: 0, models: [] };
}

/** The store's file and its -wal as they are now: what a write, or a copy over them, changes. */
function filesOf(path: string): string {
  return [path, `${path}-wal`]
    .map((f) => statSync(f, { throwIfNoEntry: false }))
    .map((st) => (st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-'))
    .join(' ');
}

/** The labels of the models a run's stored config names (the labels cells are stored under). */
export function modelLabels(configJson: string): string[] {
  const models = (parseJson(configJson) as { models?: unknown }).models;
  if (!Array.isArray(models)) return [];
  return models.map(storedSpecLabel);
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
