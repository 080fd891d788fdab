import { defineAdapters } from '../adapters.js';
import type { RunOutcome } from '../types.js';
import type { LadderPlan } from './protocol.js';
import type { LadderSectionData } from './report-section.js';
import type { LadderResults } from './results.js';

/** The ladder's commands, report section, check and judged items: the CLI's and the shells', never the library's (docs/protocols.md#adapters). */
export default defineAdapters<LadderPlan, LadderSectionData, RunOutcome<LadderResults>>({
  section: async () => (await import('./report-section.js')).ladderSection,
  check: async () => (await import('./check.js')).ladderCheck,
  commands: {
    ladder: async () => (await import('./command.js')).ladderCommand,
    suite: async () => (await import('./suite-command.js')).suiteCommand,
  },
  judged: async (store) => (await import('./judged.js')).ladderJudged(store),
  imports: { 'ladder-runs': async () => (await import('./import/command.js')).ladderRunsImportCommand },
});
