import type { DatasetSource } from '../../data/provenance.js';
import type { Store } from '../../store/store.js';
import { type VarianceFigure, varianceFigure } from '../variance-figure.js';
import { type SpreadComparison, spreadComparisons } from './compare.js';
import {
  type CellObservation,
  estimateSpread,
  type Interval,
  type SpreadEstimate,
} from './estimators/index.js';
import type { SpreadEstimator } from './estimators/names.js';
import { storedOptionScores } from './option-scores.js';
import { type PosixFigure, posixFromStore, posixGroups } from './posix-scores.js';
import { readAnswer } from './read-answer.js';
import { type SpreadTest, spreadTests } from './suite.js';

/**
 * Everything the spread report shows, rebuilt from the store alone: the tests carry the grid, the
 * labels and keys; the cells the replies. Scoring and the estimate are recomputed each time.
 */

export interface ScoredSpreadCell {
  template: number;
  item: number;
  testId: string;
  repeat: number;
  status: 'done' | 'failed';
  correct: boolean;
  via: string;
  choice?: number;
  /** Options the cell's item has. */
  options?: number;
  reply?: string;
  error?: { kind: string; message: string };
}

export interface QuotedTemplate extends Interval {
  template: number;
  id: string;
  text: string;
}

export interface SpreadModelResult {
  label: string;
  identity: string;
  /** Cells asked (done and failed); a failed cell is counted, never dropped, and is no observation. */
  calls: number;
  done: number;
  failed: number;
  unparsed: number;
  /** Answered cells whose choice is the most likely label (`loglik`) or read from the reply (`reply`). */
  scoredBy: { loglik: number; reply: number };
  /** Teacher-forced score calls behind the loglik cells (one per option), beside the cells' calls. */
  scoreCalls: number;
  /** Undefined when no cell was answered: every figure is then unavailable. */
  estimate?: SpreadEstimate;
  best?: QuotedTemplate;
  worst?: QuotedTemplate;
  /** POSIX over the items answered under 2 or more templates (docs/spread.md#posix), or why not. */
  posix: PosixFigure;
  /** Where the variance of the answered cells comes from: item, template (docs/spread.md#variance). */
  variance: VarianceFigure;
  cells: ScoredSpreadCell[];
}

export interface SpreadResults {
  suite: {
    hash: string;
    name: string;
    dataset: string;
    datasetSource?: DatasetSource;
    templates: number;
    items: number;
    grid: number;
    /** Cells the plan asks of each model. */
    planned: number;
    search?: 'best' | 'worst';
    /** Each template's id and quoted text, by index. */
    templateTexts: { id: string; text: string }[];
  };
  settings: { seed: number; level: number; estimator: SpreadEstimator };
  models: SpreadModelResult[];
  /** The paired comparison of each model with the first, template by template. */
  comparisons: SpreadComparison[];
}

const REPLY_EXCERPT = 160;

export function scoreSpreadCell(
  test: SpreadTest,
  repeat: number,
  status: 'done' | 'failed',
  reply: string | undefined,
  error?: { kind: string; message: string },
  optionScores?: readonly number[],
): ScoredSpreadCell {
  const base = {
    template: test.meta.template.index,
    item: test.meta.item.index,
    testId: test.id,
    repeat,
    options: test.meta.options.length,
  };
  if (status !== 'done' || reply === undefined)
    return {
      ...base,
      status: 'failed',
      correct: false,
      via: 'error',
      error: { kind: error?.kind ?? 'unknown', message: error?.message ?? 'no response stored' },
    };
  const read = optionScores ? mostLikely(optionScores) : readAnswer(reply, test.meta);
  const excerpt = reply.length > REPLY_EXCERPT ? `${reply.slice(0, REPLY_EXCERPT)}…` : reply;
  return {
    ...base,
    status: 'done',
    correct: read.choice === test.meta.key,
    via: read.via,
    ...(read.choice !== undefined && { choice: read.choice }),
    reply: excerpt,
  };
}

/** The option whose label the model scores highest after the prompt. */
function mostLikely(scores: readonly number[]): { choice: number; via: 'loglik' } {
  let choice = 0;
  scores.forEach((s, k) => {
    if (s > (scores[choice] ?? Number.NEGATIVE_INFINITY)) choice = k;
  });
  return { choice, via: 'loglik' };
}

/** The observations an estimate reads: answered cells only (a failed call is no evidence of the template). */
export function observationsOf(cells: readonly ScoredSpreadCell[]): CellObservation[] {
  return cells
    .filter((c) => c.status === 'done')
    .map((c) => ({ template: c.template, item: c.item, correct: c.correct ? 1 : 0 }));
}

export function loadSpreadResults(
  store: Store,
  suiteHash: string,
  opts: { models?: readonly string[]; seed?: number; level?: number; estimator?: SpreadEstimator } = {},
): SpreadResults {
  const stored = store.suites.get(suiteHash);
  if (!stored) throw new Error(`no suite ${suiteHash} in the store ${store.path}`);
  const tests = new Map(spreadTests(stored).map((t) => [t.id, t]));
  const suite = suiteSummary(suiteHash, stored.name, [...tests.values()]);
  const settings = {
    seed: opts.seed ?? 0,
    level: opts.level ?? 0.95,
    estimator: opts.estimator ?? 'deconvolved',
  };
  const byModel = scoredCells(store, suiteHash, tests, opts.models);
  const models = [...byModel].map(([identity, { label, cells, replies }]) => {
    const posix = posixFromStore(store, suiteHash, identity, posixGroups(replies, tests), settings.level);
    const variance = spreadVariance(cells, settings.seed);
    return { ...modelResult(suite, settings, label, identity, cells), posix, variance };
  });
  return { suite, settings, models, comparisons: spreadComparisons(suite, models, settings) };
}

function modelResult(
  suite: SpreadResults['suite'],
  settings: SpreadResults['settings'],
  label: string,
  identity: string,
  cells: ScoredSpreadCell[],
): Omit<SpreadModelResult, 'posix' | 'variance'> {
  const observations = observationsOf(cells);
  const counts = {
    calls: cells.length,
    done: cells.filter((c) => c.status === 'done').length,
    failed: cells.filter((c) => c.status === 'failed').length,
    unparsed: cells.filter((c) => c.via === 'unparsed').length,
    scoredBy: {
      loglik: cells.filter((c) => c.via === 'loglik').length,
      reply: cells.filter((c) => c.status === 'done' && c.via !== 'loglik').length,
    },
    scoreCalls: cells.reduce((n, c) => n + (c.via === 'loglik' ? (c.options ?? 0) : 0), 0),
  };
  if (observations.length === 0) return { label, identity, ...counts, cells };
  const estimate = estimateSpread(
    { nTemplates: suite.templates, nItems: suite.items, observations, seed: settings.seed },
    { level: settings.level, method: settings.estimator },
  );
  const quote = (x: { template: number } & Interval): QuotedTemplate => ({
    ...x,
    id: suite.templateTexts[x.template]?.id ?? String(x.template),
    text: suite.templateTexts[x.template]?.text ?? '',
  });
  return {
    label,
    identity,
    ...counts,
    estimate,
    best: quote(estimate.best),
    worst: quote(estimate.worst),
    cells,
  };
}

/** Item x template over the answered cells (a spread cell has one option order, asked once). */
function spreadVariance(cells: readonly ScoredSpreadCell[], seed: number): VarianceFigure {
  const answered = cells
    .filter((c) => c.status === 'done')
    .map((c) => ({
      item: String(c.item),
      factors: { template: String(c.template) },
      correct: c.correct ? 1 : 0,
    }));
  return varianceFigure(answered, { factors: ['template'], seed });
}

function suiteSummary(hash: string, name: string, tests: readonly SpreadTest[]): SpreadResults['suite'] {
  const first = tests[0]?.meta;
  const templates = first?.grid.templates ?? 0;
  const items = first?.grid.items ?? 0;
  const templateTexts = Array.from({ length: templates }, (_, i) => ({ id: String(i), text: '' }));
  for (const t of tests)
    templateTexts[t.meta.template.index] = { id: t.meta.template.id, text: t.meta.template.text };
  return {
    hash,
    name,
    dataset: first?.dataset ?? 'unknown',
    ...(first?.datasetSource && { datasetSource: first.datasetSource }),
    templates,
    items,
    grid: templates * items,
    planned: tests.length,
    ...(first?.search && { search: first.search }),
    templateTexts,
  };
}

interface ModelCells {
  label: string;
  cells: ScoredSpreadCell[];
  /** Each answered cell's whole reply (the scored cells keep an excerpt), for POSIX. */
  replies: { testId: string; reply: string | undefined }[];
}

/** Each model's cells scored; a model asked for with no cell at all is still reported, never dropped. */
function scoredCells(
  store: Store,
  suiteHash: string,
  tests: ReadonlyMap<string, SpreadTest>,
  models: readonly string[] | undefined,
): Map<string, ModelCells> {
  const wanted = models ? new Set(models) : undefined;
  const byModel = new Map<string, ModelCells>();
  for (const cell of store.cells.all({ suiteHash })) {
    if (wanted && !wanted.has(cell.modelIdentity)) continue;
    const test = tests.get(cell.testId);
    if (!test || cell.repeat >= (test.repeats ?? 1)) continue;
    const entry = byModel.get(cell.modelIdentity) ?? { label: cell.model, cells: [], replies: [] };
    if (cell.status === 'done') entry.replies.push({ testId: cell.testId, reply: cell.response?.text });
    const scores = cell.status === 'done' ? storedOptionScores(store, cell.modelIdentity, test) : undefined;
    entry.cells.push(
      scoreSpreadCell(test, cell.repeat, cell.status, cell.response?.text, cell.error, scores),
    );
    byModel.set(cell.modelIdentity, entry);
  }
  if (!models) return byModel;
  // In the order asked (the config's), so the comparison's base is the first model named.
  return new Map(models.map((id) => [id, byModel.get(id) ?? { label: id, cells: [], replies: [] }]));
}
