import { z } from 'zod';
import { InputError } from '../../errors.js';
import type { ModelSpec, SpecShape, SpecStringParts, SpecWhere } from '../spec-shape.js';

/**
 * A gguf spec: `gguf:./model.gguf` or `gguf:hf:OWNER/REPO/FILE.gguf`, its settings as a query, in
 * URL order (query, then fragment):
 *
 *     gguf:LOCATION[?KEY=VALUE[&KEY=VALUE]...][#sha256=HEX]
 *     LOCATION  a file path, or hf:OWNER/REPO/FILE.gguf (the #sha256= pin is for hf: files)
 *     KEY       ctx (contextSize) | template (chatTemplate) | threads | gpuLayers
 *
 * e.g. `gguf:hf:OWNER/REPO/FILE.gguf?ctx=4096&template=raw#sha256=...`. Each key maps onto the
 * object form's field and is checked by the same schema. A file path cannot contain `?` in the
 * string form (the object form takes any path).
 */
const GGUF_FIELDS = {
  /** Context window in tokens (defaults to the model's training context, capped at 4096). */
  contextSize: z.int('must be a positive integer').positive('must be a positive integer').optional(),
  /**
   * How messages become a prompt. `auto`: the model's own Jinja template when it has one, else
   * `raw`. `raw`: message contents joined by blank lines, no role markers, no system prompt added.
   */
  chatTemplate: z.enum(['auto', 'model', 'raw'], 'must be auto, model or raw').default('auto'),
  /**
   * CPU threads per evaluation (default 1: on a 2-core machine two threads collapse throughput).
   * Speed only: answers are identical at any count, so it is not in the identity.
   */
  threads: z.int('must be a positive integer').positive('must be a positive integer').optional(),
  /** waver's llama.cpp binding runs on the CPU only, so 0 is the one value (for specs that spell it out). */
  gpuLayers: z.literal(0, 'must be 0: waver runs gguf models on the CPU only').optional(),
};

export type GgufSpec = ModelSpec & {
  contextSize?: number;
  chatTemplate: 'auto' | 'model' | 'raw';
  threads?: number;
  gpuLayers?: 0;
};

/** Query keys of a gguf spec string and the object-form fields they set. */
const GGUF_KEYS = {
  ctx: 'contextSize',
  template: 'chatTemplate',
  threads: 'threads',
  gpuLayers: 'gpuLayers',
} as const satisfies Record<string, keyof typeof GGUF_FIELDS>;

const NUMERIC = new Set<string>(['contextSize', 'threads', 'gpuLayers']);

export const ggufSpec: SpecShape = { fields: GGUF_FIELDS, fromString: splitGgufSettings };

/**
 * Splits `LOCATION?QUERY#FRAGMENT` (see the grammar above). The fragment stays on the model, where
 * the hf: resolver reads its `sha256=` pin. Values are converted only as far as their syntax goes;
 * the schema checks them, so the string and object forms accept exactly the same settings.
 */
function splitGgufSettings(rest: string, text: string, where: SpecWhere): SpecStringParts {
  const q = rest.indexOf('?');
  if (q < 0) return { model: rest };
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
  const given: Record<string, { key: string; text: string }> = {};
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : pair;
    const value = eq > 0 ? pair.slice(eq + 1) : '';
    if (!Object.hasOwn(GGUF_KEYS, key)) {
      throw new InputError(`model spec '${text}': unknown setting '${key}'; expected one of ${known}`, where);
    }
    const name = GGUF_KEYS[key as keyof typeof GGUF_KEYS];
    if (name in given) throw new InputError(`model spec '${text}': ${key} is given twice`, where);
    if (eq < 0 || value === '')
      throw new InputError(`model spec '${text}': ${key} needs a value (${key}=...)`, where);
    given[name] = { key, text: value };
    fields[name] = NUMERIC.has(name) && /^\d+$/.test(value) ? Number(value) : value;
  }
  return { model, fields, given };
}
