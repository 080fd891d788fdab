import { checkConfigSchema } from '../check/config.js';
import { type ConfigContext, configContext } from '../config/load.js';
import { InputError } from '../errors.js';
import { ladderProtocol } from './ladder/index.js';
import { paraphraseProtocol } from './paraphrase/index.js';
import { plainProtocol } from './plain/index.js';
import { sagoProtocol } from './sago/index.js';
import { spreadProtocol } from './spread/index.js';
import type { Protocol } from './types.js';

/**
 * The protocols waver knows, in report order: the one list of them (docs/protocols.md). The CLI
 * and the library hand them, or what is made from them, to the config, the report, the viewer and
 * the check; a new protocol is one line here, or `registerProtocol` from outside waver.
 */
const registered: Protocol[] = [
  ladderProtocol,
  sagoProtocol,
  paraphraseProtocol,
  spreadProtocol,
  plainProtocol,
];

/** Every protocol: waver's own, then those registered, in that order. The array grows with `registerProtocol`. */
export const PROTOCOLS: readonly Protocol[] = registered;

/** The protocol of that name, or undefined. */
export function protocolNamed(name: string): Protocol | undefined {
  return PROTOCOLS.find((p) => p.name === name);
}

/**
 * waver.yaml as these protocols make it: the base fields, each protocol's section, and `check:`
 * last, with a key per threshold the protocols offer.
 */
function configOf(protocols: readonly Protocol[]): ConfigContext {
  return configContext([
    ...protocols.flatMap((p) => (p.config ? [p.config] : [])),
    { key: 'check', schema: checkConfigSchema(protocols.map((p) => ({ thresholds: p.thresholds ?? [] }))) },
  ]);
}

/** waver.yaml as the registered protocols make it; made again when one is registered. */
export let CONFIG: ConfigContext = configOf(registered);

/**
 * Adds a protocol defined outside waver (`defineProtocol`, docs/protocols.md#adding-a-protocol):
 * its section joins waver.yaml's schema and, where it names adapters, the CLI's entry points load
 * its commands and report section like waver's own. A name or config key already taken is refused.
 * Gives its removal, as `registerDataset` and `registerProvider` do.
 */
export function registerProtocol(protocol: Protocol): () => void {
  if (protocolNamed(protocol.name))
    throw new InputError(`a protocol named '${protocol.name}' is registered already`, { field: 'name' });
  const key = protocol.config?.key;
  if (key !== undefined && registered.some((p) => p.config?.key === key))
    throw new InputError(`the config section '${key}' belongs to another protocol`, { field: 'config.key' });
  registered.push(protocol);
  CONFIG = configOf(registered);
  return () => {
    const at = registered.indexOf(protocol);
    if (at >= 0) registered.splice(at, 1);
    CONFIG = configOf(registered);
  };
}

export { ladderProtocol, paraphraseProtocol, plainProtocol, sagoProtocol, spreadProtocol };
