import type { Suite } from '../../run/types.js';
import { defineProtocol } from '../define.js';
import type { RunOutcome } from '../types.js';

/**
 * Plain suites (`waver run`): a JSONL file of prompts, run as it is against the models. Named for
 * its command, as the report labels its cells; its suites are named by their file.
 */
export const plainProtocol = defineProtocol<Suite, undefined, RunOutcome<undefined>>({
  name: 'run',
  title: 'Plain suites',
  code: () => import('./protocol.js'),
  adapters: async () => (await import('./adapters.js')).default,
});
