import { Command } from 'commander';
import {
  addCommonOptions,
  addExamples,
  commandConfig,
  fieldMap,
  flagsToConfig,
  positiveInt,
  splitList,
} from '../../command-kit/options.js';
import type { ProtocolCommand } from '../define.js';
import { executeProtocol, runView } from '../execute.js';
import { PHRASINGS, type Phrasing } from './config.js';
import type { ParaphraseOutcome } from './protocol.js';
import type { ParaphraseResults } from './results.js';
import type { ParaphraseItems } from './run.js';
import { formatParaphraseReport } from './tables.js';

/**
 * `waver paraphrase`: multiple-choice items x five phrasings x repeats; prints the leaderboard of
 * raw accuracy vs Stability-Adjusted Accuracy with CIs, accuracy per phrasing, run vs prompt
 * instability and the flips (docs/paraphrase.md). With no dataset named, the 32 built-in items.
 */
export const paraphraseCommand: ProtocolCommand<ParaphraseItems, ParaphraseResults, ParaphraseOutcome> = (
  paraphrase,
  ctx,
) => {
  const cmd = new Command('paraphrase')
    .description(
      'ask multiple-choice items in five phrasings x repeats; leaderboard of raw accuracy vs Stability-Adjusted Accuracy (SAA) with CIs, run vs prompt instability, and every flip',
    )
    .option('--limit <n>', 'use only the first N items of the dataset')
    .option(
      '--phrasings <list>',
      `phrasings to ask, comma-separated (default all: ${PHRASINGS.join(',')}; without a generator, reworded is left out for items with no alternate wording)`,
    )
    .option(
      '--fields <map>',
      'which record fields hold an item, e.g. stem=question,options=choices,key=answer (names: id, stem, options, key, category)',
    );
  addCommonOptions(cmd);
  // The common --repeats has no default of its own; this protocol's is 2 (see docs/paraphrase.md#repeats).
  const repeatsOption = cmd.options.find((o) => o.long === '--repeats');
  if (repeatsOption)
    repeatsOption.description = 'calls per (item, phrasing, model) (default 2 for paraphrase)';
  addExamples(cmd, [
    ['waver paraphrase --models gguf:./m.gguf --limit 8', 'the built-in items, a quick run'],
    [
      'waver paraphrase --dataset arc-challenge --models openai:gpt-4o-mini',
      'a named dataset (without --generator, reworded is left out)',
    ],
    [
      'waver paraphrase --dataset ./mc.csv --fields stem=q,key=gold --models ...',
      'your own items, options in columns A, B, ...',
    ],
    ['waver paraphrase --models openai:gpt-4o-mini --dry-run', 'calls, tokens and cost first'],
  ]);
  cmd.action(async () => {
    const { limit, fields, phrasings } = cmd.opts<{ limit?: string; fields?: string; phrasings?: string }>();
    const config = commandConfig(cmd, ctx.config, {
      paraphrase: {
        ...(limit !== undefined && { limit: positiveInt(limit, '--limit') }),
        ...(fields !== undefined && { fields: fieldMap(fields, '--fields') }),
        ...(phrasings !== undefined && { phrasings: splitList(phrasings) as Phrasing[] }),
        repeats: flagsToConfig(cmd).flags.repeats,
      },
    });
    process.exitCode = await executeProtocol(paraphrase, config, {
      build: { onStage: (stage, detail) => process.stderr.write(`paraphrase ${stage}: ${detail}\n`) },
      run: runView({ line: (_stage, detail) => detail }),
      print: ({ results, rewords, runs: [items] }) =>
        results &&
        formatParaphraseReport(results, config.format, {
          dropped: rewords.dropped,
          ...(items && {
            run: {
              runId: items.runId,
              calls: items.summary.calls,
              retries: items.summary.retries,
              elapsedMs: items.summary.elapsedMs,
              tokensIn: items.summary.tokensIn,
              tokensOut: items.summary.tokensOut,
              aborted: items.summary.aborted,
            },
          }),
        }),
    });
  });
  return cmd;
};
