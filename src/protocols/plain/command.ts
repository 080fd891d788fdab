import { Command } from 'commander';
import { commandFlags } from '../../command-kit/options.js';
import type { Suite } from '../../run/types.js';
import type { ProtocolCommand } from '../adapters.js';
import { executeProtocol, runView } from '../execute.js';
import type { RunOutcome } from '../types.js';

/** A plain suite has no settings of its own, no roles, no dataset and no random choices. */
const RUN_FLAGS = commandFlags({
  groups: ['models', 'store', 'cache', 'output', 'calls', 'shard', 'dryRun'],
});

/** `waver run`: a suite file against the models, every response stored; the run summary on stdout. */
export const runCommand: ProtocolCommand<Suite, undefined, RunOutcome<undefined>> = (plain, ctx) => {
  const cmd = new Command('run')
    .description('run a suite file (JSONL of {id, prompt, system?}) against models and store every response')
    .option('--suite <file>', 'suite file');
  RUN_FLAGS.addTo(cmd).action(async () => {
    const config = RUN_FLAGS.config(cmd, ctx.config, { suite: cmd.opts<{ suite?: string }>().suite });
    process.exitCode = await executeProtocol(plain, config, {
      run: runView({ line: () => undefined }),
    });
  });
  return cmd;
};
