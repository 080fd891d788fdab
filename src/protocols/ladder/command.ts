import { Command } from 'commander';
import { addExamples, commandFlags } from '../../command-kit/options.js';
import type { WaverConfig } from '../../config/schema.js';
import type { CommandContext, ProtocolCommand } from '../adapters.js';
import { executeProtocol, runView } from '../execute.js';
import type { RunOutcome } from '../types.js';
import { LadderConfigSchema } from './config.js';
import { impliedGenerator } from './flags.js';
import type { LadderPlan } from './protocol.js';
import type { LadderSectionData } from './report-section.js';
import type { LadderResults } from './results.js';

/** The `ladder:` settings `waver ladder` offers as flags, and every base flag (`--max-tokens` is the ladder's own cap too). */
const LADDER_FLAGS = commandFlags({
  section: {
    key: 'ladder',
    schema: LadderConfigSchema,
    only: [
      'seeds',
      'fields',
      'answerType',
      'families',
      'levels',
      'answerFormat',
      'generator',
      'kbRecognizeThreshold',
      'maxTokens',
    ],
  },
});

/**
 * `waver ladder`: the ladder protocol end to end. With `--suite FILE` it runs that suite; without,
 * it builds one in memory from `--dataset` (default: the built-in seeds) with the rules generators
 * (or the generator model), runs it, judges the KB responses when a judge is given, and prints the
 * paper's Tables 3, 4 and 5 for each model, rebuilt from the store.
 */
export const ladderCommand: ProtocolCommand<LadderPlan, LadderSectionData, RunOutcome<LadderResults>> = (
  ladder,
  ctx,
) => {
  const cmd = new Command('ladder')
    .description(
      'the ladder protocol: seven perturbation families x five measured severity levels; Accuracy, Stability and Collapse Point per model',
    )
    .option(
      '--suite <file>',
      'a ladder suite file (waver suite build --protocol ladder); default: build one from --dataset',
    );
  LADDER_FLAGS.addTo(cmd);
  addExamples(cmd, [
    ['waver ladder --models gguf:./m.gguf --limit 3', 'the built-in seeds, a quick run'],
    [
      'waver ladder --dataset gsm-symbolic --models $M --judge $M',
      "the paper's 100 seeds, KB judged (M=openai:gpt-4o-mini, say)",
    ],
    ['waver ladder --dataset ./problems.csv --fields question=problem --models ...', 'your own records'],
    [
      'waver ladder --models openai:gpt-4o-mini --dry-run',
      'calls, tokens and cost first (no API key needed)',
    ],
  ]);
  cmd.action(async () => {
    const config = ladderConfig(cmd, ctx);
    const line = (_stage: string, detail: string) => `ladder: ${detail}`;
    process.exitCode = await executeProtocol(ladder, config, {
      build: { onStage: (stage, detail) => process.stderr.write(`${line(stage, detail)}\n`) },
      run: runView({ line, label: (stage) => stage, first: ladder.suites?.primary }),
    });
  });
  return cmd;
};

/** The typed config of `waver ladder`: its flags, and `--suite`. */
export function ladderConfig(cmd: Command, ctx: CommandContext): WaverConfig {
  return LADDER_FLAGS.config(cmd, ctx.config, {
    suite: cmd.opts<{ suite?: string }>().suite,
    ladder: { generator: impliedGenerator(cmd) },
  });
}
