import type { TokenPrice } from '../descriptor.js';

/**
 * List prices go stale: a model's own `price` in the config wins, and a model missing from a
 * provider's table is estimated in tokens with no cost.
 */
export const PRICES_AS_OF = '2026-11';

/**
 * A lookup in one provider's table, for its own endpoint only (another host behind the same API
 * has its own prices); a dated snapshot (`-2024-08-06`, `-20241022`) is priced as its model.
 */
export function listPriceOf(
  table: Readonly<Record<string, TokenPrice>>,
  host: RegExp,
): (model: string, baseURL?: string) => TokenPrice | undefined {
  return (model, baseURL) => {
    if (baseURL && !host.test(baseURL)) return undefined;
    return table[model] ?? table[model.replace(/-\d{4}-\d{2}-\d{2}$|-\d{8}$/, '')];
  };
}
