// Test-only preload (`NODE_OPTIONS=--import <this file>`): adds `waver check` and `waver view` to the
// real CLI (dist/cli/main.js) when src/cli/main.ts does not register them yet, so the end-to-end
// tests drive the real binary with its own error handling and exit codes. Once main.ts registers
// the commands, this file adds nothing.
import { Command } from 'commander';

const { checkCommand } = await import('../../../dist/cli/commands/check.js');
const { viewCommand } = await import('../../../dist/cli/commands/view.js');

const parseAsync = Command.prototype.parseAsync;
Command.prototype.parseAsync = function (...args) {
  if (this.name() === 'waver') {
    if (!this.commands.some((c) => c.name() === 'check')) this.addCommand(checkCommand());
    if (!this.commands.some((c) => c.name() === 'view')) this.addCommand(viewCommand());
  }
  return parseAsync.apply(this, args);
};
