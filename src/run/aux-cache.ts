import type { Store } from '../store/store.js';
import { hashOf } from '../util/hash.js';
import { InFlight } from '../util/in-flight.js';
import { assertNoSecrets } from '../util/secrets.js';

/**
 * Calls that are not chat generations — embeddings, teacher-forced scores — are not cells, so the
 * run engine does not schedule them (`measure` rows hold values derived from them once, such as a
 * BERTScore, so a report need not recompute them). They still go through the store: each result is kept in
 * `aux_results` under hashOf({kind, identity, request}), so a re-run makes no repeated call, a
 * killed run resumes where it stopped, and a report rebuilds every number from the store alone.
 * A score's row is kept by the call path's store cache (`call-path/store-cache.ts`); an embedding's
 * is a protocol's reading of one or more calls (`auxCall`), and a derived value's is `auxPut`'s
 * (docs/decisions.md E45).
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
  const json = store.aux.get(auxKey(kind, identity, request));
  return json === undefined ? undefined : (JSON.parse(json) as T);
}

/** Calls already in flight per store, so two identical concurrent asks make one call. */
const inFlight = new WeakMap<Store, InFlight<unknown>>();

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
    pending = new InFlight();
    inFlight.set(store, pending);
  }
  // A key names one (kind, identity, request), so the answer shared under it is a T.
  return pending.share(key, async () => {
    opts.signal?.throwIfAborted();
    const result = await call();
    // An existing row stays: the first answer is the one kept.
    store.aux.insert({
      key,
      kind,
      identity,
      requestJson: JSON.stringify(request),
      resultJson: JSON.stringify(result),
    });
    return result;
  }) as Promise<T>;
}

/**
 * Writes (or replaces) a result directly: for values computed locally from stored ones, which a
 * later run may extend (see `auxCall` for results of calls). A read-only store keeps none.
 */
export function auxPut(
  store: Store,
  kind: AuxKind,
  identity: string,
  request: unknown,
  result: unknown,
): void {
  assertNoSecrets(request, 'aux request');
  // A derived value is a cache of what the store holds: a reader (`waver report` on a store it
  // may not write) computes it and keeps nothing.
  if (store.readonly) return;
  store.aux.put({
    key: auxKey(kind, identity, request),
    kind,
    identity,
    requestJson: JSON.stringify(request),
    resultJson: JSON.stringify(result),
  });
}

/** How many aux results the store holds (by kind and identity when given). */
export function auxCount(store: Store, filter: { kind?: AuxKind; identity?: string } = {}): number {
  return store.aux.count(filter);
}
