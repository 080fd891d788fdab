import type { WaverConfig } from '../config/schema.js';
import { PRICES_AS_OF } from '../models/providers/list-prices.js';
import { describeProvider } from '../models/registry.js';
import type { PlannedModel } from './plan.js';
import { estimateTokens } from './rate-limit.js';
import type { Cell } from './types.js';

export interface ModelEstimate {
  label: string;
  cells: number;
  /** Cells whose response is already in the store (no call will be made). */
  stored: number;
  calls: number;
  /** Prompt tokens of the calls, estimated at ~4 characters a token. */
  inputTokens: number;
  /** Upper bound: every call uses its whole `maxTokens`. */
  maxOutputTokens: number;
  /** USD, an upper bound from list prices (or the model's `price`); undefined when no price is known. */
  maxCostUsd?: number;
  priceSource?: string;
  /** Sent through the provider's batch API (`batch` on): priced at half (docs/batch.md#price). */
  batch?: true;
}

/** Batch requests cost half the listed price (OpenAI's and Anthropic's batch discount). */
export const BATCH_PRICE_FACTOR = 0.5;

/** What `--dry-run` prints: calls, tokens and cost before anything is spent. */
export function estimateRun(
  cells: Iterable<Cell>,
  models: readonly PlannedModel[],
  config: WaverConfig,
  storedCount: (model: PlannedModel) => number,
  /** A test's repeats (its own, else the config's). */
  repeatsOf: (testId: string) => number = () => config.repeats,
): ModelEstimate[] {
  // One pass over the cells (a generator), counting per model. The repeats of a test share its
  // request: its first stands for all (`--repeats 1e9` is counted, not iterated).
  const counts = new Map<string, { cells: number; input: number }>();
  for (const c of cells) {
    if (c.repeat !== 0) continue;
    const times = repeatsOf(c.testId);
    const n = counts.get(c.model) ?? { cells: 0, input: 0 };
    n.cells += times;
    n.input += times * estimateTokens({ messages: c.request.messages });
    counts.set(c.model, n);
  }
  return models.map((model) => {
    const own = counts.get(model.label) ?? { cells: 0, input: 0 };
    const stored = config.cache ? Math.min(storedCount(model), own.cells) : 0;
    const calls = own.cells - stored;
    // Prompt tokens of the cells still to call: the share of the total, as cells differ little in a suite.
    const inputTokens = own.cells === 0 ? 0 : Math.round((own.input * calls) / own.cells);
    const maxOutputTokens = calls * config.params.maxTokens;
    const provider = describeProvider(model.spec.provider);
    const price = model.spec.price ?? provider?.listPrice?.(model.spec.model, model.spec.baseURL);
    const priceSource = model.spec.price ? 'config' : price ? `list prices ${PRICES_AS_OF}` : undefined;
    const estimate: ModelEstimate = {
      label: model.label,
      cells: own.cells,
      stored,
      calls,
      inputTokens,
      maxOutputTokens,
    };
    const batched = config.batch && provider?.batch === true;
    if (batched) estimate.batch = true;
    if (price) {
      const listed = (inputTokens * price.input + maxOutputTokens * price.output) / 1e6;
      estimate.maxCostUsd = batched ? listed * BATCH_PRICE_FACTOR : listed;
      estimate.priceSource = batched ? `${priceSource}, batch: half price` : priceSource;
    } else if (provider?.local) {
      estimate.maxCostUsd = 0;
      estimate.priceSource = 'local';
    }
    return estimate;
  });
}
