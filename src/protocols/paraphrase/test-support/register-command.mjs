// Test-only preload (`NODE_OPTIONS=--import <this file>`): adds `waver paraphrase` to the real CLI
// (dist/cli/main.js) when src/cli/main.ts does not register it yet, so the end-to-end tests drive the
// real binary with its own error handling and exit codes. Once main.ts registers the command, the
// tests stop using this file.
import { Command } from 'commander';
import { paraphraseCommand } from '../../../../dist/cli/commands/paraphrase.js';

const parseAsync = Command.prototype.parseAsync;
Command.prototype.parseAsync = function (...args) {
  if (this.name() === 'waver' && !this.commands.some((c) => c.name() === 'paraphrase'))
    this.addCommand(paraphraseCommand());
  return parseAsync.apply(this, args);
};
