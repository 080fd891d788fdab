import type { ChunkKey, ChunkLeaseHolder, ClaimOutcome } from './records.js';
import type { Statements } from './statements.js';

/**
 * Cell leases: which worker calls which chunk of a suite's cells (docs/decisions.md#e14-workers-share-a-store-by-leasing-chunks-of-cells).
 * A chunk is leased by one owner until it expires; the owner renews its leases while it runs, and
 * marks them finished once it went through the chunk's cells. A lease expired, or of a process of
 * this host that is gone (`kill -0` fails), is taken over; a finished mark tells the workers that
 * started before it that the chunk is done, and is stale for a worker started after it (which goes
 * through the chunk again: stored cells cost nothing, failed ones are tried again).
 */

/** A lease not renewed for this long is expired: its holder renews it every third of it. */
export const LEASE_TTL_MS = 30_000;

export interface ClaimOptions {
  ttlMs?: number;
  /** Injectable for tests: the clock (epoch ms) and whether a pid on this host lives. */
  now?: () => number;
  isAlive?: (pid: number) => boolean;
}

interface LeaseRow {
  owner: string;
  pid: number;
  host: string;
  expires_ms: number;
  finished_ms: number | null;
}

const READ = `SELECT owner, pid, host, expires_ms, finished_ms FROM cell_leases
              WHERE suite_hash = ? AND model_identity = ? AND chunk = ?`;

/** The chunk leases of workers sharing a store. */
export class LeaseQueries {
  constructor(private readonly st: Statements) {}

  /**
   * The chunk for `holder`, unless another worker holds it (`held`) or finished it since `holder`
   * started (`finished`): a lease expired, or of a process of this host that is gone, is taken
   * over. Read first without a write lock: most refusals need none.
   */
  claim(key: ChunkKey, holder: ChunkLeaseHolder, opts: ClaimOptions = {}): ClaimOutcome {
    const st = this.st;
    const now = (opts.now ?? Date.now)();
    const ttl = opts.ttlMs ?? LEASE_TTL_MS;
    const alive = opts.isAlive ?? pidAlive;
    const refusal = (row: LeaseRow | undefined): ClaimOutcome | undefined => {
      if (!row || row.owner === holder.owner) return undefined;
      if (row.finished_ms !== null) return row.finished_ms >= holder.startedMs ? 'finished' : undefined;
      const gone = row.host === holder.host && !alive(row.pid);
      return !gone && now <= row.expires_ms ? 'held' : undefined;
    };
    const args = [key.suiteHash, key.modelIdentity, key.chunk] as const;
    const seen = refusal(st.prepared(READ).get(...args) as LeaseRow | undefined);
    if (seen) return seen;
    return st.db
      .transaction((): ClaimOutcome => {
        const row = st.prepared(READ).get(...args) as LeaseRow | undefined;
        const held = refusal(row);
        if (held) return held;
        // Taken over from a holder that died or stalled past its lease: its run did not finish.
        if (row && row.owner !== holder.owner && row.finished_ms === null) markStopped(st, row.owner, now);
        st.prepared(
          `INSERT OR REPLACE INTO cell_leases (suite_hash, model_identity, chunk, owner, pid, host, expires_ms, finished_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
        ).run(...args, holder.owner, holder.pid, holder.host, now + ttl);
        return 'claimed';
      })
      .immediate();
  }

  /** Moves the expiry of the owner's unfinished leases on; the chunks it still holds (others took the rest over). */
  renew(owner: string, now: number = Date.now(), ttlMs = LEASE_TTL_MS): ChunkKey[] {
    this.st
      .prepared('UPDATE cell_leases SET expires_ms = ? WHERE owner = ? AND finished_ms IS NULL')
      .run(now + ttlMs, owner);
    return (
      this.st
        .prepared(
          'SELECT suite_hash, model_identity, chunk FROM cell_leases WHERE owner = ? AND finished_ms IS NULL',
        )
        .all(owner) as { suite_hash: string; model_identity: string; chunk: number }[]
    ).map((r) => ({ suiteHash: r.suite_hash, modelIdentity: r.model_identity, chunk: r.chunk }));
  }

  /** The owner went through every cell of its chunks: marked finished for the workers waiting on them. */
  finish(owner: string, now: number = Date.now()): void {
    this.st
      .prepared('UPDATE cell_leases SET finished_ms = ? WHERE owner = ? AND finished_ms IS NULL')
      .run(now, owner);
  }

  /** The owner stopped: its unfinished chunks are free at once. */
  release(owner: string): void {
    this.st.prepared('DELETE FROM cell_leases WHERE owner = ? AND finished_ms IS NULL').run(owner);
  }

  /**
   * The unfinished leases of this host's processes that are gone (killed, crashed): released, and
   * their runs (a run owns its leases) marked stopped, as a stop would have left them; so is a run
   * killed after it finished its chunks and before it ended.
   */
  sweepDeadWorkers(host: string, isAlive = pidAlive, now = Date.now()): void {
    const st = this.st;
    const rows = st
      .prepared(
        `SELECT DISTINCT owner, pid FROM cell_leases WHERE host = ?
         AND (finished_ms IS NULL OR owner IN (SELECT id FROM runs WHERE status = 'running'))`,
      )
      .all(host) as { owner: string; pid: number }[];
    const dead = rows.filter((r) => r.pid !== process.pid && !isAlive(r.pid));
    if (dead.length === 0) return;
    st.db
      .transaction(() => {
        for (const { owner } of dead) {
          markStopped(st, owner, now);
          this.release(owner);
        }
      })
      .immediate();
  }
}

/** A run whose process ended without finishing it: no longer 'running' in the report. */
function markStopped(st: Statements, runId: string, now: number): void {
  st.prepared("UPDATE runs SET status = 'stopped', finished_at = ? WHERE id = ? AND status = 'running'").run(
    new Date(now).toISOString(),
    runId,
  );
}

/** Whether a process of this host lives: signal 0 checks without sending (EPERM: it lives, as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
