import { z } from 'zod';
import { InputError } from '../errors.js';

/**
 * What every model spec has, whatever its provider (docs/providers.md#spec-shapes): the prefix and
 * the model, and the fields waver itself reads from any spec (the label in reports, the call path's
 * limits, the dry run's price). A provider's own fields (`contextSize`, `apiKeyEnv`, ...) are its
 * descriptor's `spec` (src/models/providers/).
 */

/** The longest delay Node's timers take: past 2^31 - 1 ms they fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a prefix may be: it ends at the first colon of a spec string. */
export const PREFIX_PATTERN = /^[a-z][a-z0-9-]*$/;

export const SHARED_SPEC_FIELDS = {
  /** A registered provider's prefix (checked against the run's registry when the spec is parsed). */
  provider: z.string(),
  /** Model id for APIs; file path or `hf:OWNER/REPO/FILE.gguf` for gguf; JSONL file for replay. */
  model: z.string().min(1),
  /** Display name in reports (defaults to the spec string). */
  label: z.string().min(1).optional(),
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
};

/**
 * A parsed spec as code outside its provider sees it: the shared fields, the endpoint when it
 * names one (the run checks it answers, list prices hold at the provider's own), and its
 * provider's fields, which only its descriptor reads.
 */
export type ModelSpec = z.infer<z.ZodObject<typeof SHARED_SPEC_FIELDS>> & {
  baseURL?: string;
  [field: string]: unknown;
};

export type SpecWhere = { file?: string; line?: number; field?: string };

/** What a spec string says after its prefix: the model and the settings it carries. */
export interface SpecStringParts {
  model: string;
  /** Object-form fields the string sets (`contextSize` from gguf's `?ctx=`). */
  fields?: Record<string, unknown>;
  /** How each of those fields was written (`ctx`, `'4096'`), for the error that refuses one. */
  given?: Record<string, { key: string; text: string }>;
}

/**
 * One provider's spec (docs/providers.md#spec-shapes): its own fields, beside the shared ones, and
 * how its string form reads (`rest` is what follows the prefix; `text` the whole string, for errors).
 * A shape with no string form of its own is an HTTP endpoint's: `MODEL[@URL]`, and `baseURL` and
 * `apiKeyEnv` besides its fields.
 */
export interface SpecShape {
  readonly fields: z.core.$ZodShape;
  readonly fromString?: (rest: string, text: string, where: SpecWhere) => SpecStringParts;
}

/** A shape with its string form: its own, else an HTTP endpoint's. */
export function completeShape(shape: SpecShape = { fields: {} }): Required<SpecShape> {
  return shape.fromString ? (shape as Required<SpecShape>) : endpointSpec(shape.fields);
}

/** The strict object schema of a shape: the shared fields and its own; any other is refused. */
export function specObjectSchema(shape: Required<SpecShape>) {
  return z.strictObject({ ...SHARED_SPEC_FIELDS, ...shape.fields });
}

/** `scheme://user:password@host...` without its `user:password@` (a key in a base URL is still a key). */
export function withoutUserinfo(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi, '$1');
}

/** The fields of a model behind an HTTP endpoint. */
export const ENDPOINT_FIELDS = {
  /** The endpoint (an OpenAI-compatible or Anthropic server, a service of one's own). */
  baseURL: z.url().optional(),
  /** Name of the environment variable holding the API key. The key itself never goes in a file. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
};

/**
 * `MODEL[@URL]`. Only split at an '@' followed by a scheme (any case: `HTTP://`), so model ids may
 * contain '@'; a scheme other than http(s) is refused, not read as part of the id.
 */
export function modelAtEndpoint(rest: string, text: string, where: SpecWhere): SpecStringParts {
  const at = rest.search(/@[a-z][a-z0-9+.-]*:\/\//i);
  if (at < 0) return { model: rest };
  const model = rest.slice(0, at);
  const baseURL = rest.slice(at + 1);
  if (!model) throw new InputError(`model spec '${text}' names no model before '@'`, where);
  if (!URL.canParse(baseURL)) throw new InputError(`model spec '${text}' has an invalid base URL`, where);
  const scheme = new URL(baseURL).protocol;
  if (scheme !== 'http:' && scheme !== 'https:')
    throw new InputError(`model spec '${text}': the base URL must start with http:// or https://`, where);
  return { model, fields: { baseURL: baseURL.replace(/^[a-z]+:/i, (s) => s.toLowerCase()) } };
}

/** A model behind an HTTP endpoint, `PREFIX:MODEL[@URL]`, with `extra` fields of its own. */
export function endpointSpec(extra: z.core.$ZodShape = {}): Required<SpecShape> {
  return { fields: { ...ENDPOINT_FIELDS, ...extra }, fromString: modelAtEndpoint };
}

/** How the model is shown in reports. */
export function specLabel(spec: ModelSpec): string {
  if (spec.label) return spec.label;
  return `${spec.provider}:${spec.model}${spec.baseURL ? `@${spec.baseURL}` : ''}`;
}
