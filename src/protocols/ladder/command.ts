import { Command, Option } from 'commander';
import { addCommonOptions, addExamples, commandConfig } from '../../command-kit/options.js';
import type { ProtocolCommand } from '../define.js';
import { executeProtocol, runView } from '../execute.js';
import type { RunOutcome } from '../types.js';
import { LADDER_FIELDS_HELP, ladderFlags } from './flags.js';
import type { LadderPlan } from './protocol.js';
import type { LadderSectionData } from './report-section.js';
import type { LadderResults } from './results.js';
import { formatLadderReport } from './tables.js';

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
    )
    .option('--seeds <n>', 'use only the first N seeds of the dataset (a quick run)')
    .option('--fields <map>', LADDER_FIELDS_HELP)
    .option('--families <list>', 'families to build, comma-separated (SV,IQ,F,CI,CL,CIS,KB)')
    .option('--levels <list>', 'requested levels to build, comma-separated (1-5)')
    .addOption(
      new Option(
        '--answer-format <format>',
        "the paper's answer format (Appendix A) for non-KB tests",
      ).choices(['json', 'hashes']),
    )
    .addOption(
      new Option(
        '--generate <kind>',
        'how to build the suite (default: model when --generator is given, else rules)',
      ).choices(['rules', 'model']),
    )
    .option('--judge-threshold <score>', 'KB score that counts as recognising the boundary (default 0.75)');
  addCommonOptions(cmd);
  // The ladder's own cap for the systems under test, not params' (see ladderFlags).
  const maxTokens = cmd.options.find((o) => o.long === '--max-tokens');
  if (maxTokens)
    maxTokens.description =
      "output token cap per call (default 768, 900 with --answer-format hashes: the reference runners')";
  addExamples(cmd, [
    ['waver ladder --models gguf:./m.gguf --seeds 3', 'the built-in seeds, a quick run'],
    [
      'waver ladder --dataset gsm-symbolic --models openai:gpt-4o-mini --judge openai:gpt-4o-mini',
      "the paper's 100 seeds, KB judged",
    ],
    [
      'waver ladder --dataset ./problems.csv --fields question=problem,answer=solution --models ...',
      'your own records',
    ],
    [
      'waver ladder --models openai:gpt-4o-mini --dry-run',
      'calls, tokens and cost first (no API key needed)',
    ],
  ]);
  cmd.action(async () => {
    const config = commandConfig(cmd, ctx.config, {
      suite: cmd.opts<{ suite?: string }>().suite,
      ladder: ladderFlags(cmd),
    });
    const line = (_stage: string, detail: string) => `ladder: ${detail}`;
    process.exitCode = await executeProtocol(ladder, config, {
      build: { onStage: (stage, detail) => process.stderr.write(`${line(stage, detail)}\n`) },
      run: runView({ line, label: (stage) => stage, first: ladder.suites?.primary }),
      print: ({ results }, plan) =>
        results &&
        formatLadderReport(
          { results, tests: plan.tests, ...(plan.admission && { admission: plan.admission }) },
          config.format,
        ),
    });
  });
  return cmd;
};
