import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { formatOption, positiveInt } from '../../command-kit/options.js';
import { EXIT, emit } from '../../command-kit/output.js';
import { splitList } from '../../config/setting-flags.js';
import { InputError } from '../../errors.js';
import type { AgreementOptions } from '../../judge/agreement.js';
import type { JudgedItem } from '../../judge/types.js';
import type { ProtocolModule, RegistryContext } from '../../protocols/adapters.js';
import { AGREEMENT_RESAMPLES, KAPPA_WEIGHTS, type KappaWeights, type Metric } from '../../stats/agreement.js';
import { storeNotFound } from '../../store/not-found.js';
import type { LabellingSetRecord, Store } from '../../store/store.js';

const DEFAULT_STORE = '.waver/store.db';
const DEFAULT_SET = 'default';

/**
 * `waver judge` (docs/judges.md): `sample` draws a stratified labelling set of what the protocols'
 * judges judged, `import` reads people's labels from a CSV into it, `agreement` compares the judges
 * with the people (and people with each other) from the store or from a CSV alone. The labelling
 * page is `waver view`'s /label.
 */
export function judgeCommand(ctx: RegistryContext): Command {
  return new Command('judge')
    .description('check the LLM judges against people: sample judged items, import labels, measure agreement')
    .addCommand(sampleCommand(ctx))
    .addCommand(importCommand())
    .addCommand(agreementCommand());
}

// --- sample -------------------------------------------------------------------------------------

interface SampleFlags {
  store: string;
  set: string;
  n: string;
  seed: string;
  protocols?: string;
}

function sampleCommand(ctx: RegistryContext): Command {
  return new Command('sample')
    .description(
      'draw a stratified sample of judged items (task, family, boundary type, verdict) into a labelling set',
    )
    .option('--store <file>', 'SQLite store', DEFAULT_STORE)
    .option('--set <name>', 'name of the labelling set', DEFAULT_SET)
    .option('--n <n>', 'items to sample', '60')
    .option('--seed <n>', 'seed of the draw', '0')
    .option(
      '--protocols <names>',
      'only the judged items of these protocols (default: every protocol with judges)',
    )
    .action(async (o: SampleFlags) => {
      await sampleJudgedItems(ctx, o);
      process.exitCode = EXIT.ok;
    });
}

async function sampleJudgedItems(ctx: RegistryContext, o: SampleFlags): Promise<void> {
  const n = positiveInt(o.n, '--n');
  const seed = seedOf(o.seed);
  const protocols = judgedProtocols(ctx, o.protocols);
  if (!existsSync(o.store)) throw storeNotFound(o.store, '--store');
  const [{ openStore }, { populationOf, sampleJudged, stratumOf }] = await Promise.all([
    import('../../store/store.js'),
    import('../../judge/sample.js'),
  ]);
  const store = openStore(o.store);
  try {
    if (store.labels.set(o.set))
      throw new InputError(`a labelling set '${o.set}' is already in the store: name another with --set`, {
        field: '--set',
        file: o.store,
      });
    const items = await judgedItems(store, protocols);
    if (items.length === 0)
      throw new InputError('no judged items in the store: run the ladder or sago with --judge first', {
        file: o.store,
      });
    const sample = sampleJudged(items, n, seed);
    store.labels.saveSet({ name: o.set, seed, items: sample, population: populationOf(items) });
    const strata = new Map<string, number>();
    for (const item of sample) {
      const key = stratumOf(item);
      strata.set(key, (strata.get(key) ?? 0) + 1);
    }
    emit(
      `waver: labelling set '${o.set}': ${sample.length} of ${items.length} judged items in ${strata.size} strata\n` +
        [...strata].map(([k, c]) => `  ${c}  ${k}`).join('\n') +
        `\nlabel them with: waver view --store ${o.store}  (then open /label)\n`,
    );
  } finally {
    store.close();
  }
}

/** The protocols with judges that `--protocols` names (all of them by default), in the registry's order. */
function judgedProtocols(ctx: RegistryContext, names: string | undefined): ProtocolModule[] {
  const judged = ctx.protocols.filter((p) => p.judged);
  const wanted = names === undefined ? judged.map((p) => p.name) : splitList(names);
  for (const name of wanted)
    if (!judged.some((p) => p.name === name))
      throw new InputError(
        `no protocol '${name}' with judged items (those with judges: ${judged.map((p) => p.name).join(', ')})`,
        { field: '--protocols' },
      );
  return judged.filter((p) => wanted.includes(p.name));
}

async function judgedItems(store: Store, protocols: readonly ProtocolModule[]): Promise<JudgedItem[]> {
  const items: JudgedItem[] = [];
  for (const p of protocols) items.push(...((await p.judged?.(store)) ?? []));
  return items;
}

// --- import -------------------------------------------------------------------------------------

interface ImportFlags {
  labels: string;
  store: string;
  set: string;
}

function importCommand(): Command {
  return new Command('import')
    .description('read labels from a CSV (columns item, rater, label, optional notes) into a labelling set')
    .requiredOption('--labels <file>', 'the CSV of labels')
    .option('--store <file>', 'SQLite store', DEFAULT_STORE)
    .option('--set <name>', 'the labelling set', DEFAULT_SET)
    .action(async (o: ImportFlags) => {
      await importLabels(o);
      process.exitCode = EXIT.ok;
    });
}

async function importLabels(o: ImportFlags): Promise<void> {
  if (!existsSync(o.store)) throw storeNotFound(o.store, '--store');
  const [{ openStore }, { importedLabels, readLabelsCsv }] = await Promise.all([
    import('../../store/store.js'),
    import('../../judge/labels.js'),
  ]);
  const store = openStore(o.store);
  try {
    const set = store.labels.set(o.set);
    if (!set)
      throw new InputError(`no labelling set '${o.set}' in the store (make one with waver judge sample)`, {
        field: '--set',
        file: o.store,
      });
    // Read and checked whole first: a bad row writes nothing.
    const rows = readLabelsCsv(o.labels, set);
    store.labels.save(importedLabels(rows, o.set, o.labels));
    const raters = new Set(rows.map((r) => r.rater));
    emit(
      `waver: imported ${rows.length} labels by ${raters.size} rater${raters.size === 1 ? '' : 's'} into set '${o.set}'\n`,
    );
  } finally {
    store.close();
  }
}

// --- agreement ----------------------------------------------------------------------------------

interface AgreementFlags {
  store: string;
  set: string;
  labels?: string;
  judgeRater?: string;
  seed: string;
  resamples: string;
  kappaWeights?: KappaWeights;
  alphaMetric?: Metric;
  format: 'md' | 'json';
  out?: string;
}

function agreementCommand(): Command {
  return new Command('agreement')
    .description(
      "agreement of judges and people: raw, Cohen's kappa, Krippendorff's alpha, confusion, per stratum, corrected estimates",
    )
    .option('--store <file>', 'SQLite store', DEFAULT_STORE)
    .option('--set <name>', 'the labelling set', DEFAULT_SET)
    .option(
      '--labels <file>',
      "a CSV of labels (item, rater, label): the set's items when the store has the set, else the CSV alone",
    )
    .option('--judge-rater <names>', 'raters of the CSV that are judges (comma-separated)')
    .option('--seed <n>', 'seed of the bootstrap intervals', '0')
    .option('--resamples <n>', 'bootstrap resamples', String(AGREEMENT_RESAMPLES))
    .addOption(
      new Option(
        '--kappa-weights <w>',
        "ordinal rubrics: kappa's weights, by rank (default: quadratic)",
      ).choices(KAPPA_WEIGHTS),
    )
    .addOption(
      new Option('--alpha-metric <m>', "ordinal rubrics: alpha's metric (default: ordinal)").choices([
        'ordinal',
        'interval',
        'nominal',
      ]),
    )
    .addOption(formatOption())
    .option('--out <file>', 'also write the output to this file')
    .action(async (o: AgreementFlags) => {
      await measureAgreement(o);
      process.exitCode = EXIT.ok;
    });
}

/** The modules `agreement` reads with, loaded when it runs. */
interface AgreementKit {
  labels: typeof import('../../judge/labels.js');
  report: typeof import('../../judge/report.js');
  agreement: typeof import('../../judge/agreement.js')['agreement'];
}

async function measureAgreement(o: AgreementFlags): Promise<void> {
  const opts: AgreementOptions = {
    seed: seedOf(o.seed),
    resamples: positiveInt(o.resamples, '--resamples'),
    ...(o.kappaWeights && { kappaWeights: o.kappaWeights }),
    ...(o.alphaMetric && { alphaMetric: o.alphaMetric }),
  };
  const named = o.judgeRater === undefined ? [] : splitList(o.judgeRater);
  const [{ readStore }, labels, report, { agreement }] = await Promise.all([
    import('../../store/store.js'),
    import('../../judge/labels.js'),
    import('../../judge/report.js'),
    import('../../judge/agreement.js'),
  ]);
  const kit: AgreementKit = { labels, report, agreement };
  const agreementOf = (store: Store | undefined) => {
    const set = store?.labels.set(o.set);
    return set
      ? agreementOfSet(kit, o, set, store as Store, named, opts)
      : agreementOfCsv(kit, o, store !== undefined, named, opts);
  };
  const out = existsSync(o.store) ? readStore(o.store, agreementOf) : agreementOf(undefined);
  emit(
    o.format === 'json'
      ? `${JSON.stringify(out, null, 2)}\n`
      : `${report.judgeMarkdown([out as Parameters<typeof report.judgeMarkdown>[0][number]])}\n`,
    o.out,
  );
}

/** No labelling set: the CSV's items alone, with the raters `--judge-rater` names as the judges. */
function agreementOfCsv(
  { labels, report, agreement }: AgreementKit,
  o: AgreementFlags,
  storeFound: boolean,
  named: readonly string[],
  opts: AgreementOptions,
): unknown {
  if (o.labels === undefined) {
    if (!storeFound) throw storeNotFound(o.store, '--store');
    throw new InputError(
      `no labelling set '${o.set}' in the store: give --labels FILE, or make one with waver judge sample`,
      { field: '--set', file: o.store },
    );
  }
  const rows = labels.readLabelsCsv(o.labels);
  for (const name of named)
    if (!rows.some((r) => r.rater === name))
      throw new InputError(`no rater '${name}' in the labels`, { field: '--judge-rater', file: o.labels });
  return { labels: o.labels, agreement: agreement(report.ratedItemsOfCsv(rows), new Set(named), opts) };
}

/**
 * A labelling set: its labels (or the CSV's, read against its items) with its judges' verdicts and
 * corrected estimates; raters `--judge-rater` names count as judges too.
 */
function agreementOfSet(
  { labels, report, agreement }: AgreementKit,
  o: AgreementFlags,
  set: LabellingSetRecord,
  store: Store,
  named: readonly string[],
  opts: AgreementOptions,
): unknown {
  const given =
    o.labels === undefined
      ? store.labels.of(o.set)
      : labels.importedLabels(labels.readLabelsCsv(o.labels, set), o.set, o.labels);
  if (given.length === 0)
    throw new InputError(
      `the labelling set '${o.set}' has no labels yet: label it in waver view, or import a CSV`,
      { field: '--set', file: o.store },
    );
  const result = report.setReport(set, given, opts);
  if (named.length > 0) {
    const judges = new Set([...report.judgesOfSet(set), ...named]);
    result.agreement = agreement(report.ratedItemsOfSet(set, given), judges, opts);
  }
  return result;
}

function seedOf(value: string): number {
  if (!/^\d+$/.test(value.trim()))
    throw new InputError(`expected a non-negative integer, got '${value}'`, { field: '--seed' });
  return Number(value);
}
