/**
 * List prices in USD per million tokens, for `--dry-run` estimates only. They go stale: a model's
 * own `price` in the config wins, and a model missing here is estimated in tokens with no cost.
 */
export const PRICES_AS_OF = '2026-11';

const TABLE: Record<string, { input: number; output: number }> = {
  'openai:gpt-4o': { input: 2.5, output: 10 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6 },
  'openai:gpt-4.1': { input: 2, output: 8 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'openai:o4-mini': { input: 1.1, output: 4.4 },
  'anthropic:claude-3-5-haiku-latest': { input: 0.8, output: 4 },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5 },
  'anthropic:claude-sonnet-4-5': { input: 3, output: 15 },
  'anthropic:claude-opus-4-1': { input: 15, output: 75 },
};

/** The list price of a hosted model, looked up only for the provider's own default endpoint. */
export function listPrice(
  provider: string,
  model: string,
  baseURL?: string,
): { input: number; output: number } | undefined {
  if (baseURL && !/api\.(openai|anthropic)\.com/.test(baseURL)) return undefined;
  return (
    TABLE[`${provider}:${model}`] ?? TABLE[`${provider}:${model.replace(/-\d{4}-\d{2}-\d{2}$|-\d{8}$/, '')}`]
  );
}

/** USD per million tokens, input and output. */
export interface Price {
  input: number;
  output: number;
}

/** Providers whose models run here, at no cost per call. */
const LOCAL_PROVIDERS: ReadonlySet<string> = new Set(['gguf', 'replay']);

/**
 * What a model's calls cost: its own `price` in the config, else the list price of a hosted model
 * at the provider's own endpoint, else nothing for a local one (gguf, replay); undefined when none
 * is known (a server of your own, a registered provider).
 */
export function modelPrice(spec: {
  provider: string;
  model: string;
  baseURL?: string;
  price?: Price;
}): Price | undefined {
  if (spec.price) return spec.price;
  if (LOCAL_PROVIDERS.has(spec.provider)) return { input: 0, output: 0 };
  return listPrice(spec.provider, spec.model, spec.baseURL);
}
