import { Command } from 'commander';
import { commandFlags } from '../../command-kit/options.js';
import { EXIT } from '../../command-kit/output.js';
import { InputError } from '../../errors.js';
import type { ProtocolCommand } from '../adapters.js';
import { withPool } from '../define.js';
import { buildOrStop, endOfRun } from '../execute.js';
import type { RunOutcome } from '../types.js';
import { formatAdmissionTable } from './admission-table.js';
import { LadderConfigSchema } from './config.js';
import { impliedGenerator } from './flags.js';
import { meaningCaveat } from './meaning-check.js';
import type { LadderPlan } from './protocol.js';
import type { LadderSectionData } from './report-section.js';
import type { LadderResults } from './results.js';
import { ladderSuiteJsonl, writeFileAtomic } from './suite-file.js';

const PROTOCOLS = ['ladder'] as const;

/** The `ladder:` settings a build takes; no system under test is asked, and the rules generators make no calls to estimate. */
const BUILD_FLAGS = commandFlags({
  section: {
    key: 'ladder',
    schema: LadderConfigSchema,
    only: ['seeds', 'fields', 'answerType', 'families', 'levels', 'generator'],
  },
  groups: ['judge', 'generator', 'dataset', 'store', 'cache', 'output', 'seed', 'calls'],
});

const log = (line: string) => process.stderr.write(`${line}\n`);

interface BuildFlags {
  protocol?: string;
  admission?: string;
}

/**
 * `waver suite build --protocol ladder --out suite.jsonl`: a protocol's test suite as a file. Every
 * input is checked before any work; the suite and the admission table are each written through a
 * temporary file and a rename, so bad input or a stopped build writes nothing.
 */
export const suiteCommand: ProtocolCommand<LadderPlan, LadderSectionData, RunOutcome<LadderResults>> = (
  ladder,
  ctx,
) => {
  const build = new Command('build')
    .description(
      'build a protocol suite (JSONL, one test per line) and print its admission table; the same inputs and seed give the same bytes',
    )
    .option('--protocol <name>', `protocol (${PROTOCOLS.join(', ')})`)
    .option('--admission <file>', 'also write the admission table to this file');
  BUILD_FLAGS.addTo(build);
  // The shared `--out` is "also write the summary"; here it is where the suite goes.
  const out = build.options.find((o) => o.long === '--out');
  if (out) out.description = 'where to write the suite (JSONL)';
  const format = build.options.find((o) => o.long === '--format');
  if (format) format.description = 'format of the admission table';
  build.action(async () => {
    const flags = build.opts<BuildFlags>();
    if (flags.protocol === undefined)
      throw new InputError(`no protocol: pass --protocol ${PROTOCOLS.join('|')}`, { field: '--protocol' });
    if (!(PROTOCOLS as readonly string[]).includes(flags.protocol))
      throw new InputError(`unknown protocol '${flags.protocol}' (expected ${PROTOCOLS.join(', ')})`, {
        field: '--protocol',
      });
    const config = BUILD_FLAGS.config(build, ctx.config, { ladder: { generator: impliedGenerator(build) } });
    if (!config.out) throw new InputError('no output file: pass --out suite.jsonl', { field: '--out' });
    if (config.dryRun) {
      const why = 'the rules generators make no calls';
      throw new InputError(`a dry run is not available for suite build (${why})`, { field: 'dryRun' });
    }
    // A suite file in waver.yaml is what `waver ladder` would run, not what this command builds.
    // Its own pool, whose budget (--max-calls, --max-cost) says why a build stopped.
    const plan = await withPool(config, {}, async ({ pool }) => {
      const built = await buildOrStop(
        ladder,
        { ...config, suite: undefined },
        { onStage: (_, line) => log(line), pool },
      );
      if (built?.admission) return { ...built, admission: built.admission };
      // A built suite always has its admission table: none means the build was stopped.
      process.exitCode = endOfRun(
        { aborted: true, complete: false, runs: [] },
        [],
        config.cache,
        pool.budget,
      );
      return undefined;
    });
    if (plan === undefined) return;
    const table = formatAdmissionTable(plan.admission.rows, config.format, plan.admission.context);
    writeFileAtomic(config.out, ladderSuiteJsonl(plan.tests));
    if (flags.admission) writeFileAtomic(flags.admission, table);
    process.stdout.write(table);
    const baselines = plan.tests.filter((t) => t.family === 'baseline').length;
    log(
      `wrote ${plan.tests.length} tests (${baselines} baselines, ${plan.tests.length - baselines} perturbed) to ${config.out}`,
    );
    const caveat = plan.admission.context.meaning && meaningCaveat(plan.admission.context.meaning);
    if (caveat !== undefined) log(`${caveat}; pass --judge SPEC to check it`);
    process.exitCode = EXIT.ok;
  });
  return new Command('suite').description('build test suites for a protocol').addCommand(build);
};
