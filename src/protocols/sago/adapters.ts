import { defineAdapters } from '../adapters.js';
import type { RunOutcome } from '../types.js';
import type { SagoPromptSets } from './prompt-sets.js';
import type { SagoResults } from './results.js';

/** SAGO's commands, report section, check and judged items: the CLI's and the shells', never the library's (docs/protocols.md#adapters). */
export default defineAdapters<SagoPromptSets, SagoResults, RunOutcome<SagoResults>>({
  section: async () => (await import('./report-section.js')).sagoSection,
  check: async () => (await import('./check.js')).sagoCheck,
  commands: { sago: async () => (await import('./command.js')).sagoCommand },
  judged: async (store) => (await import('./judged.js')).sagoJudged(store),
  imports: { 'sago-runs': async () => (await import('./import/command.js')).sagoRunsImportCommand },
});
