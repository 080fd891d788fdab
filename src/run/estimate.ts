import type { WaverConfig } from '../config/schema.js';
import type { PlannedModel } from './plan.js';
import { listPrice, PRICES_AS_OF } from './prices.js';
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
  /** Upper bound: every call uses its whole output cap, as its request sends it. */
  maxOutputTokens: number;
  /** USD, an upper bound from list prices (or the model's `price`); undefined when no price is known. */
  maxCostUsd?: number;
  priceSource?: string;
  /** Sent through the provider's batch API (`batch` on): priced at half (docs/batch.md#price). */
  batch?: true;
}

/** Providers whose models go through a batch API when `batch` is on. */
const BATCH_PROVIDERS: ReadonlySet<string> = new Set(['openai', 'anthropic']);

/** Batch requests cost half the listed price (OpenAI's and Anthropic's batch discount). */
export const BATCH_PRICE_FACTOR = 0.5;

/**
 * What `--dry-run` prints: calls, tokens and cost before anything is spent. Each cell's output cap
 * is its request's (`planCells` resolved it), never the config's.
 */
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
    const inputTokens = share(own.input);
    const maxOutputTokens = share(own.output);
    const price = model.spec.price ?? listPrice(model.spec.provider, model.spec.model, model.spec.baseURL);
    const priceSource = model.spec.price ? 'config' : price ? `list prices ${PRICES_AS_OF}` : undefined;
    const estimate: ModelEstimate = {
      label: model.label,
      cells: own.cells,
      stored,
      calls,
      inputTokens,
      maxOutputTokens,
    };
    const batched = config.batch && BATCH_PROVIDERS.has(model.spec.provider);
    if (batched) estimate.batch = true;
    if (price) {
      const listed = (inputTokens * price.input + maxOutputTokens * price.output) / 1e6;
      estimate.maxCostUsd = batched ? listed * BATCH_PRICE_FACTOR : listed;
      estimate.priceSource = batched ? `${priceSource}, batch: half price` : priceSource;
    } else if (model.spec.provider === 'gguf' || model.spec.provider === 'replay') {
      estimate.maxCostUsd = 0;
      estimate.priceSource = 'local';
    }
    return estimate;
  });
}
