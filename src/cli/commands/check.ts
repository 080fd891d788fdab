import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { type CompareProtocol, type CompareResult, compareModels } from '../../check/compare.js';
import { type CheckResult, evaluateThresholds } from '../../check/evaluate.js';
import { formatCheck } from '../../check/format.js';
import { chooseSuites, type Protocol, type ProtocolSuite } from '../../check/suites.js';
import {
  mergeRules,
  parseRuleFlag,
  rulesFromConfig,
  type ThresholdMetric,
  type ThresholdRule,
} from '../../check/thresholds.js';
import { resolveConfig } from '../../config/load.js';
import { InputError } from '../../errors.js';
import { openStore } from '../../store/store.js';
import { splitList } from '../options.js';
import { EXIT, emit } from '../output.js';

/**
 * `waver check`: a CI gate over a store. Thresholds (waver.yaml `check:` or flags) evaluated per
 * model, and/or a paired comparison of two models; exit 0 when everything passes, 4 otherwise
 * (docs/check.md). Reads the store only.
 */
export function checkCommand(): Command {
  const collect = (v: string, prev: string[]) => [...prev, v];
  const cmd = new Command('check')
    .description('gate on thresholds (and compare two models): exit 0 when all pass, 4 when any fails')
    .option('-c, --config <file>', 'config file (default: ./waver.yaml when present)')
    .option('--store <file>', 'SQLite store (default .waver/store.db)')
    .option(
      '--suite <hash>',
      'check this suite (hash or 8+ character prefix) instead of the latest of its protocol',
      collect,
      [],
    )
    .option(
      '--min-stability <[FAMILY=]X>',
      'minimum ladder Stability, per family (SV=0.8) or every family (0.8)',
      collect,
      [],
    )
    .option(
      '--no-collapse-at-or-below <[FAMILY=]LEVEL>',
      'fail on a ladder Collapse Point at or below this level',
      collect,
      [],
    )
    .option('--min-saa <X>', 'minimum paraphrase Stability-Adjusted Accuracy', collect, [])
    .option(
      '--max-sgs <[AXIS=]X>',
      'maximum SAGO SGS (all prompts), per axis (bleu=0.1) or every axis',
      collect,
      [],
    )
    .option('--min-coverage <X>', 'minimum share of done cells per model, every protocol', collect, [])
    .option('--allow-unavailable', 'a metric a model lacks passes instead of failing')
    .option(
      '--compare <BASE,NEW>',
      'paired comparison of two models (labels or identities) on the same suite',
    )
    .addOption(new Option('--protocol <name>', 'suite of the comparison').choices(['ladder', 'paraphrase']))
    .option('--alpha <a>', 'significance level of the comparison (default 0.05)')
    .option('--seed <n>', 'seed of the bootstraps')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json']))
    .option('--out <file>', 'also write the output to this file');
  cmd.action(async () => {
    process.exitCode = executeCheck(cmd);
  });
  return cmd;
}

interface CheckFlags {
  config?: string;
  store?: string;
  suite: string[];
  minStability: string[];
  collapseAtOrBelow: string[] | boolean;
  minSaa: string[];
  maxSgs: string[];
  minCoverage: string[];
  allowUnavailable?: boolean;
  compare?: string;
  protocol?: CompareProtocol;
  alpha?: string;
  seed?: string;
  format?: 'md' | 'json';
  out?: string;
}

function executeCheck(cmd: Command): number {
  const o = cmd.opts<CheckFlags>();
  // Every flag is checked before the store is opened: bad input reads nothing.
  const seed = o.seed === undefined ? undefined : integer(o.seed, '--seed');
  const config = resolveConfig({
    file: o.config,
    flags: { store: o.store, format: o.format, out: o.out, seed },
  });
  const flagRules: ThresholdRule[] = [];
  const add = (metric: ThresholdMetric, values: string[] | boolean) => {
    if (Array.isArray(values) && values.length > 0) flagRules.push(...parseRuleFlag(metric, values));
  };
  add('min-stability', o.minStability);
  add('no-collapse-at-or-below', o.collapseAtOrBelow);
  add('min-saa', o.minSaa);
  add('max-sgs', o.maxSgs);
  add('min-coverage', o.minCoverage);
  const rules = mergeRules(rulesFromConfig(config.check), flagRules);
  const alpha = o.alpha === undefined ? (config.check?.alpha ?? 0.05) : share(o.alpha, '--alpha');
  const allowUnavailable = o.allowUnavailable ?? config.check?.allowUnavailable ?? false;
  let pair: [string, string] | undefined;
  if (o.compare !== undefined) {
    const names = splitList(o.compare);
    if (names.length !== 2)
      throw new InputError(`expected BASE_MODEL,NEW_MODEL, got '${o.compare}'`, { field: '--compare' });
    pair = names as [string, string];
  } else if (o.protocol !== undefined)
    throw new InputError('--protocol applies to --compare only', { field: '--protocol' });
  if (rules.length === 0 && !pair)
    throw new InputError(
      'nothing to check: give a threshold (e.g. --min-stability 0.8, --min-saa 0.6, or check: in waver.yaml) or --compare BASE,NEW',
    );
  if (!existsSync(config.store))
    throw new InputError('store not found', { field: '--store', file: config.store });

  const store = openStore(config.store);
  try {
    const suites = chooseSuites(store, o.suite);
    let thresholds: CheckResult | undefined;
    let compare: CompareResult | undefined;
    if (rules.length > 0) thresholds = evaluateThresholds(store, { config, rules, suites, allowUnavailable });
    if (pair) {
      const chosen = comparedSuite(chooseSuites(store, o.suite, { latest: false }), o.protocol);
      compare = compareModels(store, {
        config,
        base: pair[0],
        new: pair[1],
        alpha,
        ...(o.protocol && { protocol: o.protocol }),
        ...(chosen && { suite: chosen }),
      });
    }
    const pass = (thresholds?.pass ?? true) && !(compare?.worse ?? false);
    emit(formatCheck({ store: config.store, thresholds, compare, pass }, config.format), config.out);
    return pass ? EXIT.ok : EXIT.checkFailed;
  } finally {
    store.close();
  }
}

/** The suite `--suite` named for the comparison, if any (a sago suite is refused by compareModels). */
function comparedSuite(
  explicit: Partial<Record<Protocol, ProtocolSuite>>,
  protocol: CompareProtocol | undefined,
): ProtocolSuite | undefined {
  if (protocol) return explicit[protocol];
  const given = [explicit.ladder, explicit.paraphrase].filter((s) => s !== undefined);
  if (given.length > 1)
    throw new InputError('--suite names a ladder and a paraphrase suite: pass --protocol to compare on one', {
      field: '--protocol',
    });
  return given[0] ?? explicit.sago;
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
