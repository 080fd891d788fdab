import { assertNoSecrets, type Store } from '../store/store.js';
import { hashOf } from '../util/hash.js';

/**
 * Calls that are not chat generations — embeddings, teacher-forced scores — are not cells, so the
 * run engine does not schedule them (`measure` rows hold values derived from them once, such as a
 * BERTScore, so a report need not recompute them). They still go through the store: each result is kept in
 * `aux_results` under hashOf({kind, identity, request}), so a re-run makes no repeated call, a
 * killed run resumes where it stopped, and a report rebuilds every number from the store alone.
 */
export type AuxKind = 'embed' | 'score' | 'measure';

export interface AuxCallOptions {
  signal?: AbortSignal;
}

/** The row key of an aux result: the same (kind, identity, request) always maps to the same row. */
export function auxKey(kind: AuxKind, identity: string, request: unknown): string {
  return hashOf({ kind, identity, request });
}

/** The stored result of an aux call, or undefined when it was never made (read-only: never calls). */
export function auxGet<T>(store: Store, kind: AuxKind, identity: string, request: unknown): T | undefined {
  const json = statements(store).get.get(auxKey(kind, identity, request)) as string | undefined;
  return json === undefined ? undefined : (JSON.parse(json) as T);
}

/** Prepared statements per store (preparing costs more than a lookup). */
const prepared = new WeakMap<Store, ReturnType<typeof prepare>>();

function statements(store: Store): ReturnType<typeof prepare> {
  let s = prepared.get(store);
  if (!s) {
    s = prepare(store);
    prepared.set(store, s);
  }
  return s;
}

function prepare(store: Store) {
  return {
    get: store.db.prepare('SELECT result_json FROM aux_results WHERE key = ?').pluck(),
    insert: store.db.prepare(
      `INSERT INTO aux_results (key, kind, identity, request_json, result_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
    ),
    put: store.db.prepare(
      `INSERT INTO aux_results (key, kind, identity, request_json, result_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET result_json = excluded.result_json, created_at = excluded.created_at`,
    ),
  };
}

/** Calls already in flight per store, so two identical concurrent asks make one call. */
const inFlight = new WeakMap<Store, Map<string, Promise<unknown>>>();

/**
 * The stored result for (kind, identity, request), or the result of `call()`, then stored, when
 * there is none. `call` makes its calls through a provider's call path (`call-path/`, as every
 * provider from a ProviderPool is wrapped): they time out, are retried on transient errors and
 * wait for the model's rate limits and slots exactly as cells do. An error that outlasts the
 * retries is thrown and nothing is stored, so the next run tries again.
 */
export async function auxCall<T>(
  store: Store,
  kind: AuxKind,
  identity: string,
  request: unknown,
  call: () => Promise<T>,
  opts: AuxCallOptions = {},
): Promise<T> {
  assertNoSecrets(request, 'aux request');
  const key = auxKey(kind, identity, request);
  const stored = auxGet<T>(store, kind, identity, request);
  if (stored !== undefined) return stored;
  let pending = inFlight.get(store);
  if (!pending) {
    pending = new Map();
    inFlight.set(store, pending);
  }
  const running = pending.get(key);
  if (running) return running as Promise<T>;
  const work = (async () => {
    opts.signal?.throwIfAborted();
    const result = await call();
    insertAux(store, key, kind, identity, request, result);
    return result;
  })();
  pending.set(key, work);
  try {
    return await work;
  } finally {
    pending.delete(key);
  }
}

/** Stores the result of a call (an existing row stays: the first answer is the one kept). */
function insertAux(
  store: Store,
  key: string,
  kind: AuxKind,
  identity: string,
  request: unknown,
  result: unknown,
): void {
  statements(store).insert.run(
    key,
    kind,
    identity,
    JSON.stringify(request),
    JSON.stringify(result),
    new Date().toISOString(),
  );
}

/**
 * Writes (or replaces) a result directly: for values computed locally from stored ones, which a
 * later run may extend (see `auxCall` for results of calls).
 */
export function auxPut(
  store: Store,
  kind: AuxKind,
  identity: string,
  request: unknown,
  result: unknown,
): void {
  assertNoSecrets(request, 'aux request');
  statements(store).put.run(
    auxKey(kind, identity, request),
    kind,
    identity,
    JSON.stringify(request),
    JSON.stringify(result),
    new Date().toISOString(),
  );
}

/** How many aux results the store holds (by kind and identity when given). */
export function auxCount(store: Store, filter: { kind?: AuxKind; identity?: string } = {}): number {
  return store.db
    .prepare(
      'SELECT count(*) FROM aux_results WHERE (@kind IS NULL OR kind = @kind) AND (@identity IS NULL OR identity = @identity)',
    )
    .pluck()
    .get({ kind: filter.kind ?? null, identity: filter.identity ?? null }) as number;
}
