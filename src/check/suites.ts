import { InputError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { CheckedSuite, CheckProtocol } from './types.js';

/**
 * Which suites `waver check` looks at: per protocol the one run most recently (a store may hold
 * several, e.g. an old ladder suite and a rebuilt one), unless `--suite HASH` names one; for
 * coverage, also every plain suite (one of no protocol) with cells.
 */

/** The protocol a suite name belongs to, if any. */
export function protocolOfSuite(
  protocols: readonly CheckProtocol[],
  name: string,
): CheckProtocol | undefined {
  return protocols.find((p) => p.suiteName === name);
}

/** Suites of a protocol that have cells and can be checked, most recently run first. */
export function protocolSuites(store: Store, protocol: CheckProtocol): string[] {
  const hashes = store.suites.withCellsNamed(protocol.suiteName);
  return protocol.usable ? hashes.filter((h) => protocol.usable?.(store, h)) : hashes;
}

/**
 * The suite to check per protocol, by name: `--suite` hashes (each names its protocol by its
 * suite name; a hash prefix of 8+ characters is enough), else the most recent.
 */
export function chooseSuites(
  store: Store,
  protocols: readonly CheckProtocol[],
  requested: readonly string[] = [],
  opts: { latest?: boolean } = {},
): Record<string, CheckedSuite> {
  const out: Record<string, CheckedSuite> = {};
  for (const want of requested) {
    const suite = findSuite(store, want);
    const protocol = protocolOfSuite(protocols, suite.name)?.protocol;
    if (!protocol)
      throw new InputError(
        `suite ${want} is '${suite.name}', not a ${orList(protocols.map((p) => p.protocol))} suite`,
        { field: '--suite' },
      );
    if (out[protocol]) throw new InputError(`two ${protocol} suites given`, { field: '--suite' });
    out[protocol] = { protocol, hash: suite.hash, name: suite.name };
  }
  if (opts.latest === false) return out;
  for (const p of protocols) {
    if (out[p.protocol]) continue;
    const hash = protocolSuites(store, p)[0];
    if (hash) out[p.protocol] = { protocol: p.protocol, hash, name: p.suiteName };
  }
  return out;
}

/**
 * Suites of no protocol with cells (`waver run` on a suite file, the demo), in the order first
 * run. A protocol's suites, its answers' and its judges' alike, are named `<protocol>/<stage>`.
 */
export function plainSuites(store: Store, protocols: readonly CheckProtocol[]): CheckedSuite[] {
  const hashes = new Set(store.runs.list().flatMap((r) => (r.suiteHash === undefined ? [] : [r.suiteHash])));
  const out: CheckedSuite[] = [];
  for (const hash of hashes) {
    const name = store.suites.name(hash); // by name alone: suites.get would read every test
    if (name === undefined || protocols.some((p) => name.startsWith(`${p.protocol}/`))) continue;
    if (store.suites.modelLabels(hash).length > 0) out.push({ protocol: 'plain', hash, name });
  }
  return out;
}

/** The one suite whose hash is `want` or starts with it (8+ hex characters), else an InputError. */
export function findSuite(store: Store, want: string): { hash: string; name: string } {
  if (!/^[0-9a-f]{8,}$/i.test(want))
    throw new InputError(`expected a suite hash (8+ hex characters), got '${want}'`, { field: '--suite' });
  const rows = store.suites.byPrefix(want);
  if (rows.length === 0) throw new InputError(`no suite ${want} in ${store.path}`, { field: '--suite' });
  if (rows.length > 1) throw new InputError(`suite prefix ${want} is ambiguous`, { field: '--suite' });
  return rows[0] as { hash: string; name: string };
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
