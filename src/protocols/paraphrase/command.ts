import { Command } from 'commander';
import { addCommonOptions, flagsToConfig } from '../../cli/options.js';
import { EXIT, emit, withAbort } from '../../cli/output.js';
import { createProgress } from '../../cli/progress.js';
import { resolveConfig } from '../../config/load.js';
import { InputError } from '../../errors.js';
import { formatEstimate } from '../../report/run-summary.js';
import { paraphraseSettings } from './config.js';
import { estimateParaphrase, runParaphrase } from './run.js';
import { formatParaphraseReport } from './tables.js';

/**
 * `waver paraphrase`: multiple-choice items x five phrasings x repeats; prints the leaderboard of
 * raw accuracy vs Stability-Adjusted Accuracy with CIs, accuracy per phrasing, run vs prompt
 * instability and the flips (docs/paraphrase.md). With no dataset named, the 32 built-in items.
 */
export function paraphraseCommand(): Command {
  const cmd = new Command('paraphrase')
    .description(
      'ask multiple-choice items in five phrasings x repeats; leaderboard of raw accuracy vs Stability-Adjusted Accuracy (SAA) with CIs, run vs prompt instability, and every flip',
    )
    .option('--limit <n>', 'use only the first N items of the dataset');
  addCommonOptions(cmd);
  // The common --repeats has no default of its own; this protocol's is 2 (see docs/paraphrase.md#repeats).
  const repeatsOption = cmd.options.find((o) => o.long === '--repeats');
  if (repeatsOption)
    repeatsOption.description = 'calls per (item, phrasing, model) (default 2 for paraphrase)';
  cmd.action(async () => {
    const { file, flags } = flagsToConfig(cmd);
    const limitFlag = cmd.opts<{ limit?: string }>().limit;
    const limit = limitFlag === undefined ? undefined : positiveInt(limitFlag, '--limit');
    const config = resolveConfig({ file, flags });
    const settings = paraphraseSettings(config.paraphrase, { repeats: flags.repeats, limit });
    if (config.dryRun) {
      const { estimates } = await estimateParaphrase(config, settings);
      emit(formatEstimate(estimates, config.format), config.out);
      process.exitCode = EXIT.ok;
      return;
    }
    const progress = createProgress(process.stderr);
    let last: Parameters<typeof progress.update>[0] | undefined;
    const outcome = await withAbort((signal) =>
      runParaphrase(config, settings, {
        signal,
        onRewordStart: (n) => process.stderr.write(`rewording ${n} item(s) with the generator\n`),
        onProgress: (p) => {
          last = p;
          progress.update(p);
        },
      }),
    );
    if (last) progress.finish(last);
    const s = outcome.run.summary;
    emit(
      formatParaphraseReport(outcome.results, config.format, {
        dropped: outcome.rewords.dropped,
        run: {
          runId: outcome.run.runId,
          calls: s.calls,
          retries: s.retries,
          elapsedMs: s.elapsedMs,
          tokensIn: s.tokensIn,
          tokensOut: s.tokensOut,
          aborted: s.aborted,
        },
      }),
      config.out,
    );
    if (s.aborted) process.exitCode = EXIT.aborted;
    else
      process.exitCode =
        outcome.run.complete && outcome.results.leaderboard.incomplete.length === 0
          ? EXIT.ok
          : EXIT.incomplete;
  });
  return cmd;
}

function positiveInt(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InputError(`expected a positive integer, got '${value}'`, { field: flag });
  return Number(value);
}
