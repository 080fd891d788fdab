import { Command } from 'commander';
import { addExamples, commandFlags } from '../../command-kit/options.js';
import type { ProtocolCommand } from '../adapters.js';
import { executeProtocol, runView } from '../execute.js';
import { ParaphraseConfig } from './config.js';
import type { ParaphraseOutcome } from './protocol.js';
import type { ParaphraseResults } from './results.js';
import type { ParaphraseItems } from './run.js';

/** Every setting of the `paraphrase:` section, and every base flag (`--repeats` is the protocol's own too). */
const PARAPHRASE_FLAGS = commandFlags({ section: { key: 'paraphrase', schema: ParaphraseConfig } });

/**
 * `waver paraphrase`: multiple-choice items x five phrasings x repeats; prints the leaderboard of
 * raw accuracy vs Stability-Adjusted Accuracy with CIs, accuracy per phrasing, run vs prompt
 * instability and the flips (docs/paraphrase.md). With no dataset named, the 32 built-in items.
 */
export const paraphraseCommand: ProtocolCommand<ParaphraseItems, ParaphraseResults, ParaphraseOutcome> = (
  paraphrase,
  ctx,
) => {
  const cmd = new Command('paraphrase').description(
    'ask multiple-choice items in five phrasings x repeats; leaderboard of raw accuracy vs Stability-Adjusted Accuracy (SAA) with CIs, run vs prompt instability, and every flip',
  );
  PARAPHRASE_FLAGS.addTo(cmd);
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
    const config = PARAPHRASE_FLAGS.config(cmd, ctx.config);
    process.exitCode = await executeProtocol(paraphrase, config, {
      build: { onStage: (stage, detail) => process.stderr.write(`paraphrase ${stage}: ${detail}\n`) },
      run: runView({ line: (_stage, detail) => detail }),
    });
  });
  return cmd;
};
