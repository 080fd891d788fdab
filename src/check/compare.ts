import type { WaverConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { LadderConfigSchema } from '../protocols/ladder/config.js';
import { loadLadderResults } from '../protocols/ladder/results.js';
import { loadParaphraseResults } from '../protocols/paraphrase/results.js';
import { type PairedComparison, type PairedObservation, pairedComparison } from '../stats/paired.js';
import type { Store, SuiteModel } from '../store/store.js';
import { deriveSeed } from '../util/random.js';
import { type ProtocolSuite, protocolSuites } from './suites.js';

/**
 * "Did the upgrade make it less stable?": two models on the same suite, paired test by test
 * (docs/check.md#compare). Each (test, repeat) both answered is a pair of correctness verdicts;
 * McNemar's exact test on the discordant pairs gives the p-value, and a cluster bootstrap (seeds
 * for the ladder, items for paraphrase) the CI of the accuracy difference. The new model is
 * significantly worse when both agree: p < alpha with more base-only wins, and the (1 - alpha)
 * CI of new - base entirely below 0.
 */

export type CompareProtocol = 'ladder' | 'paraphrase';

export interface ModelRef {
  label: string;
  identity: string;
}

export interface CompareResult {
  protocol: CompareProtocol;
  suite: ProtocolSuite;
  base: ModelRef;
  new: ModelRef;
  alpha: number;
  /** What a pair and a cluster are. */
  unit: { pair: string; cluster: string };
  comparison: PairedComparison;
  /** Answers without a partner, or without a verdict (a KB response not judged). */
  unpaired: { base: number; new: number; unscored: number };
  worse: boolean;
  better: boolean;
  verdict: string;
}

export interface CompareOptions {
  config: WaverConfig;
  base: string;
  new: string;
  protocol?: CompareProtocol;
  /** A suite chosen with --suite. */
  suite?: ProtocolSuite;
  alpha: number;
}

export function compareModels(store: Store, opts: CompareOptions): CompareResult {
  const { suite, protocol } = pickSuite(store, opts);
  const base = resolveModel(store, suite.hash, opts.base, 'base');
  const next = resolveModel(store, suite.hash, opts.new, 'new');
  if (base.identity === next.identity)
    throw new InputError(`base and new are the same model (${base.identity})`, { field: '--compare' });
  const { pairs, unpaired, unit } =
    protocol === 'ladder'
      ? ladderPairs(store, suite.hash, base, next, opts.config)
      : paraphrasePairs(store, suite.hash, base, next, opts.config);
  const comparison = pairedComparison(pairs, {
    seed: deriveSeed(opts.config.seed, 'check-compare', base.identity, next.identity),
    confidence: 1 - opts.alpha,
  });
  const { b, c, p } = comparison.mcnemar;
  const d = comparison.difference;
  const worse = p < opts.alpha && b > c && d.high !== undefined && d.high < 0;
  const better = p < opts.alpha && c > b && d.low !== undefined && d.low > 0;
  const verdict =
    comparison.n === 0
      ? 'no pairs: the two models have no test answered by both'
      : worse
        ? `new is significantly worse at alpha ${opts.alpha}`
        : better
          ? `new is significantly better at alpha ${opts.alpha}`
          : p < opts.alpha
            ? `McNemar p < ${opts.alpha}, but the clustered CI of the difference includes 0: not significant once pairs that share a ${unit.cluster} are allowed to be correlated`
            : `no significant difference at alpha ${opts.alpha}`;
  return {
    protocol,
    suite,
    base,
    new: next,
    alpha: opts.alpha,
    unit,
    comparison,
    unpaired,
    worse,
    better,
    verdict,
  };
}

function pickSuite(store: Store, opts: CompareOptions): { suite: ProtocolSuite; protocol: CompareProtocol } {
  if (opts.suite) {
    if (opts.suite.protocol === 'sago')
      throw new InputError(
        'a paired comparison needs a ladder or paraphrase suite (sago has no correctness)',
        { field: '--suite' },
      );
    if (opts.protocol && opts.protocol !== opts.suite.protocol)
      throw new InputError(`--suite is a ${opts.suite.protocol} suite but --protocol is ${opts.protocol}`, {
        field: '--protocol',
      });
    return { suite: opts.suite, protocol: opts.suite.protocol };
  }
  const candidates: ProtocolSuite[] = [];
  for (const protocol of opts.protocol ? [opts.protocol] : (['ladder', 'paraphrase'] as const)) {
    // The most recent suite of the protocol that both models answered.
    const hash = protocolSuites(store, protocol).find(
      (h) => hasModel(store, h, opts.base) && hasModel(store, h, opts.new),
    );
    if (hash)
      candidates.push({ protocol, hash, name: protocol === 'ladder' ? 'ladder/tests' : 'paraphrase/items' });
  }
  const [first, second] = candidates;
  if (!first)
    throw new InputError(
      `no ${opts.protocol ?? 'ladder or paraphrase'} suite in ${store.path} has cells of both '${opts.base}' and '${opts.new}'`,
      { field: '--compare' },
    );
  if (second)
    throw new InputError(
      'both a ladder and a paraphrase suite have both models: pass --protocol ladder|paraphrase',
      {
        field: '--protocol',
      },
    );
  return { suite: first, protocol: first.protocol as CompareProtocol };
}

function hasModel(store: Store, suiteHash: string, name: string): boolean {
  return store.modelsOfSuite(suiteHash).some((r) => r.model === name || r.modelIdentity === name);
}

/** A model by its label or identity; a label shared by two identities must be given as an identity. */
function resolveModel(store: Store, suiteHash: string, name: string, role: string): ModelRef {
  const rows = store.modelsOfSuite(suiteHash);
  const byIdentity = rows.find((r) => r.modelIdentity === name);
  if (byIdentity) return { label: byIdentity.model, identity: byIdentity.modelIdentity };
  const byLabel = rows.filter((r) => r.model === name);
  if (byLabel.length === 1) {
    const r = byLabel[0] as SuiteModel;
    return { label: r.model, identity: r.modelIdentity };
  }
  if (byLabel.length > 1)
    throw new InputError(
      `${role} model '${name}' names ${byLabel.length} identities in suite ${suiteHash.slice(0, 12)}; give one of: ${byLabel.map((r) => r.modelIdentity).join(', ')}`,
      { field: '--compare' },
    );
  throw new InputError(
    `${role} model '${name}' has no cells in suite ${suiteHash.slice(0, 12)} (models there: ${rows.map((r) => r.model).join(', ') || 'none'})`,
    { field: '--compare' },
  );
}

interface Pairing {
  pairs: PairedObservation[];
  unpaired: CompareResult['unpaired'];
  unit: CompareResult['unit'];
}

/** One model's verdict on a cell: undefined when it was not scored. */
interface Verdict {
  cluster: string;
  correct: boolean | undefined;
}

/** Joins two models' verdicts on a key; a verdict of undefined (not scored) leaves the pair out. */
function join(baseCells: Map<string, Verdict>, newCells: Map<string, Verdict>): Omit<Pairing, 'unit'> {
  const pairs: PairedObservation[] = [];
  let unscored = 0;
  let baseOnly = 0;
  for (const [key, b] of baseCells) {
    const n = newCells.get(key);
    if (!n) {
      baseOnly++;
      continue;
    }
    if (b.correct === undefined || n.correct === undefined) {
      unscored++;
      continue;
    }
    pairs.push({ cluster: b.cluster, base: b.correct, new: n.correct });
  }
  let newOnly = 0;
  for (const key of newCells.keys()) if (!baseCells.has(key)) newOnly++;
  return { pairs, unpaired: { base: baseOnly, new: newOnly, unscored } };
}

/** Loads one protocol's results for the two models and pairs their cells. */
type PairingLoader = (
  store: Store,
  hash: string,
  base: ModelRef,
  next: ModelRef,
  config: WaverConfig,
) => Pairing;

/** Pairs the two models' cells of one protocol's results; `verdict` gives a cell's pairing key and verdict. */
function pairCells<C>(
  models: readonly { identity: string; cells: readonly C[] }[],
  base: ModelRef,
  next: ModelRef,
  verdict: (cell: C) => [key: string, Verdict],
  unit: Pairing['unit'],
): Pairing {
  const verdicts = (identity: string) =>
    new Map((models.find((x) => x.identity === identity)?.cells ?? []).map(verdict));
  return { ...join(verdicts(base.identity), verdicts(next.identity)), unit };
}

/**
 * Ladder pairs: (test, repeat), clustered by seed. A numeric answer is correct when it scores 1; a
 * Knowledge Boundary response when its rubric score recognises the boundary (>= the threshold).
 * Failed calls are incorrect (DESIGN.md); KB responses without a verdict are left out.
 */
const ladderPairs: PairingLoader = (store, hash, base, next, config) => {
  const settings = LadderConfigSchema.parse(config.ladder ?? {});
  const results = loadLadderResults(store, hash, {
    settings,
    seed: config.seed,
    minCoverage: config.minCoverage,
    models: [base, next],
  });
  return pairCells(
    results.models,
    base,
    next,
    (c) => {
      const correct =
        c.score === undefined
          ? undefined
          : c.family === 'KB'
            ? c.score >= settings.kbRecognizeThreshold
            : c.score >= 1;
      return [`${c.testId}\u0000${c.repeat}`, { cluster: c.seedId, correct }];
    },
    { pair: 'test x repeat', cluster: 'seed' },
  );
};

/** Paraphrase pairs: (item, phrasing, repeat), clustered by item; failed or unparsed answers are wrong. */
const paraphrasePairs: PairingLoader = (store, hash, base, next, config) => {
  // The pairs need the scored cells only; one resample keeps the loader's own CIs cheap.
  const results = loadParaphraseResults(store, hash, {
    models: [base.identity, next.identity],
    seed: config.seed,
    resamples: 1,
  });
  return pairCells(
    results.models,
    base,
    next,
    (c) => [`${c.item}\u0000${c.phrasing}\u0000${c.repeat}`, { cluster: c.item, correct: c.correct }],
    { pair: 'item x phrasing x repeat', cluster: 'item' },
  );
};
