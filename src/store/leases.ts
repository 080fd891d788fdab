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

/**
 * The chunk for `holder`, unless another worker holds it (`held`) or finished it since `holder`
 * started (`finished`). Read first without a write lock: most refusals need none.
 */
export function claimChunk(
  st: Statements,
  key: ChunkKey,
  holder: ChunkLeaseHolder,
  opts: ClaimOptions = {},
): ClaimOutcome {
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
      const held = refusal(st.prepared(READ).get(...args) as LeaseRow | undefined);
      if (held) return held;
      st.prepared(
        `INSERT OR REPLACE INTO cell_leases (suite_hash, model_identity, chunk, owner, pid, host, expires_ms, finished_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
      ).run(...args, holder.owner, holder.pid, holder.host, now + ttl);
      return 'claimed';
    })
    .immediate();
}

/** Moves the expiry of the owner's unfinished leases on; the chunks it still holds (others took the rest over). */
export function renewChunks(st: Statements, owner: string, now: number, ttlMs = LEASE_TTL_MS): ChunkKey[] {
  st.prepared('UPDATE cell_leases SET expires_ms = ? WHERE owner = ? AND finished_ms IS NULL').run(
    now + ttlMs,
    owner,
  );
  return heldChunks(st, owner);
}

function heldChunks(st: Statements, owner: string): ChunkKey[] {
  return (
    st
      .prepared(
        'SELECT suite_hash, model_identity, chunk FROM cell_leases WHERE owner = ? AND finished_ms IS NULL',
      )
      .raw()
      .all(owner) as [string, string, number][]
  ).map(([suiteHash, modelIdentity, chunk]) => ({ suiteHash, modelIdentity, chunk }));
}

/** The owner went through every cell of its chunks: marked finished for the workers waiting on them. */
export function finishChunks(st: Statements, owner: string, now: number): void {
  st.prepared('UPDATE cell_leases SET finished_ms = ? WHERE owner = ? AND finished_ms IS NULL').run(
    now,
    owner,
  );
}

/** The owner stopped: its unfinished chunks are free at once. */
export function releaseChunks(st: Statements, owner: string): void {
  st.prepared('DELETE FROM cell_leases WHERE owner = ? AND finished_ms IS NULL').run(owner);
}

/** Whether a process of this host lives: signal 0 checks without sending (EPERM: it lives, as another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
