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
  /** Upper bound: every call uses its whole `maxTokens`. */
  maxOutputTokens: number;
  /** USD, an upper bound from list prices (or the model's `price`); undefined when no price is known. */
  maxCostUsd?: number;
  priceSource?: string;
}

/** What `--dry-run` prints: calls, tokens and cost before anything is spent. */
export function estimateRun(
  cells: readonly Cell[],
  models: readonly PlannedModel[],
  config: WaverConfig,
  storedCount: (model: PlannedModel) => number,
): ModelEstimate[] {
  return models.map((model) => {
    const own = cells.filter((c) => c.model === model.label);
    const stored = config.cache ? Math.min(storedCount(model), own.length) : 0;
    const calls = own.length - stored;
    // Prompt tokens of the cells still to call: the share of the total, as cells differ little in a suite.
    const allInput = own.reduce((sum, c) => sum + estimateTokens({ messages: c.request.messages }), 0);
    const inputTokens = own.length === 0 ? 0 : Math.round((allInput * calls) / own.length);
    const maxOutputTokens = calls * config.params.maxTokens;
    const price = model.spec.price ?? listPrice(model.spec.provider, model.spec.model, model.spec.baseURL);
    const priceSource = model.spec.price ? 'config' : price ? `list prices ${PRICES_AS_OF}` : undefined;
    const estimate: ModelEstimate = {
      label: model.label,
      cells: own.length,
      stored,
      calls,
      inputTokens,
      maxOutputTokens,
    };
    if (price) {
      estimate.maxCostUsd = (inputTokens * price.input + maxOutputTokens * price.output) / 1e6;
      estimate.priceSource = priceSource;
    } else if (model.spec.provider === 'gguf' || model.spec.provider === 'replay') {
      estimate.maxCostUsd = 0;
      estimate.priceSource = 'local';
    }
    return estimate;
  });
}
