import { z } from 'zod';
import { InputError } from '../errors.js';
import type { ProviderName } from './types.js';

/**
 * A model as the user names it: a string such as `openai:gpt-4o-mini`,
 * `openai:MODEL@http://127.0.0.1:8080/v1`, `anthropic:claude-sonnet-4-5`, `gguf:./model.gguf`,
 * `gguf:hf:OWNER/REPO/FILE.gguf` or `replay:./responses.jsonl`, or the object below in the config file.
 */
export const PROVIDERS = ['openai', 'anthropic', 'gguf', 'replay'] as const satisfies readonly ProviderName[];

export const ModelSpecObject = z
  .object({
    provider: z.enum(PROVIDERS),
    /** Model id for APIs; file path or `hf:OWNER/REPO/FILE.gguf` for gguf; JSONL file for replay. */
    model: z.string().min(1),
    /** Display name in reports (defaults to the spec string). */
    label: z.string().min(1).optional(),
    /** OpenAI-compatible or Anthropic endpoint. */
    baseURL: z.url().optional(),
    /** Name of the environment variable holding the API key. The key itself never goes in a file. */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .optional(),
    /**
     * anthropic: the `anthropic-version` header. The SDK's default version no longer accepts
     * temperature; '2023-06-01' does, so waver can pin temperature 0 (see docs/decisions.md E9).
     */
    apiVersion: z.string().min(1).optional(),
    /** gguf: context window in tokens (defaults to the model's training context, capped at 4096). */
    contextSize: z.int().positive().optional(),
    /**
     * gguf: how messages become a prompt. `auto`: the model's own Jinja template when it has one,
     * else `raw`. `raw`: message contents joined by blank lines, no role markers, no system prompt added.
     */
    chatTemplate: z.enum(['auto', 'model', 'raw']).default('auto'),
    /**
     * openai: a reasoning model (o-series, gpt-5 family), sent `max_completion_tokens` and no
     * temperature, top_p or log-probs. Unset: guessed from the model id (docs/decisions.md E11).
     */
    reasoning: z.boolean().optional(),
    /** Parallel requests to this model. */
    concurrency: z.int().positive().optional(),
    /** Requests per minute (a token bucket; unset = unlimited). */
    rpm: z.number().positive().optional(),
    /** Tokens per minute, counted from estimates before and usage after each call. */
    tpm: z.number().positive().optional(),
    /** Per-request timeout. */
    timeoutMs: z.int().positive().optional(),
    /** Retries after the first try, on 429, 5xx, resets, timeouts and malformed bodies. */
    maxRetries: z.int().nonnegative().optional(),
    /** USD per million tokens, for `--dry-run` cost estimates when the built-in table lacks the model. */
    price: z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).optional(),
  })
  .strict();

export type ModelSpec = z.infer<typeof ModelSpecObject>;
export type ModelSpecInput = z.input<typeof ModelSpecObject>;

/** A spec as accepted anywhere: the string shorthand or the object. */
export const ModelSpecSchema = z.union([z.string().min(1), ModelSpecObject]);

/** Parses the string shorthand. Throws an InputError naming the spec when it is malformed. */
export function parseModelSpec(
  text: string,
  where: { file?: string; line?: number; field?: string } = {},
): ModelSpec {
  const colon = text.indexOf(':');
  const prefix = colon > 0 ? text.slice(0, colon) : '';
  const rest = colon > 0 ? text.slice(colon + 1) : '';
  if (!(PROVIDERS as readonly string[]).includes(prefix)) {
    throw new InputError(
      `unknown model provider in '${text}': expected one of ${PROVIDERS.map((p) => `${p}:`).join(', ')}`,
      where,
    );
  }
  if (!rest) throw new InputError(`model spec '${text}' names no model after '${prefix}:'`, where);
  const provider = prefix as ProviderName;
  let model = rest;
  let baseURL: string | undefined;
  // `MODEL@URL` for HTTP providers. Only split at an '@' followed by a scheme, so model ids may contain '@'.
  const at = rest.search(/@https?:\/\//);
  if (at >= 0 && (provider === 'openai' || provider === 'anthropic')) {
    model = rest.slice(0, at);
    baseURL = rest.slice(at + 1);
    if (!model) throw new InputError(`model spec '${text}' names no model before '@'`, where);
    if (!URL.canParse(baseURL)) throw new InputError(`model spec '${text}' has an invalid base URL`, where);
  }
  return ModelSpecObject.parse({ provider, model, baseURL, label: text });
}

/** Normalises either form into the object form. */
export function toModelSpec(
  spec: string | ModelSpecInput | Record<string, unknown>,
  where: { file?: string; line?: number; field?: string } = {},
): ModelSpec {
  if (typeof spec === 'string') return parseModelSpec(spec, where);
  const parsed = ModelSpecObject.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = [where.field, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');
    throw new InputError(issue?.message ?? 'invalid model spec', { ...where, field });
  }
  return parsed.data;
}

/** How the model is shown in reports. */
export function specLabel(spec: ModelSpec): string {
  if (spec.label) return spec.label;
  return `${spec.provider}:${spec.model}${spec.baseURL ? `@${spec.baseURL}` : ''}`;
}
