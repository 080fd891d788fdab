import { randomUUID } from 'node:crypto';
import type { Lease, LeaseHolder, LeaseOutcome } from './records.js';
import type { Statements } from './statements.js';

/**
 * Leases: which process runs a suite on this store (docs/decisions.md#e14-one-run-per-suite-and-store).
 * A holder renews its heartbeat while it runs and releases the lease at the end; a lease whose
 * heartbeat is older than the time to live, or whose process is gone (same host, `kill -0`
 * fails), is stale and taken over. The key is a string so sharded workers may later lease a
 * part of a suite.
 */

/** A lease not renewed for this long is stale: its holder renews it every third of it. */
export const LEASE_TTL_MS = 30_000;

export interface AcquireOptions {
  ttlMs?: number;
  /** Injectable for tests: the clock (epoch ms) and whether a pid on this host lives. */
  now?: () => number;
  isAlive?: (pid: number) => boolean;
}

interface LeaseRow {
  key: string;
  token: string;
  pid: number;
  host: string;
  command: string | null;
  started_at: string;
  heartbeat_ms: number;
}

export function acquireLease(
  st: Statements,
  key: string,
  holder: LeaseHolder,
  opts: AcquireOptions = {},
): LeaseOutcome {
  const now = (opts.now ?? Date.now)();
  const ttl = opts.ttlMs ?? LEASE_TTL_MS;
  const alive = opts.isAlive ?? pidAlive;
  return st.db
    .transaction((): LeaseOutcome => {
      const row = st.prepared('SELECT * FROM leases WHERE key = ?').get(key) as LeaseRow | undefined;
      if (row) {
        const held = toLease(row);
        const dead = row.host === holder.host && !alive(row.pid);
        if (!dead && now - row.heartbeat_ms <= ttl) return { acquired: false, holder: held };
      }
      const lease: Lease = {
        key,
        token: randomUUID(),
        ...holder,
        startedAt: new Date(now).toISOString(),
        heartbeatMs: now,
      };
      st.prepared(
        `INSERT OR REPLACE INTO leases (key, token, pid, host, command, started_at, heartbeat_ms)
         VALUES (@key, @token, @pid, @host, @command, @started_at, @heartbeat_ms)`,
      ).run({
        key,
        token: lease.token,
        pid: holder.pid,
        host: holder.host,
        command: holder.command ?? null,
        started_at: lease.startedAt,
        heartbeat_ms: now,
      });
      return { acquired: true, lease, ...(row ? { tookOver: toLease(row) } : {}) };
    })
    .immediate();
}

/** Moves the heartbeat on; false when the lease is no longer this holder's (it was taken over). */
export function renewLease(st: Statements, lease: Lease, now: number = Date.now()): boolean {
  const r = st
    .prepared('UPDATE leases SET heartbeat_ms = ? WHERE key = ? AND token = ?')
    .run(now, lease.key, lease.token);
  return r.changes === 1;
}

/** Gives the lease up, if it is still this holder's. */
export function releaseLease(st: Statements, lease: Lease): void {
  st.prepared('DELETE FROM leases WHERE key = ? AND token = ?').run(lease.key, lease.token);
}

function toLease(row: LeaseRow): Lease {
  return {
    key: row.key,
    token: row.token,
    pid: row.pid,
    host: row.host,
    ...(row.command !== null && { command: row.command }),
    startedAt: row.started_at,
    heartbeatMs: row.heartbeat_ms,
  };
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
