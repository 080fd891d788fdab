import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { InputError } from '../errors.js';
import {
  type ChunkKey,
  type ClaimOptions,
  LEASE_TTL_MS,
  type LeaseFence,
  type Store,
} from '../store/store.js';
import type { CellLeases } from './engine.js';
import type { Cell, Suite } from './types.js';

/**
 * One run's share of a suite on a store that other workers may run too
 * (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells): a cell is called only
 * once its chunk (CHUNK_TESTS tests of one model, every repeat) is leased to this run; chunks that
 * other workers hold are deferred, and waited for once this run's own are through.
 */

/** Tests per chunk: a lease costs one write, so a chunk is many cells; small enough to split a suite's tail. */
export const CHUNK_TESTS = 32;

export interface WorkerLeaseOptions extends Pick<ClaimOptions, 'ttlMs' | 'isAlive'> {
  /** Who holds the leases: the run's id, so a run found dead is marked stopped (default a new id). */
  owner?: string;
  /** Injectable for tests: the clock (epoch ms). */
  now?: () => number;
}

export class WorkerLeases implements CellLeases {
  readonly owner: string;
  private readonly holder;
  private readonly positions: Map<string, number>;
  /** By chunk key: whether this run holds the chunk (false: deferred, another worker's). */
  private readonly decided = new Map<string, boolean>();
  private readonly deferred = new Map<string, ChunkKey>();
  /** Chunks this run holds and has not finished: those it renews. */
  private readonly active = new Set<string>();
  private readonly beat: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly ttlMs: number;
  /** When this run last renewed its leases (or started): past half the time to live, `holds` renews first. */
  private renewedAt: number;

  constructor(
    private readonly store: Store,
    private readonly suite: Suite,
    private readonly opts: WorkerLeaseOptions = {},
  ) {
    this.owner = opts.owner ?? randomUUID();
    this.now = opts.now ?? Date.now;
    this.holder = { owner: this.owner, pid: process.pid, host: hostname(), startedMs: this.now() };
    this.positions = new Map(suite.tests.map((t, i) => [t.id, i]));
    const ttl = opts.ttlMs ?? LEASE_TTL_MS;
    this.ttlMs = ttl;
    this.renewedAt = this.now();
    this.beat = setInterval(() => this.renew(), ttl / 3);
    this.beat.unref();
  }

  /** Whether this run may call the cell (its chunk is leased to it now, or already was). */
  claim = (cell: Cell, modelIdentity: string): boolean => {
    const key: ChunkKey = { suiteHash: this.suite.hash, modelIdentity, chunk: this.chunkOf(cell.testId) };
    const id = idOf(key);
    const known = this.decided.get(id);
    if (known !== undefined) return known;
    const outcome = this.store.leases.claim(key, this.holder, this.claimOptions());
    const mine = outcome === 'claimed';
    this.decided.set(id, mine);
    if (mine) this.active.add(id);
    if (outcome === 'held') this.deferred.set(id, key);
    return mine;
  };

  /**
   * Whether the cell's chunk is still this run's, asked just before its call: a run that stalled
   * (SIGSTOP, a suspended laptop) past the time to live renews first, and a chunk another worker
   * took over meanwhile is left to it (docs/decisions.md#e24-a-write-is-fenced-by-its-lease).
   */
  holds = (cell: Cell, modelIdentity: string): boolean => {
    if (this.now() - this.renewedAt > this.ttlMs / 2) this.renew();
    const key: ChunkKey = { suiteHash: this.suite.hash, modelIdentity, chunk: this.chunkOf(cell.testId) };
    return this.decided.get(idOf(key)) === true;
  };

  /** The lease a cell's write is fenced by: the store refuses it once the chunk is another's. */
  fence = (cell: Cell): LeaseFence => ({ owner: this.owner, chunk: this.chunkOf(cell.testId) });

  /** A test's chunk: its position in the whole suite (not a shard's), CHUNK_TESTS to a chunk. */
  private chunkOf(testId: string): number {
    return Math.floor((this.positions.get(testId) ?? 0) / CHUNK_TESTS);
  }

  /** Whether chunks other workers held are still to be waited for. */
  get waiting(): boolean {
    return this.deferred.size > 0;
  }

  /**
   * The deferred chunks that are this run's now (their holder stopped, crashed or let them
   * expire); those finished meanwhile are forgotten, and those still held stay deferred.
   */
  takeOver(): ChunkKey[] {
    const taken: ChunkKey[] = [];
    for (const [id, key] of this.deferred) {
      const outcome = this.store.leases.claim(key, this.holder, this.claimOptions());
      if (outcome === 'held') continue;
      this.deferred.delete(id);
      if (outcome === 'claimed') {
        this.decided.set(id, true);
        this.active.add(id);
        taken.push(key);
      }
    }
    return taken;
  }

  /** `part` (the suite, or the shard of it this run runs) with only its tests in `chunks` of one model. */
  testsIn(part: Suite, chunks: readonly ChunkKey[], modelIdentity: string): Suite {
    const wanted = new Set(chunks.filter((c) => c.modelIdentity === modelIdentity).map((c) => c.chunk));
    return { ...part, tests: part.tests.filter((t) => wanted.has(this.chunkOf(t.id))) };
  }

  /** This run went through its chunks' cells: the workers waiting on them go on. */
  finish(): void {
    this.store.leases.finish(this.owner, this.now());
    this.active.clear();
  }

  /** Stops renewing; a run that stopped early frees its unfinished chunks for the others at once. */
  close(stopped: boolean): void {
    clearInterval(this.beat);
    if (stopped) this.store.leases.release(this.owner);
  }

  /**
   * Renews this run's leases. A chunk taken over meanwhile (this run stalled past the time to live)
   * is left to its new holder: the cells of it not read yet are deferred.
   */
  private renew(): void {
    try {
      const at = this.now();
      const held = new Set(this.store.leases.renew(this.owner, at, this.opts.ttlMs).map(idOf));
      this.renewedAt = at;
      for (const id of this.active)
        if (!held.has(id)) {
          this.active.delete(id);
          this.decided.set(id, false);
          this.deferred.set(id, keyOf(id));
        }
    } catch {
      // A store busy past its timeout: the next beat tries again, well within the time to live.
    }
  }

  private claimOptions(): ClaimOptions {
    return {
      now: this.now,
      ...(this.opts.ttlMs && { ttlMs: this.opts.ttlMs }),
      ...(this.opts.isAlive && { isAlive: this.opts.isAlive }),
    };
  }
}

function idOf(k: ChunkKey): string {
  return `${k.suiteHash}\u0000${k.modelIdentity}\u0000${k.chunk}`;
}

function keyOf(id: string): ChunkKey {
  const [suiteHash, modelIdentity, chunk] = id.split('\u0000') as [string, string, string];
  return { suiteHash, modelIdentity, chunk: Number(chunk) };
}

/**
 * The leases' time to live: LEASE_TTL_MS, or WAVER_LEASE_TTL_MS (ms) for a store whose workers
 * should take a stalled one's chunks over sooner (docs/scaling.md).
 */
export function leaseOptions(env: NodeJS.ProcessEnv): WorkerLeaseOptions {
  const raw = env.WAVER_LEASE_TTL_MS;
  if (raw === undefined || raw === '') return {};
  const ttlMs = Number(raw);
  if (!Number.isInteger(ttlMs) || ttlMs < 100 || ttlMs > 2 ** 31 - 1)
    throw new InputError(`must be a whole number of milliseconds from 100 to ${2 ** 31 - 1}, got "${raw}"`, {
      field: 'WAVER_LEASE_TTL_MS',
    });
  return { ttlMs };
}
