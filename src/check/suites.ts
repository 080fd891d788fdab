import { InputError } from '../errors.js';
import { LADDER_TESTS_SUITE } from '../protocols/ladder/run.js';
import { ITEMS_SUITE } from '../protocols/paraphrase/suite.js';
import { latestManifest } from '../protocols/sago/manifest.js';
import { RESPONSES_SUITE } from '../protocols/sago/results.js';
import type { Store } from '../store/store.js';

/**
 * Which suite of each protocol `waver check` looks at: the one run most recently (a store may hold
 * several, e.g. an old ladder suite and a rebuilt one), unless `--suite HASH` names one.
 */

export type Protocol = 'ladder' | 'paraphrase' | 'sago';
export const PROTOCOLS: readonly Protocol[] = ['ladder', 'paraphrase', 'sago'];

const SUITE_NAME: Record<Protocol, string> = {
  ladder: LADDER_TESTS_SUITE,
  paraphrase: ITEMS_SUITE,
  sago: RESPONSES_SUITE,
};

export interface ProtocolSuite {
  protocol: Protocol;
  hash: string;
  name: string;
}

/** The protocol a suite name belongs to, if any. */
export function protocolOfSuite(name: string): Protocol | undefined {
  return PROTOCOLS.find((p) => SUITE_NAME[p] === name);
}

/**
 * Suites of a protocol that have cells, most recently run first. Sago suites count only with a
 * manifest (the results cannot be rebuilt without one).
 */
export function protocolSuites(store: Store, protocol: Protocol): string[] {
  const hashes = store.suitesWithCellsNamed(SUITE_NAME[protocol]);
  return protocol === 'sago' ? hashes.filter((h) => latestManifest(store, h) !== undefined) : hashes;
}

/**
 * The suite to check per protocol: `--suite` hashes (each names its protocol by its suite name; a
 * hash prefix of 8+ characters is enough), else the most recent.
 */
export function chooseSuites(
  store: Store,
  requested: readonly string[] = [],
  opts: { latest?: boolean } = {},
): Partial<Record<Protocol, ProtocolSuite>> {
  const out: Partial<Record<Protocol, ProtocolSuite>> = {};
  for (const want of requested) {
    const suite = findSuite(store, want);
    const protocol = protocolOfSuite(suite.name);
    if (!protocol)
      throw new InputError(`suite ${want} is '${suite.name}', not a ladder, paraphrase or sago suite`, {
        field: '--suite',
      });
    if (out[protocol]) throw new InputError(`two ${protocol} suites given`, { field: '--suite' });
    out[protocol] = { protocol, hash: suite.hash, name: suite.name };
  }
  if (opts.latest === false) return out;
  for (const protocol of PROTOCOLS) {
    if (out[protocol]) continue;
    const hash = protocolSuites(store, protocol)[0];
    if (hash) out[protocol] = { protocol, hash, name: SUITE_NAME[protocol] };
  }
  return out;
}

function findSuite(store: Store, want: string): { hash: string; name: string } {
  if (!/^[0-9a-f]{8,}$/i.test(want))
    throw new InputError(`expected a suite hash (8+ hex characters), got '${want}'`, { field: '--suite' });
  const rows = store.findSuitesByPrefix(want);
  if (rows.length === 0) throw new InputError(`no suite ${want} in ${store.path}`, { field: '--suite' });
  if (rows.length > 1) throw new InputError(`suite prefix ${want} is ambiguous`, { field: '--suite' });
  return rows[0] as { hash: string; name: string };
}
