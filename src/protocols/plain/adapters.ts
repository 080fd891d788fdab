import type { Suite } from '../../run/types.js';
import { defineAdapters } from '../adapters.js';
import type { RunOutcome } from '../types.js';

/** Plain suites' command and report section: the CLI's and the shells', never the library's (docs/protocols.md#adapters). */
export default defineAdapters<Suite, undefined, RunOutcome<undefined>>({
  section: async () => (await import('./report-section.js')).plainSection,
  commands: { run: async () => (await import('./command.js')).runCommand },
});
