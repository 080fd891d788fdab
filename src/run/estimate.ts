import type { WaverConfig } from '../config/schema.js';
import { PRICES_AS_OF } from '../models/providers/list-prices.js';
import { describeProvider } from '../models/registry.js';
import type { ModelSpec } from '../models/spec.js';
import { estimateTokens } from './call-path/rate-limit.js';
import type { PlannedModel } from './plan.js';
import type { Cell } from './types.js';

/** Who is asked: the systems under test (`model`), or a role of the run. */
export type EstimateRole = 'model' | 'judge' | 'generator' | 'embedder';

/**
 * One row of what `--dry-run` prints: a model's calls in one role and stage
 * (docs/decisions.md#e39-a-dry-run-calls-nothing-and-bounds-what-it-cannot-count).
 */
export interface ModelEstimate {
  label: string;
  role: EstimateRole;
  /** The suite (or stage) the calls belong to, where a role is asked in several (`ladder/kb-judge`). */
  stage?: string;
  cells: number;
  /** Cells whose response is already in the store (no call will be made). */
  stored: number;
  calls: number;
  /** Prompt tokens of the calls, estimated at ~4 characters a token. */
  inputTokens: number;
  /** Upper bound: every call uses its whole output cap, as its request sends it. */
  maxOutputTokens: number;
  /**
   * The calls (so the tokens and cost) are at most these: how many the run makes depends on
   * answers not given yet (a gate's verdicts, the responses a judge reads).
   */
  bound?: true;
  /** USD, an upper bound from list prices (or the model's `price`); undefined when no price is known. */
  maxCostUsd?: number;
  priceSource?: string;
  /** Sent through the provider's batch API (`batch` on): priced at half (docs/batch.md#price). */
  batch?: true;
}

/** What the rows of one stage are: the role and stage they are asked in, and whether their calls are a bound. */
export interface EstimateStage {
  role: EstimateRole;
  stage?: string;
  bound?: boolean;
}

/** Batch requests cost half the listed price (OpenAI's and Anthropic's batch discount). */
export const BATCH_PRICE_FACTOR = 0.5;

/**
 * What `--dry-run` prints for a suite's cells: calls, tokens and cost before anything is spent.
 * Each cell's output cap is its request's (`planCells` resolved it), never the config's.
 */
export function estimateRun(
  cells: Iterable<Cell>,
  models: readonly PlannedModel[],
  config: WaverConfig,
  storedCount: (model: PlannedModel) => number,
  /** A test's repeats (its own, else the config's). */
  repeatsOf: (testId: string) => number = () => config.repeats,
  as: EstimateStage = { role: 'model' },
): ModelEstimate[] {
  // One pass over the cells (a generator), counting per model. The repeats of a test share its
  // request: its first stands for all (`--repeats 1e9` is counted, not iterated).
  const counts = new Map<string, { cells: number; input: number; output: number }>();
  for (const c of cells) {
    if (c.repeat !== 0) continue;
    const times = repeatsOf(c.testId);
    const n = counts.get(c.model) ?? { cells: 0, input: 0, output: 0 };
    n.cells += times;
    n.input += times * estimateTokens({ messages: c.request.messages });
    n.output += times * (c.request.maxTokens ?? 0);
    counts.set(c.model, n);
  }
  return models.map((model) => {
    const own = counts.get(model.label) ?? { cells: 0, input: 0, output: 0 };
    const stored = config.cache ? Math.min(storedCount(model), own.cells) : 0;
    const calls = own.cells - stored;
    // The cells still to call: their share of the totals, as cells differ little in a suite.
    const share = (total: number) => (own.cells === 0 ? 0 : Math.round((total * calls) / own.cells));
    return priced(
      {
        label: model.label,
        ...stageOf(as),
        cells: own.cells,
        stored,
        calls,
        inputTokens: share(own.input),
        maxOutputTokens: share(own.output),
      },
      model.spec,
      config,
    );
  });
}

/** The role and stage fields of a row, `bound` only when set. */
export function stageOf(as: EstimateStage): Pick<ModelEstimate, 'role' | 'stage' | 'bound'> {
  return {
    role: as.role,
    ...(as.stage !== undefined && { stage: as.stage }),
    ...(as.bound && { bound: true }),
  };
}

/**
 * The row with its cost: the model's own `price`, else the list price of a hosted model; a local
 * provider (its descriptor's `local`) costs nothing; `batch` on halves the price of the providers that batch.
 */
export function priced(
  estimate: ModelEstimate,
  spec: ModelSpec,
  config: Pick<WaverConfig, 'batch'>,
): ModelEstimate {
  const provider = describeProvider(spec.provider);
  const price = spec.price ?? provider?.listPrice?.(spec.model, spec.baseURL);
  const priceSource = spec.price ? 'config' : price ? `list prices ${PRICES_AS_OF}` : undefined;
  const batched = config.batch && provider?.batch === true;
  const out: ModelEstimate = { ...estimate, ...(batched && { batch: true as const }) };
  if (price) {
    const listed = (estimate.inputTokens * price.input + estimate.maxOutputTokens * price.output) / 1e6;
    out.maxCostUsd = batched ? listed * BATCH_PRICE_FACTOR : listed;
    out.priceSource = batched ? `${priceSource}, batch: half price` : priceSource;
  } else if (provider?.local) {
    out.maxCostUsd = 0;
    out.priceSource = 'local';
  }
  return out;
}

/**
 * A row of calls that are not a suite's cells (embeddings, hidden states, teacher-forced scores):
 * no output tokens, priced by their input where a price is known, never batched.
 */
export function auxEstimate(
  model: PlannedModel,
  as: EstimateStage,
  calls: number,
  inputTokens: number,
): ModelEstimate {
  const row = {
    label: model.label,
    ...stageOf(as),
    cells: calls,
    stored: 0,
    calls,
    inputTokens,
    maxOutputTokens: 0,
  };
  return priced(row, model.spec, { batch: false });
}

/** Rows of one model, role and stage (a role's batches, sago's models one by one) added into one. */
export function sumEstimates(rows: readonly ModelEstimate[]): ModelEstimate[] {
  const out = new Map<string, ModelEstimate>();
  for (const r of rows) {
    const key = JSON.stringify([r.label, r.role, r.stage]);
    const sum = out.get(key);
    if (!sum) {
      out.set(key, { ...r });
      continue;
    }
    sum.cells += r.cells;
    sum.stored += r.stored;
    sum.calls += r.calls;
    sum.inputTokens += r.inputTokens;
    sum.maxOutputTokens += r.maxOutputTokens;
    if (r.bound) sum.bound = true;
    if (sum.maxCostUsd !== undefined && r.maxCostUsd !== undefined) sum.maxCostUsd += r.maxCostUsd;
  }
  return [...out.values()];
}

/**
 * A stand-in for an answer not given yet, as long as its output cap lets it be at ~4 characters a
 * token: what a judge that reads the answer is estimated to be sent.
 */
export function answerAtMost(maxTokens: number | undefined): string {
  return 'x'.repeat(4 * (maxTokens ?? 0));
}
