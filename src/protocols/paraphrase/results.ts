import { parseLetterAnswer } from '../../answers/letter.js';
import type { DatasetSource } from '../../data/provenance.js';
import type { Suite } from '../../run/types.js';
import type { Store } from '../../store/store.js';
import { PARAPHRASE_DEFAULTS, PHRASINGS } from './config.js';
import {
  importedScoredCells,
  importedSuiteSummary,
  importedTests,
  isImportedSuite,
} from './import/recorded.js';
import {
  type ParaphraseModelMetrics,
  type ParaphraseObservation,
  paraphraseLeaderboard,
  paraphraseMetrics,
} from './metrics.js';
import { questionOf } from './phrasings.js';
import { type ParaphraseTest, type ParaphraseTestMeta, paraphraseTests } from './suite.js';

/**
 * Everything the paraphrase report shows, rebuilt from the store alone: the suite's tests carry
 * the options, keys and letter maps; the cells carry the replies. Scoring (the letter parser) and
 * metrics are recomputed each time, so a parser fix re-scores old runs without a call.
 */

import type { ScoredCell } from './scored-cell.js';

export interface ParaphraseModelResult {
  label: string;
  identity: string;
  metrics: ParaphraseModelMetrics;
  cells: ScoredCell[];
}

export interface ParaphraseResults {
  suite: {
    hash: string;
    name: string;
    dataset: string;
    /** The harness whose runs were imported (docs/import.md); absent for paraphrase's own runs. */
    importedFrom?: string;
    /** The dataset's record (Hub commit, files, licence); absent for the built-in items. */
    datasetSource?: DatasetSource;
    items: number;
    itemIds: string[];
    categories: Record<string, number>;
    phrasings: string[];
    repeats: number;
    /** Items whose key a rule recomputed before the run. */
    keysVerified: number;
    reworded: { alternate: number; generator: number; generators: string[] };
  };
  settings: { seed: number; resamples: number; confidence: number; minCoverage: number };
  models: ParaphraseModelResult[];
  leaderboard: {
    /** Identities, best first (complete models only). */
    ranked: string[];
    /** Identities of models below the coverage threshold: reported, not ranked. */
    incomplete: string[];
  };
}

export interface LoadParaphraseOptions {
  /** Only these model identities (default: every model with cells for the suite). */
  models?: readonly string[];
  seed?: number;
  resamples?: number;
  confidence?: number;
  minCoverage?: number;
}

const REPLY_EXCERPT = 160;

export function loadParaphraseResults(
  store: Store,
  suiteHash: string,
  opts: LoadParaphraseOptions = {},
): ParaphraseResults {
  const stored = store.suites.get(suiteHash);
  if (!stored) throw new Error(`no suite ${suiteHash} in the store ${store.path}`);
  // Another harness's runs (docs/import.md) are scored by the verdicts it recorded, not the letter parser.
  const { suite, scored } = isImportedSuite(stored)
    ? importedParts(store, stored, opts.models)
    : ownParts(store, stored, opts.models);
  const settings = {
    seed: opts.seed ?? 0,
    resamples: opts.resamples ?? PARAPHRASE_DEFAULTS.resamples,
    confidence: opts.confidence ?? 0.95,
    minCoverage: opts.minCoverage ?? 0.9,
  };
  const design = { items: suite.itemIds, phrasings: suite.phrasings, repeats: suite.repeats };
  const models: ParaphraseModelResult[] = [...scored].map(([identity, { label, cells }]) => ({
    label,
    identity,
    cells,
    metrics: paraphraseMetrics(design, cells.map(toObservation), {
      seed: settings.seed,
      streamKey: identity,
      resamples: settings.resamples,
      confidence: settings.confidence,
      minCoverage: settings.minCoverage,
    }),
  }));
  const board = paraphraseLeaderboard(models);
  return {
    suite,
    settings,
    models,
    leaderboard: {
      ranked: board.ranked.map((m) => m.identity),
      incomplete: board.incomplete.map((m) => m.identity),
    },
  };
}

/** A suite paraphrase ran: its tests' meta, each cell scored by the letter parser. */
function ownParts(store: Store, stored: Suite, models: readonly string[] | undefined) {
  const tests = new Map(paraphraseTests(stored).map((t) => [t.id, t]));
  return {
    suite: suiteSummary(stored.hash, stored.name, [...tests.values()]),
    scored: scoredCells(store, stored.hash, tests, models),
  };
}

/** A suite imported from another harness: its variants, each cell scored by the recorded verdict. */
function importedParts(store: Store, stored: Suite, models: readonly string[] | undefined) {
  const tests = new Map(importedTests(stored).map((t) => [t.id, t]));
  return {
    suite: importedSuiteSummary(stored.hash, stored.name, [...tests.values()]),
    scored: importedScoredCells(store, stored.hash, tests, models),
  };
}

/** The suite as the report describes it: dataset, items and their categories, phrasings, repeats, keys and rewordings. */
function suiteSummary(
  hash: string,
  name: string,
  tests: readonly { meta: ParaphraseTestMeta; repeats?: number }[],
): ParaphraseResults['suite'] {
  const metas = tests.map((t) => t.meta);
  const itemIds = [...new Set(metas.map((m) => m.item))];
  const categories: Record<string, number> = {};
  const firstOf = new Map<string, ParaphraseTestMeta>();
  for (const m of metas) if (!firstOf.has(m.item)) firstOf.set(m.item, m);
  for (const m of firstOf.values()) categories[m.category] = (categories[m.category] ?? 0) + 1;
  const rewordedMetas = metas.filter((m) => m.phrasing === 'reworded');
  const generators = [
    ...new Set(
      rewordedMetas.flatMap((m) => (m.reworded?.kind === 'generator' ? [m.reworded.generator] : [])),
    ),
  ];
  return {
    hash,
    name,
    dataset: metas[0]?.dataset ?? 'unknown',
    ...(metas[0]?.datasetSource && { datasetSource: metas[0].datasetSource }),
    items: itemIds.length,
    itemIds,
    categories,
    phrasings: PHRASINGS.filter((p) => metas.some((m) => m.phrasing === p)),
    repeats: Math.max(...tests.map((t) => t.repeats ?? 1)),
    keysVerified: [...firstOf.values()].filter((m) => m.keyVerified).length,
    reworded: {
      alternate: rewordedMetas.filter((m) => m.reworded?.kind === 'alternate').length,
      generator: rewordedMetas.filter((m) => m.reworded?.kind === 'generator').length,
      generators,
    },
  };
}

/**
 * Each model's cells of the suite's tests (repeats past a test's own left out), scored; a model
 * asked for but with no cell at all is still reported (coverage 0), never dropped.
 */
function scoredCells(
  store: Store,
  suiteHash: string,
  tests: ReadonlyMap<string, ParaphraseTest>,
  models: readonly string[] | undefined,
): Map<string, { label: string; cells: ScoredCell[] }> {
  const wanted = models ? new Set(models) : undefined;
  const byModel = new Map<string, { label: string; cells: ScoredCell[] }>();
  for (const cell of store.cells.all({ suiteHash })) {
    if (wanted && !wanted.has(cell.modelIdentity)) continue;
    const test = tests.get(cell.testId);
    if (!test || cell.repeat >= (test.repeats ?? 1)) continue;
    const entry = byModel.get(cell.modelIdentity) ?? { label: cell.model, cells: [] };
    entry.label = cell.model;
    entry.cells.push(
      scoreCell(
        test.meta,
        cell.repeat,
        cell.status,
        cell.response?.text,
        cell.error,
        questionOf(test.prompt),
      ),
    );
    byModel.set(cell.modelIdentity, entry);
  }
  for (const id of models ?? []) if (!byModel.has(id)) byModel.set(id, { label: id, cells: [] });
  return byModel;
}

/**
 * One cell scored by the letter parser against the options as that phrasing showed them, and the
 * question it asked (a letter the question uses as a name is read as the name).
 */
export function scoreCell(
  meta: ParaphraseTestMeta,
  repeat: number,
  status: 'done' | 'failed',
  reply: string | undefined,
  error?: { kind: string; message: string },
  question?: string,
): ScoredCell {
  const base = { item: meta.item, phrasing: meta.phrasing, repeat, key: meta.key };
  if (status !== 'done' || reply === undefined)
    return {
      ...base,
      status: 'failed',
      correct: false,
      via: 'error',
      error: { kind: error?.kind ?? 'unknown', message: error?.message ?? 'no response stored' },
    };
  const parsed = parseLetterAnswer(reply, meta.options, question === undefined ? {} : { question });
  const excerpt = reply.length > REPLY_EXCERPT ? `${reply.slice(0, REPLY_EXCERPT)}…` : reply;
  if (parsed.letter === undefined)
    return {
      ...base,
      status: 'done',
      correct: false,
      via: 'unparsed',
      reason: parsed.reason,
      reply: excerpt,
    };
  return {
    ...base,
    status: 'done',
    given: parsed.letter,
    answer: meta.canonicalOf[parsed.letter] ?? parsed.letter,
    correct: parsed.letter === meta.key,
    via: parsed.via,
    reply: excerpt,
  };
}

/** A scored cell as the metrics read it. */
export function toObservation(c: ScoredCell): ParaphraseObservation {
  return {
    item: c.item,
    phrasing: c.phrasing,
    repeat: c.repeat,
    status: c.status,
    correct: c.correct,
    key: c.key,
    ...(c.answer !== undefined ? { answer: c.answer } : {}),
    given: c.given ?? (c.status === 'done' ? 'unparsed' : 'error'),
    ...(c.error ? { error: c.error } : {}),
    ...(c.reply !== undefined ? { note: c.reply } : {}),
  };
}
