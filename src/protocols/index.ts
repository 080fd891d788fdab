import { checkConfigSchema } from '../check/config.js';
import { type ConfigContext, configContext } from '../config/load.js';
import { ladderProtocol } from './ladder/index.js';
import { paraphraseProtocol } from './paraphrase/index.js';
import { plainProtocol } from './plain/index.js';
import { sagoProtocol } from './sago/index.js';
import type { ProtocolModule } from './types.js';

/**
 * The protocols waver knows, in report order: the one list of them (docs/protocols.md). The CLI
 * and the library hand them, or what is made from them, to the config, the report, the viewer and
 * the check; a new protocol is added here.
 */
export const PROTOCOLS: readonly ProtocolModule[] = [
  ladderProtocol,
  sagoProtocol,
  paraphraseProtocol,
  plainProtocol,
];

/** The protocol of that name, or undefined. */
export function protocolNamed(name: string): ProtocolModule | undefined {
  return PROTOCOLS.find((p) => p.name === name);
}

/**
 * waver.yaml as these protocols make it: the base fields, each protocol's section, and `check:`
 * last, with a key per threshold the protocols offer.
 */
export const CONFIG: ConfigContext = configContext([
  ...PROTOCOLS.flatMap((p) => (p.config ? [p.config] : [])),
  { key: 'check', schema: checkConfigSchema(PROTOCOLS.map((p) => ({ thresholds: p.thresholds ?? [] }))) },
]);

export { ladderProtocol, paraphraseProtocol, plainProtocol, sagoProtocol };
