import type { TokenPrice } from '../models/descriptor.js';
import { describeProvider } from '../models/registry.js';

/** USD per million tokens, input and output. */
export type Price = TokenPrice;

/**
 * What a model's calls cost: its own `price` in the config, else its provider's list price at the
 * provider's own endpoint, else nothing for a local provider (a file or a recording, by its
 * descriptor); undefined when none is known (a server of your own, a provider with no table).
 */
export function modelPrice(spec: {
  provider: string;
  model: string;
  baseURL?: string;
  price?: Price;
}): Price | undefined {
  if (spec.price) return spec.price;
  const provider = describeProvider(spec.provider);
  if (provider?.local) return { input: 0, output: 0 };
  return provider?.listPrice?.(spec.model, spec.baseURL);
}
