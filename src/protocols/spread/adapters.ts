import { defineAdapters } from '../adapters.js';
import type { SpreadPlan } from './plan-grid.js';
import type { SpreadOutcome } from './protocol.js';
import type { SpreadResults } from './results.js';

/** Spread's command, report section and check: the CLI's and the shells', never the library's (docs/protocols.md#adapters). */
export default defineAdapters<SpreadPlan, SpreadResults, SpreadOutcome>({
  section: async () => (await import('./report-section.js')).spreadSection,
  check: async () => (await import('./check.js')).spreadCheck,
  commands: { spread: async () => (await import('./command.js')).spreadCommand },
});
