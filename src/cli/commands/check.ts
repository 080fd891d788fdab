import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { type CompareResult, comparable, compareMetrics, compareModels } from '../../check/compare.js';
import { type CheckResult, evaluateThresholds } from '../../check/evaluate.js';
import { formatCheck } from '../../check/format.js';
import { chooseSuites } from '../../check/suites.js';
import { flagOf, MIN_COVERAGE, type ThresholdSpec } from '../../check/threshold-spec.js';
import { mergeRules, parseRuleFlag, rulesFromConfig } from '../../check/thresholds.js';
import type { CheckedSuite, CheckProtocol, ThresholdRule } from '../../check/types.js';
import { EXIT, emit } from '../../command-kit/output.js';
import type { ConfigContext } from '../../config/load.js';
import { splitList } from '../../config/setting-flags.js';
import { InputError } from '../../errors.js';
import type { RegistryContext } from '../../protocols/adapters.js';
import { ADJUSTMENTS, type Adjustment } from '../../stats/multiplicity.js';
import { storeNotFound } from '../../store/not-found.js';
import { readStore } from '../../store/store.js';

/**
 * `waver check`: a CI gate over a store. Thresholds (waver.yaml `check:` or flags) evaluated per
 * model, and/or a paired comparison of two models; exit 0 when everything passes, 4 otherwise
 * (docs/check.md). Reads the store only. Its threshold flags are the protocols' thresholds.
 */
export async function checkCommand(ctx: RegistryContext): Promise<Command> {
  const protocols = await Promise.all(ctx.protocols.flatMap((p) => (p.check ? [p.check()] : [])));
  const thresholds = thresholdFlags(protocols);
  const collect = (v: string, prev: string[]) => [...prev, v];
  const cmd = new Command('check')
    .description('gate on thresholds (and compare two models): exit 0 when all pass, 4 when any fails')
    .option('-c, --config <file>', 'config file (default: ./waver.yaml when present)')
    .option('--store <file>', 'SQLite store (default: .waver/store.db)')
    .option(
      '--suite <hash>',
      'check this suite (hash or 8+ character prefix) instead of the latest of its protocol',
      collect,
      [],
    );
  for (const { option } of thresholds) cmd.addOption(option.argParser(collect).default([]));
  cmd
    .option('--allow-unavailable', 'a metric a model lacks passes instead of failing')
    .option(
      '--compare <BASE,NEW>',
      'paired comparison of two models (labels or identities) on the same suite',
    )
    .addOption(
      new Option(
        '--metric <name>',
        "what the comparison pairs: each answer (accuracy), or each item's SAA (saa: McNemar on items) (default: accuracy)",
      ).choices(compareMetrics(protocols)),
    )
    .addOption(
      new Option('--protocol <name>', 'suite of the comparison').choices(
        comparable(protocols).map((p) => p.protocol),
      ),
    )
    .option('--alpha <a>', 'significance level of the comparison (default: 0.05)')
    .option(
      '--margin <m>',
      'non-inferiority margin of the comparison: pass only when the CI of new - base stays above -m',
    )
    .addOption(
      new Option(
        '--adjust <method>',
        'adjustment of the comparison p-values over all pairs and each family (default: holm)',
      ).choices(ADJUSTMENTS),
    )
    .option('--seed <n>', 'seed of the bootstraps')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json']))
    .option('--out <file>', 'also write the output to this file');
  cmd.action(async () => {
    process.exitCode = executeCheck(cmd, ctx.config, protocols, thresholds);
  });
  return cmd;
}

interface ThresholdFlag {
  spec: ThresholdSpec;
  option: Option;
}

/** A flag per threshold, the protocols' then the check's own: `--min-stability <[FAMILY=]X>`. */
function thresholdFlags(protocols: readonly CheckProtocol[]): ThresholdFlag[] {
  return [...protocols.flatMap((p) => p.thresholds), MIN_COVERAGE].map((spec) => {
    const scope = spec.scopes ? `[${spec.scopes.noun.toUpperCase()}=]` : '';
    return { spec, option: new Option(`${flagOf(spec)} <${scope}${spec.value.placeholder}>`, spec.help) };
  });
}

interface CheckFlags {
  config?: string;
  store?: string;
  suite: string[];
  allowUnavailable?: boolean;
  compare?: string;
  metric?: string;
  protocol?: string;
  alpha?: string;
  margin?: string;
  adjust?: Adjustment;
  seed?: string;
  format?: 'md' | 'json';
  out?: string;
}

function executeCheck(
  cmd: Command,
  configContext: ConfigContext,
  protocols: readonly CheckProtocol[],
  thresholds: readonly ThresholdFlag[],
): number {
  const o = cmd.opts<CheckFlags>();
  // Every flag is checked before the store is opened: bad input reads nothing.
  const seed = o.seed === undefined ? undefined : integer(o.seed, '--seed');
  const config = configContext.resolve({
    file: o.config,
    flags: { store: o.store, format: o.format, out: o.out, seed },
  });
  const flagRules: ThresholdRule[] = [];
  for (const { spec, option } of thresholds) {
    // Commander keeps a `--no-...` flag's values under the positive name (`collapseAtOrBelow`).
    const values = cmd.getOptionValue(option.attributeName()) as string[] | boolean;
    if (Array.isArray(values) && values.length > 0) flagRules.push(...parseRuleFlag(spec, values));
  }
  const specs = thresholds.map((t) => t.spec);
  const rules = mergeRules(rulesFromConfig(config.check, specs), flagRules);
  const alpha = o.alpha === undefined ? (config.check?.alpha ?? 0.05) : share(o.alpha, '--alpha');
  const margin = o.margin === undefined ? config.check?.margin : share(o.margin, '--margin');
  const adjust = o.adjust ?? config.check?.adjust ?? 'holm';
  const metric = o.metric ?? config.check?.metric;
  const allowUnavailable = o.allowUnavailable ?? config.check?.allowUnavailable ?? false;
  let pair: [string, string] | undefined;
  if (o.compare !== undefined) {
    const names = splitList(o.compare);
    if (names.length !== 2)
      throw new InputError(`expected BASE_MODEL,NEW_MODEL, got '${o.compare}'`, { field: '--compare' });
    pair = names as [string, string];
  } else if (o.protocol !== undefined)
    throw new InputError('--protocol applies to --compare only', { field: '--protocol' });
  else if (o.metric !== undefined)
    throw new InputError('--metric applies to --compare only', { field: '--metric' });
  if (rules.length === 0 && !pair)
    throw new InputError(
      `nothing to check: give a threshold (${specs.map(flagOf).join(', ')}, or check: in waver.yaml) or --compare BASE,NEW`,
    );
  if (!existsSync(config.store)) throw storeNotFound(config.store, '--store');

  // Every page read first, whatever the store's size: a damaged store never passes
  // (docs/decisions.md#e15-readers-leave-the-store-as-they-found-it).
  return readStore(
    config.store,
    (store) => {
      const suites = chooseSuites(store, protocols, o.suite);
      let thresholds: CheckResult | undefined;
      let compare: CompareResult | undefined;
      if (rules.length > 0)
        thresholds = evaluateThresholds(store, { config, protocols, rules, suites, allowUnavailable });
      if (pair) {
        const explicit = chooseSuites(store, protocols, o.suite, { latest: false });
        const chosen = comparedSuite(protocols, explicit, o.protocol);
        compare = compareModels(store, {
          config,
          protocols,
          base: pair[0],
          new: pair[1],
          alpha,
          adjust,
          ...(metric !== undefined && { metric }),
          ...(margin !== undefined && { margin }),
          ...(o.protocol && { protocol: o.protocol }),
          ...(chosen && { suite: chosen }),
        });
      }
      const pass = (thresholds?.pass ?? true) && !(compare?.worse ?? false);
      emit(formatCheck({ store: config.store, thresholds, compare, pass }, config.format), config.out);
      return pass ? EXIT.ok : EXIT.checkFailed;
    },
    'always',
  );
}

/** The suite `--suite` named for the comparison, if any (one of no comparison is refused by compareModels). */
function comparedSuite(
  protocols: readonly CheckProtocol[],
  explicit: Readonly<Record<string, CheckedSuite>>,
  protocol: string | undefined,
): CheckedSuite | undefined {
  if (protocol) return explicit[protocol];
  const given = comparable(protocols).flatMap((p) => explicit[p.protocol] ?? []);
  const [first, second] = given;
  if (first && second)
    throw new InputError(
      `--suite names a ${first.protocol} and a ${second.protocol} suite: pass --protocol to compare on one`,
      { field: '--protocol' },
    );
  return first ?? Object.values(explicit)[0];
}

function integer(value: string, flag: string): number {
  if (!/^-?\d+$/.test(value.trim()))
    throw new InputError(`expected an integer, got '${value}'`, { field: flag });
  return Number(value);
}

function share(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n > 0 && n < 1))
    throw new InputError(`expected a number in (0, 1), got '${value}'`, { field: flag });
  return n;
}
