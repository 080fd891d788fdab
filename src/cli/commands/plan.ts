import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { SuiteFill } from '../../check/types.js';
import { formatOption, positiveInt } from '../../command-kit/options.js';
import { EXIT, emit } from '../../command-kit/output.js';
import { splitList } from '../../config/setting-flags.js';
import { InputError } from '../../errors.js';
import { PlanInputError } from '../../plan/common.js';
import {
  DESIGNS,
  formatPlan,
  PAIRED_TESTS,
  type PairedTest,
  type PlanDesign,
  type PlanInput,
  plan,
} from '../../plan/designs.js';
import type { RegistryContext } from '../../protocols/adapters.js';
import { ADJUSTMENTS, type Adjustment } from '../../stats/multiplicity.js';
import { storeNotFound } from '../../store/not-found.js';

interface PlanFlags {
  design: string;
  p?: string;
  power: string;
  alpha: string;
  sides: string;
  discordance?: string;
  test: PairedTest;
  repeats?: string;
  baselineRepeats?: string;
  suite?: string;
  family?: string;
  level?: string;
  adjust: Adjustment;
  icc?: string;
  cells?: string;
  curve?: string;
  curveB?: string;
  collapseRatio?: string;
  n?: string;
  width?: string;
  margin?: string;
  fill?: string;
  diff?: string;
  sd?: string;
  pilot?: string;
  compare?: string;
  protocol?: string;
  config?: string;
  format?: 'md' | 'json';
  out?: string;
}

/**
 * `waver plan` (docs/plan.md): before a run, the items (and seeds, pairs) a stated difference needs
 * at a stated power and alpha; after one, the smallest difference it could detect. Rates are stated
 * with flags or read from a pilot store (`--pilot STORE --compare A,B`). Calls no model, writes nothing.
 */
export function planCommand(ctx: RegistryContext): Command {
  const command = new Command('plan').description(
    'sample sizes a claim needs (items, pairs, seeds) and the minimum detectable difference of a run',
  );
  // The designs that belong to no protocol, then each protocol's own.
  const designs = ctx.protocols.flatMap((p) => p.designs ?? []);
  testOptions(command, designs);
  for (const add of [suiteOptions, quantityOptions, sourceAndOutputOptions]) add(command);
  return command.action(async (o: PlanFlags) => {
    await sizePlan(ctx, designs, o);
    process.exitCode = EXIT.ok;
  });
}

/** The design and the test that decides it. */
function testOptions(command: Command, designs: readonly PlanDesign[]): void {
  command
    .addOption(
      new Option('--design <design>', 'what is compared')
        .choices([...DESIGNS, ...designs.map((d) => d.name)])
        .makeOptionMandatory(),
    )
    .option(
      '--p <rates>',
      'the two rates compared, e.g. 0.8,0.7 (one for mdd, and the per-cell rate for ci-width); from the pilot when omitted',
    )
    .option('--power <x>', 'chance of detecting the difference', '0.8')
    .option('--alpha <x>', 'level of the test', '0.05')
    .addOption(new Option('--sides <n>', 'a two- or one-sided test').choices(['1', '2']).default('2'))
    .option('--discordance <x>', 'paired designs: share of pairs on which the two models disagree')
    .addOption(
      new Option(
        '--test <test>',
        'paired designs, saa, mdd: size the exact McNemar test or its normal approximation',
      )
        .choices(PAIRED_TESTS)
        .default('exact'),
    );
}

/** The ladder designs' suite (its fill and repeats), their adjustment and the clustering of cells. */
function suiteOptions(command: Command): void {
  command
    .option(
      '--suite <file>',
      'collapse-shift, ladder-level, ladder-family: size on this suite (waver suite build): its seeds per family and level, its repeats',
    )
    .option('--family <family>', 'with --suite: the family sized (needed when the suite has several)')
    .option('--level <n>', 'ladder-level with --suite: the measured level')
    .option(
      '--repeats <n>',
      "ladder designs: times each test above the baseline is asked (default: the config's repeats)",
    )
    .option(
      '--baseline-repeats <n>',
      "collapse-shift: times each baseline is asked (default: the config's, the ladder's baselineRepeats)",
    )
    .addOption(
      new Option('--adjust <method>', 'ladder-family: how check --compare adjusts its p-values')
        .choices(ADJUSTMENTS)
        .default('holm'),
    )
    .option(
      '--icc <x>',
      'ladder designs, saa: correlation of the cells (or pairs) of one seed or item (0..1)',
    )
    .option('--cells <n>', 'saa, ci-width: cells per item (phrasings x repeats)')
    .option('--curve <accs>', 'collapse-shift: accuracy at L0, L1, ... of the model that collapses first')
    .option('--curve-b <accs>', 'collapse-shift: accuracy at L0, L1, ... of the other model')
    .option('--collapse-ratio <x>', 'collapse-shift: the Collapse Point ratio', '0.8')
    .option(
      '--fill <x>',
      'ladder-level without --suite: the share of seeds with a test at the level (e.g. 18/48 = 0.375)',
    );
}

/** What the other designs size on: a CI's width, a difference of means, a run's size. */
function quantityOptions(command: Command): void {
  command
    .option('--width <w>', "ci-width: the half-width wanted of SAA's CI (the one check --min-saa prints)")
    .option('--diff <d>', 'mean-difference: the difference of the two means')
    .option('--sd <s>', 'mean-difference: the standard deviation of the per-pair differences')
    .option('--n <n>', 'mdd: the items per arm (or pairs) the run had; from the pilot when omitted')
    .option(
      '--margin <m>',
      'non-inferiority: the margin of check --compare --margin (the new model may lose at most m); --p gives the base rate, then the new',
    );
}

/** Rates read from a pilot store, the config, and where the output goes. */
function sourceAndOutputOptions(command: Command): void {
  command
    .option(
      '--pilot <store>',
      'read the rates of two models from this store (a pilot, or the run itself for mdd)',
    )
    .option('--compare <A,B>', 'with --pilot: the two models (labels or identities)')
    .option('--protocol <name>', 'with --pilot or --suite: the protocol whose suite it is')
    .option('-c, --config <file>', 'config file (default: ./waver.yaml when present)')
    .addOption(formatOption())
    .option('--out <file>', 'also write the output to this file');
}

async function sizePlan(ctx: RegistryContext, designs: readonly PlanDesign[], o: PlanFlags): Promise<void> {
  const input = planInputOf(o);
  // The designs sized on a suite's fill and repeats (docs/plan.md#suite).
  const onSuite = designs.filter((d) => d.suite).map((d) => d.name);
  if (onSuite.includes(o.design)) input.suite = await suiteFill(ctx, o);
  else if (o.suite !== undefined)
    throw new InputError(`--suite sizes ${onSuite.join(', ')}`, { field: '--suite' });
  let pilot: Record<string, unknown> | undefined;
  const metric = designs.find((d) => d.name === o.design)?.metric;
  if (o.pilot !== undefined)
    pilot = await readPilot(ctx, o, input, { onSuite: onSuite.includes(o.design), metric });
  else if (o.compare !== undefined)
    throw new InputError('--compare names the models of a --pilot store', { field: '--compare' });
  let result: ReturnType<typeof plan>;
  try {
    result = plan(input, designs);
  } catch (e) {
    // A design's own check names its flag; a range the statistics refuse is the design's as a whole.
    if (e instanceof RangeError)
      throw new InputError(e.message, { field: e instanceof PlanInputError ? e.flag : '--design' });
    throw e;
  }
  const text =
    o.format === 'json'
      ? `${JSON.stringify({ ...result, ...(pilot && { pilot }) }, null, 2)}\n`
      : formatPlan(result) + (pilot ? `pilot: ${JSON.stringify(pilot)}\n` : '');
  emit(text, o.out);
}

/** The flags as the planner's input, each checked (a bad value is an input error naming its flag). */
function planInputOf(o: PlanFlags): PlanInput {
  return {
    design: o.design,
    alpha: unit(o.alpha, '--alpha'),
    power: unit(o.power, '--power'),
    sides: Number(o.sides) as 1 | 2,
    test: o.test,
    collapseRatio: unit(o.collapseRatio ?? '0.8', '--collapse-ratio'),
    ...(o.p !== undefined && { p: rates(o.p, '--p') }),
    ...(o.discordance !== undefined && { discordance: proportion(o.discordance, '--discordance') }),
    ...(o.repeats !== undefined && { repeats: positiveInt(o.repeats, '--repeats') }),
    ...(o.baselineRepeats !== undefined && {
      baselineRepeats: positiveInt(o.baselineRepeats, '--baseline-repeats'),
    }),
    ...(o.family !== undefined && { family: o.family }),
    ...(o.level !== undefined && { level: positiveInt(o.level, '--level') }),
    adjust: o.adjust,
    ...(o.icc !== undefined && { icc: proportion(o.icc, '--icc') }),
    ...(o.cells !== undefined && { cells: positiveInt(o.cells, '--cells') }),
    ...(o.curve !== undefined && { curveA: rates(o.curve, '--curve') }),
    ...(o.curveB !== undefined && { curveB: rates(o.curveB, '--curve-b') }),
    ...(o.n !== undefined && { n: positiveInt(o.n, '--n') }),
    ...(o.width !== undefined && { width: unit(o.width, '--width') }),
    ...(o.margin !== undefined && { margin: unit(o.margin, '--margin') }),
    ...(o.fill !== undefined && { fill: fillShare(o.fill) }),
    ...(o.diff !== undefined && { difference: finite(o.diff, '--diff') }),
    ...(o.sd !== undefined && { sd: finite(o.sd, '--sd') }),
  };
}

/**
 * The suite's fill from the protocol that reads it (its check's `fill`): the tests of `--suite`,
 * and the repeats the config asks (waver.yaml, `-c`), which `--repeats` and `--baseline-repeats` override.
 */
async function suiteFill(ctx: RegistryContext, o: PlanFlags): Promise<SuiteFill | undefined> {
  const checks = await Promise.all(ctx.protocols.flatMap((p) => (p.check ? [p.check()] : [])));
  const readers = checks.filter((c) => c.fill && (o.protocol === undefined || c.protocol === o.protocol));
  const reader = readers[0];
  if (!reader?.fill || readers.length > 1) {
    if (o.suite === undefined) return undefined;
    throw new InputError(
      reader
        ? `several protocols read suites (${readers.map((r) => r.protocol).join(', ')}): pass --protocol`
        : `no protocol${o.protocol ? ` named ${o.protocol}` : ''} sizes a suite file`,
      { field: '--protocol' },
    );
  }
  const config = ctx.config.resolve({ file: o.config });
  return reader.fill({ ...config, suite: o.suite });
}

/** Fills what the flags left out from a pilot store's paired answers; returns what was read. */
async function readPilot(
  ctx: RegistryContext,
  o: PlanFlags,
  input: PlanInput,
  design: { onSuite: boolean; metric: string | undefined },
): Promise<Record<string, unknown>> {
  const file = o.pilot as string;
  if (!existsSync(file)) throw storeNotFound(file, '--pilot');
  const names = o.compare === undefined ? [] : splitList(o.compare);
  if (names.length !== 2)
    throw new InputError('--pilot needs the two models: --compare A,B', { field: '--compare' });
  const [{ readStore }, { pilotOf }] = await Promise.all([
    import('../../store/store.js'),
    import('../../plan/pilot.js'),
  ]);
  const protocols = await Promise.all(ctx.protocols.flatMap((p) => (p.check ? [p.check()] : [])));
  const config = ctx.config.resolve({ file: o.config, flags: { store: file } });
  return readStore(file, (store) => {
    const found = pilotOf(store, {
      config,
      protocols,
      base: names[0] as string,
      new: names[1] as string,
      ...(o.protocol && { protocol: o.protocol }),
      // A design on a suite sizes one family: its pairs' rates, not all pairs'.
      ...(o.family !== undefined && design.onSuite && { family: o.family }),
      // The pairs of the check the design sizes (saa: each item's SAA).
      ...(design.metric !== undefined && { metric: design.metric }),
    });
    if (!found)
      throw new InputError(
        design.metric === undefined
          ? `the two models have no test${o.family ? ` of ${o.family}` : ''} answered by both`
          : `the two models have no pair for check --metric ${design.metric} (with saa: no item both answered in every cell; SAA leaves an incomplete item out)`,
        { file, field: '--compare' },
      );
    input.p ??= input.design === 'mdd' ? [found.p1] : [found.p1, found.p2];
    input.discordance ??= found.discordance;
    if (input.design === 'mdd') input.n ??= found.pairs;
    // Read by a design on items whose every cell must be right (paraphrase's SAA); others leave it.
    input.pilotItems = found.items;
    // Every design sized from a pilot carries its clusters' design effects (docs/plan.md#pilot).
    input.pilotClustering = {
      designEffect: found.designEffect,
      armDesignEffect: found.armDesignEffect,
      pairsPerCluster: found.pairs / found.clusters,
      cluster: found.cluster,
    };
    input.models = names as [string, string];
    const { items: _, ...shown } = found;
    return shown;
  });
}

/** A share in (0, 1]: all seeds may have a test at the level. */
function fillShare(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n > 0 && n <= 1))
    throw new InputError(`expected a share in (0, 1], got '${value}'`, { field: '--fill' });
  return n;
}

function finite(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new InputError(`expected a number, got '${value}'`, { field: flag });
  return n;
}

function unit(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n > 0 && n < 1))
    throw new InputError(`expected a number in (0, 1), got '${value}'`, { field: flag });
  return n;
}

function proportion(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n >= 0 && n <= 1))
    throw new InputError(`expected a proportion in [0, 1], got '${value}'`, { field: flag });
  return n;
}

function rates(value: string, flag: string): number[] {
  const parts = splitList(value);
  if (parts.length === 0)
    throw new InputError(`expected rates such as 0.8,0.7, got '${value}'`, { field: flag });
  return parts.map((p) => proportion(p, flag));
}
