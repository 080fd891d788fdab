import { defineAdapters } from '../adapters.js';
import type { ParaphraseOutcome } from './protocol.js';
import type { ParaphraseResults } from './results.js';
import type { ParaphraseItems } from './run.js';

/** Paraphrase's commands, report section, check: the CLI's and the shells', never the library's (docs/protocols.md#adapters). */
export default defineAdapters<ParaphraseItems, ParaphraseResults, ParaphraseOutcome>({
  section: async () => (await import('./report-section.js')).paraphraseSection,
  check: async () => (await import('./check.js')).paraphraseCheck,
  commands: { paraphrase: async () => (await import('./command.js')).paraphraseCommand },
  imports: {
    'lm-eval': async () => (await import('./import/command.js')).lmEvalImportCommand,
    promptfoo: async () => (await import('./import/command.js')).promptfooImportCommand,
  },
});
