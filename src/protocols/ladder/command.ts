import { Command, Option } from 'commander';
import { addCommonOptions, flagsToConfig } from '../../cli/options.js';
import { EXIT, emit, withAbort } from '../../cli/output.js';
import { createProgress } from '../../cli/progress.js';
import { resolveConfig, validateConfig } from '../../config/load.js';
import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { specLabel, toModelSpec } from '../../models/spec.js';
import { formatEstimate } from '../../report/run-summary.js';
import { estimateSuite } from '../../run/run-suite.js';
import type { Progress } from '../../run/types.js';
import { openStore } from '../../store/store.js';
import { type LadderConfigInput, LadderConfigSchema, ladderSettings } from './config.js';
import { resolveLadderSeeds } from './data/datasets.js';
import { loadLadderResults } from './results.js';
import { ladderSuite, runLadder } from './run.js';
import { buildLadderSuiteOrStop, parseFamilies, parseLevels } from './suite-command.js';
import { readLadderSuite } from './suite-file.js';
import { formatLadderReport } from './tables.js';
import type { AdmissionRow, LadderTest, Level } from './types.js';

interface LadderFlags {
  suite?: string;
  seeds?: string;
  families?: string;
  levels?: string;
  answerFormat?: 'json' | 'hashes';
  generate?: 'rules' | 'model';
  judgeThreshold?: string;
}

/**
 * `waver ladder`: the ladder protocol end to end. With `--suite FILE` it runs that suite; without,
 * it builds one in memory from `--dataset` (default: the built-in seeds) with the rules generators
 * (or the generator model), runs it, judges the KB responses when a judge is given, and prints the
 * paper's Tables 3, 4 and 5 for each model, rebuilt from the store.
 */
export function ladderCommand(): Command {
  const cmd = new Command('ladder')
    .description(
      'the ladder protocol: seven perturbation families x five measured severity levels; Accuracy, Stability and Collapse Point per model',
    )
    .option(
      '--suite <file>',
      'a ladder suite file (waver suite build --protocol ladder); default: build one from --dataset',
    )
    .option('--seeds <n>', 'use only the first N seeds of the dataset (a quick run)')
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
  addCommonOptions(cmd).action(async () => {
    const config = ladderConfig(cmd);
    process.exitCode = await executeLadder(config, cmd.opts<LadderFlags>().suite ?? config.suite);
  });
  return cmd;
}

/** The typed config with the ladder flags merged over the file's `ladder:` section. */
function ladderConfig(cmd: Command): WaverConfig {
  const { file, flags } = flagsToConfig(cmd);
  const base = resolveConfig({ file, flags });
  const o = cmd.opts<LadderFlags>();
  const fromFlags: LadderConfigInput = {
    ...(o.seeds !== undefined && { seeds: positiveInt(o.seeds, '--seeds') }),
    ...(o.families !== undefined && { families: parseFamilies(o.families) }),
    ...(o.levels !== undefined && { levels: parseLevels(o.levels) }),
    ...(o.answerFormat !== undefined && { answerFormat: o.answerFormat }),
    ...(o.generate !== undefined && { generator: o.generate }),
    ...(o.judgeThreshold !== undefined && {
      kbRecognizeThreshold: unitNumber(o.judgeThreshold, '--judge-threshold'),
    }),
  };
  const ladder = LadderConfigSchema.safeParse({ ...(base.ladder ?? {}), ...fromFlags });
  if (!ladder.success) {
    const issue = ladder.error.issues[0];
    throw new InputError(issue?.message ?? 'invalid ladder settings', {
      field: ['ladder', ...(issue?.path ?? []).map(String)].join('.'),
    });
  }
  return validateConfig({ ...base, ladder: ladder.data });
}

/** Builds (or reads) the suite, runs it, and prints the report; returns the exit code. */
export async function executeLadder(config: WaverConfig, suiteFile?: string): Promise<number> {
  const settings = ladderSettings(config);
  // Every input is read and checked before anything is called or written.
  let tests: LadderTest[];
  let admission: { rows: AdmissionRow[]; context: { seeds: number; generator: string } } | undefined;
  if (suiteFile !== undefined) {
    tests = readLadderSuite(suiteFile);
  } else {
    const seeds = await resolveLadderSeeds(config.dataset, {
      limit: settings.seeds,
      fields: settings.fields,
    });
    const generator = settings.generator ?? (config.generator === undefined ? 'rules' : 'model');
    const name = generator === 'rules' ? 'rules' : specLabel(toModelSpec(config.generator ?? ''));
    process.stderr.write(`ladder: building the suite from ${seeds.length} seeds (${name} generator)\n`);
    const build = await buildLadderSuiteOrStop({
      seeds,
      config,
      generator,
      families: settings.families,
      levels: settings.levels as Level[] | undefined,
      attempts: settings.attempts,
      seed: config.seed,
      log: (line) => process.stderr.write(`ladder: ${line}\n`),
    });
    if (!build) return EXIT.aborted;
    tests = build.tests;
    admission = { rows: build.admission, context: { seeds: seeds.length, generator: name } };
  }

  if (config.dryRun) {
    emit(formatEstimate(await estimateSuite(config, ladderSuite(tests, config)), config.format), config.out);
    return EXIT.ok;
  }

  const sutProgress = createProgress(process.stderr, { label: 'ladder/tests' });
  const judgeProgress = createProgress(process.stderr, { label: 'ladder/kb-judge' });
  let lastSut: Progress | undefined;
  let lastJudge: Progress | undefined;
  const run = await withAbort((signal) =>
    runLadder(config, tests, {
      signal,
      onProgress: (p) => {
        lastSut = p;
        sutProgress.update(p);
      },
      onJudgeProgress: (p) => {
        lastJudge = p;
        judgeProgress.update(p);
      },
      log: (line) => process.stderr.write(`ladder: ${line}\n`),
    }),
  );
  if (lastSut) sutProgress.finish(lastSut);
  if (lastJudge) judgeProgress.finish(lastJudge);

  const store = openStore(config.store);
  let text: string;
  let complete: boolean;
  try {
    const results = loadLadderResults(store, run.suite.hash, {
      settings,
      seed: config.seed,
      minCoverage: config.minCoverage,
      models: run.sut.models.map((m) => ({ label: m.label, identity: m.identity })),
      // A judge named now is the one whose verdicts count; without one, any stored verdicts are read.
      ...(run.judge && { judgeIdentity: run.judge.identity }),
    });
    complete = results.models.every((m) => m.complete);
    text = formatLadderReport({ results, ...(admission ? { admission } : { tests }) }, config.format);
  } finally {
    store.close();
  }
  emit(text, config.out);
  if (run.sut.summary.aborted) return EXIT.aborted;
  return complete ? EXIT.ok : EXIT.incomplete;
}

function positiveInt(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InputError(`expected a positive integer, got '${value}'`, { field: flag });
  return Number(value);
}

function unitNumber(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InputError(`expected a number between 0 and 1, got '${value}'`, { field: flag });
  return n;
}
