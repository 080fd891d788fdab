import { Command } from 'commander';
import { addCommonOptions, flagsToConfig, splitList } from '../../cli/options.js';
import { EXIT, withAbort } from '../../cli/output.js';
import { resolveConfig } from '../../config/load.js';
import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { specLabel, toModelSpec } from '../../models/spec.js';
import { formatAdmissionTable } from './admission-table.js';
import { ladderSettings } from './config.js';
import { resolveLadderSeeds } from './data/datasets.js';
import { type BuildLadderSuiteOptions, buildLadderSuite, type LadderSuiteBuild } from './suite.js';
import { ladderSuiteJsonl, writeFileAtomic } from './suite-file.js';
import { FAMILIES, type Family, LEVELS, type Level } from './types.js';

const PROTOCOLS = ['ladder'] as const;

interface BuildFlags {
  protocol?: string;
  families?: string;
  levels?: string;
  admission?: string;
  /** `--generator SPEC` was typed: build with the model generator. */
  generatorFlag?: boolean;
}

/** `waver suite build --protocol ladder --out suite.jsonl`: a protocol's test suite as a file. */
export function suiteCommand(): Command {
  const build = new Command('build')
    .description(
      'build a protocol suite (JSONL, one test per line) and print its admission table; the same inputs and seed give the same bytes',
    )
    .option('--protocol <name>', `protocol (${PROTOCOLS.join(', ')})`)
    .option('--families <list>', `families to build, comma-separated (default all: ${FAMILIES.join(',')})`)
    .option('--levels <list>', 'requested levels, comma-separated (default 1,2,3,4,5)')
    .option('--admission <file>', 'also write the admission table to this file');
  addCommonOptions(build);
  // The shared `--out` is "also write the summary"; here it is where the suite goes.
  const out = build.options.find((o) => o.long === '--out');
  if (out) out.description = 'where to write the suite (JSONL)';
  build.action(async () => {
    const { file, flags } = flagsToConfig(build);
    const config = resolveConfig({ file, flags });
    process.exitCode = await executeSuiteBuild(config, {
      ...build.opts<BuildFlags>(),
      generatorFlag: build.getOptionValueSource('generator') === 'cli',
    });
  });
  return new Command('suite').description('build test suites for a protocol').addCommand(build);
}

/**
 * Checks every input before any work, builds the suite, then writes the suite and the admission
 * table (each through a temporary file and a rename): bad input or a stopped run writes nothing.
 */
export async function executeSuiteBuild(config: WaverConfig, flags: BuildFlags): Promise<number> {
  if (flags.protocol === undefined)
    throw new InputError(`no protocol: pass --protocol ${PROTOCOLS.join('|')}`, { field: '--protocol' });
  if (!(PROTOCOLS as readonly string[]).includes(flags.protocol))
    throw new InputError(`unknown protocol '${flags.protocol}' (expected ${PROTOCOLS.join(', ')})`, {
      field: '--protocol',
    });
  if (!config.out) throw new InputError('no output file: pass --out suite.jsonl', { field: '--out' });
  if (config.dryRun)
    throw new InputError('--dry-run is not available for suite build (the rules generators make no calls)', {
      field: '--dry-run',
    });
  // Flags win; otherwise the `ladder:` section of waver.yaml (validated when the config was read).
  const settings = ladderSettings(config);
  const families = flags.families !== undefined ? parseFamilies(flags.families) : settings.families;
  const levels =
    flags.levels !== undefined ? parseLevels(flags.levels) : (settings.levels as Level[] | undefined);
  const seeds = await resolveLadderSeeds(config.dataset, {
    ...(settings.seeds !== undefined && { limit: settings.seeds }),
    fields: settings.fields,
  });
  // A generator named on the command line means "use it"; one in waver.yaml only with ladder.generator: model.
  const generator = flags.generatorFlag || settings.generator === 'model' ? 'model' : 'rules';

  const build = await buildLadderSuiteOrStop({
    seeds,
    config,
    generator,
    families,
    levels,
    attempts: settings.attempts,
    seed: config.seed,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  if (!build) return EXIT.aborted;

  const table = formatAdmissionTable(build.admission, config.format, {
    seeds: seeds.length,
    generator:
      generator === 'rules' || config.generator === undefined
        ? 'rules'
        : specLabel(toModelSpec(config.generator)),
  });
  writeFileAtomic(config.out, ladderSuiteJsonl(build.tests));
  if (flags.admission) writeFileAtomic(flags.admission, table);
  process.stdout.write(table);
  const baselines = build.tests.filter((t) => t.family === 'baseline').length;
  process.stderr.write(
    `wrote ${build.tests.length} tests (${baselines} baselines, ${build.tests.length - baselines} perturbed) to ${config.out}\n`,
  );
  return EXIT.ok;
}

/**
 * Builds a ladder suite, stopping at Ctrl-C; undefined when stopped. A stopped generator or judge
 * run leaves answers missing: such a suite would be wrong, so none is returned.
 */
export async function buildLadderSuiteOrStop(
  opts: Omit<BuildLadderSuiteOptions, 'runOptions'>,
): Promise<LadderSuiteBuild | undefined> {
  let stopped = false;
  const build = await withAbort((signal) => {
    signal.addEventListener('abort', () => {
      stopped = true;
    });
    return buildLadderSuite({ ...opts, runOptions: { signal } });
  });
  return stopped ? undefined : build;
}

/** `SV,IQ` -> families; an unknown one is an InputError naming the flag and the value. */
export function parseFamilies(value: string): Family[] {
  const list = splitList(value);
  if (list.length === 0) throw new InputError('no family given', { field: '--families' });
  for (const f of list)
    if (!(FAMILIES as readonly string[]).includes(f))
      throw new InputError(`unknown family '${f}' (expected some of ${FAMILIES.join(', ')})`, {
        field: '--families',
      });
  return list as Family[];
}

/** `1,2` -> levels; anything but 1..5 is an InputError naming the flag and the value. */
export function parseLevels(value: string): Level[] {
  const list = splitList(value);
  if (list.length === 0) throw new InputError('no level given', { field: '--levels' });
  return list.map((s) => {
    const n = Number(s);
    if (!/^\d+$/.test(s) || !(LEVELS as readonly number[]).includes(n))
      throw new InputError(`unknown level '${s}' (expected some of ${LEVELS.join(', ')})`, {
        field: '--levels',
      });
    return n as Level;
  });
}
