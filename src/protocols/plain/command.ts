import { Command } from 'commander';
import { addCommonOptions, flagsToConfig } from '../../cli/options.js';
import { EXIT, emit, withAbort } from '../../cli/output.js';
import { createProgress } from '../../cli/progress.js';
import { resolveConfig } from '../../config/load.js';
import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { formatEstimate, formatRunSummary } from '../../report/run-summary.js';
import { estimateSuite, runSuite } from '../../run/run-suite.js';
import type { Suite } from '../../run/types.js';
import { loadPlainSuite } from './suite-file.js';

export function runCommand(): Command {
  const cmd = new Command('run')
    .description('run a suite file (JSONL of {id, prompt, system?}) against models and store every response')
    .option('--suite <file>', 'suite file');
  addCommonOptions(cmd).action(async () => {
    const { file, flags } = flagsToConfig(cmd);
    const suiteFlag = cmd.opts<{ suite?: string }>().suite;
    const config = resolveConfig({ file, flags: { ...flags, suite: suiteFlag ?? flags.suite } });
    if (!config.suite)
      throw new InputError('no suite: pass --suite FILE or set suite in waver.yaml', { field: 'suite' });
    process.exitCode = await executeRun(config, loadPlainSuite(config.suite));
  });
  return cmd;
}

/** Runs (or dry-runs) a suite with progress on stderr and the summary on stdout; returns the exit code. */
export async function executeRun(
  config: WaverConfig,
  suite: Suite,
  opts: { quiet?: boolean } = {},
): Promise<number> {
  if (config.dryRun) {
    emit(formatEstimate(await estimateSuite(config, suite), config.format), config.out);
    return EXIT.ok;
  }
  const progress = createProgress(process.stderr, { quiet: opts.quiet });
  let last: Parameters<typeof progress.update>[0] | undefined;
  const result = await withAbort((signal) =>
    runSuite(config, suite, {
      signal,
      onProgress: (p) => {
        last = p;
        progress.update(p);
      },
    }),
  );
  if (last) progress.finish(last);
  emit(formatRunSummary(result, config.format), config.out);
  if (result.summary.aborted) return EXIT.aborted;
  return result.complete ? EXIT.ok : EXIT.incomplete;
}
