import { z } from 'zod';
import { InputError } from '../errors.js';
import { isKnownPrefix, knownPrefixes } from './prefixes.js';

/**
 * A model as the user names it: a string such as `openai:gpt-4o-mini`,
 * `openai:MODEL@http://127.0.0.1:8080/v1`, `anthropic:claude-sonnet-4-5`, `gguf:./model.gguf`,
 * `gguf:hf:OWNER/REPO/FILE.gguf` or `replay:./responses.jsonl`, or the object below in the config file.
 *
 * A gguf string takes its settings as a query, in URL order (query, then fragment):
 *
 *     gguf:LOCATION[?KEY=VALUE[&KEY=VALUE]...][#sha256=HEX]
 *     LOCATION  a file path, or hf:OWNER/REPO/FILE.gguf (the #sha256= pin is for hf: files)
 *     KEY       ctx (contextSize) | template (chatTemplate) | threads | gpuLayers
 *
 * e.g. `gguf:hf:OWNER/REPO/FILE.gguf?ctx=4096&template=raw#sha256=...`. Each key maps onto the
 * object form's field and is checked by the same schema. A file path cannot contain `?` in the
 * string form (the object form takes any path).
 *
 * A provider a library user registered (registry.ts, docs/providers.md) is named the same way,
 * `PREFIX:MODEL`: its `model` is everything after the prefix, for its factory to read.
 */
const expectedPrefixes = () =>
  `expected one of ${knownPrefixes()
    .map((p) => `${p}:`)
    .join(', ')}`;

/** The longest delay Node's timers take: past 2^31 - 1 ms they fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `scheme://user:password@host...` without its `user:password@` (a key in a base URL is still a key). */
export function withoutUserinfo(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi, '$1');
}

export const ModelSpecObject = z
  .object({
    /** A built-in provider's name or a registered prefix (read when the spec is parsed). */
    provider: z.string().refine(isKnownPrefix, {
      error: (issue) => `unknown model provider '${issue.input}': ${expectedPrefixes()}`,
    }),
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
    contextSize: z.int('must be a positive integer').positive('must be a positive integer').optional(),
    /**
     * gguf: how messages become a prompt. `auto`: the model's own Jinja template when it has one,
     * else `raw`. `raw`: message contents joined by blank lines, no role markers, no system prompt added.
     */
    chatTemplate: z.enum(['auto', 'model', 'raw'], 'must be auto, model or raw').default('auto'),
    /**
     * gguf: CPU threads per evaluation (default 1: on a 2-core machine two threads collapse
     * throughput). Speed only: answers are identical at any count, so it is not in the identity.
     */
    threads: z.int('must be a positive integer').positive('must be a positive integer').optional(),
    /** gguf: waver's llama.cpp binding runs on the CPU only, so 0 is the one value (for specs that spell it out). */
    gpuLayers: z.literal(0, 'must be 0: waver runs gguf models on the CPU only').optional(),
    /**
     * openai: a reasoning model (o-series, gpt-5 family), sent `max_completion_tokens` and no
     * temperature, top_p or log-probs. Unset: guessed from the model id (docs/decisions.md E12).
     */
    reasoning: z.boolean().optional(),
    /** Parallel requests to this model. */
    concurrency: z.int().positive().optional(),
    /** Requests per minute (a token bucket; unset = unlimited). */
    rpm: z.number().positive().optional(),
    /** Tokens per minute, counted from estimates before and usage after each call. */
    tpm: z.number().positive().optional(),
    /** Per-request timeout. */
    timeoutMs: z.int().positive().max(MAX_TIMER_MS).optional(),
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
  // A base URL's user:password@ is a secret: no label, message or stored spec carries it.
  text = withoutUserinfo(text);
  const colon = text.indexOf(':');
  const prefix = colon > 0 ? text.slice(0, colon) : '';
  const rest = colon > 0 ? text.slice(colon + 1) : '';
  if (!isKnownPrefix(prefix))
    throw new InputError(`unknown model provider in '${text}': ${expectedPrefixes()}`, where);
  if (!rest) throw new InputError(`model spec '${text}' names no model after '${prefix}:'`, where);
  const provider = prefix;
  let model = rest;
  let baseURL: string | undefined;
  // `MODEL@URL` for HTTP providers. Only split at an '@' followed by a scheme (any case: `HTTP://`),
  // so model ids may contain '@'; a scheme other than http(s) is refused, not read as part of the id.
  const at = rest.search(/@[a-z][a-z0-9+.-]*:\/\//i);
  if (at >= 0 && provider !== 'gguf' && provider !== 'replay') {
    model = rest.slice(0, at);
    baseURL = rest.slice(at + 1);
    if (!model) throw new InputError(`model spec '${text}' names no model before '@'`, where);
    if (!URL.canParse(baseURL)) throw new InputError(`model spec '${text}' has an invalid base URL`, where);
    const scheme = new URL(baseURL).protocol;
    if (scheme !== 'http:' && scheme !== 'https:')
      throw new InputError(`model spec '${text}': the base URL must start with http:// or https://`, where);
    baseURL = baseURL.replace(/^[a-z]+:/i, (scheme) => scheme.toLowerCase());
  }
  const settings = provider === 'gguf' ? splitGgufSettings(text, rest, where) : undefined;
  if (settings) model = settings.model;
  const parsed = ModelSpecObject.safeParse({ provider, model, baseURL, label: text, ...settings?.fields });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const key = Object.entries(GGUF_KEYS).find(([, name]) => name === field)?.[0] ?? field;
  const given = settings?.given[key];
  throw new InputError(
    `model spec '${text}': ${key} ${issue?.message ?? 'is invalid'}${given === undefined ? '' : `, got '${given}'`}`,
    where,
  );
}

/** Query keys of a gguf spec string and the object-form fields they set. */
const GGUF_KEYS = {
  ctx: 'contextSize',
  template: 'chatTemplate',
  threads: 'threads',
  gpuLayers: 'gpuLayers',
} as const satisfies Record<string, keyof ModelSpec>;

const NUMERIC = new Set<string>(['contextSize', 'threads', 'gpuLayers']);

/**
 * Splits `LOCATION?QUERY#FRAGMENT` (see the grammar above). The fragment stays on the model, where
 * the hf: resolver reads its `sha256=` pin. Values are converted only as far as their syntax goes;
 * the schema checks them, so the string and object forms accept exactly the same settings.
 */
function splitGgufSettings(
  text: string,
  rest: string,
  where: { file?: string; line?: number; field?: string },
): { model: string; fields: Record<string, unknown>; given: Record<string, string> } | undefined {
  const q = rest.indexOf('?');
  if (q < 0) return undefined;
  const hash = rest.indexOf('#');
  if (hash >= 0 && hash < q) {
    throw new InputError(
      `model spec '${text}': put the settings before the pin, as in gguf:hf:OWNER/REPO/FILE.gguf?ctx=4096#sha256=HEX`,
      where,
    );
  }
  const model = rest.slice(0, q) + (hash >= 0 ? rest.slice(hash) : '');
  const query = rest.slice(q + 1, hash >= 0 ? hash : undefined);
  if (!model) throw new InputError(`model spec '${text}' names no model file before '?'`, where);
  const known = Object.keys(GGUF_KEYS).join(', ');
  const fields: Record<string, unknown> = {};
  const given: Record<string, string> = {};
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : pair;
    const value = eq > 0 ? pair.slice(eq + 1) : '';
    if (!Object.hasOwn(GGUF_KEYS, key)) {
      throw new InputError(`model spec '${text}': unknown setting '${key}'; expected one of ${known}`, where);
    }
    if (key in given) throw new InputError(`model spec '${text}': ${key} is given twice`, where);
    if (eq < 0 || value === '')
      throw new InputError(`model spec '${text}': ${key} needs a value (${key}=...)`, where);
    const name = GGUF_KEYS[key as keyof typeof GGUF_KEYS];
    given[key] = value;
    fields[name] = NUMERIC.has(name) && /^\d+$/.test(value) ? Number(value) : value;
  }
  return { model, fields, given };
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
  const { baseURL, label } = parsed.data;
  return {
    ...parsed.data,
    ...(baseURL && { baseURL: withoutUserinfo(baseURL) }),
    ...(label && { label: withoutUserinfo(label) }),
  };
}

/**
 * The label of a spec a stored run's config holds, as `specLabel` gives it. A spec this process
 * cannot parse (a provider another process registered, docs/providers.md) keeps its stored label.
 */
export function storedSpecLabel(spec: unknown): string {
  try {
    return specLabel(toModelSpec(spec as ModelSpecInput));
  } catch {
    if (typeof spec === 'string') return spec;
    const label = (spec as { label?: unknown } | null)?.label;
    return typeof label === 'string' ? label : JSON.stringify(spec);
  }
}

/** How the model is shown in reports. */
export function specLabel(spec: ModelSpec): string {
  if (spec.label) return spec.label;
  return `${spec.provider}:${spec.model}${spec.baseURL ? `@${spec.baseURL}` : ''}`;
}
