import { z } from 'zod';
import type { ProviderDescriptor } from './descriptor.js';
import { activeProviders, BUILTIN_DESCRIPTORS } from './registry.js';
import { safeParseSpecObject, specSchemaOf } from './spec-parse.js';
import { type ModelSpec, type SpecWhere, specLabel, withoutUserinfo } from './spec-shape.js';

/**
 * A model as the user names it: a string such as `openai:gpt-4o-mini`,
 * `openai:MODEL@http://127.0.0.1:8080/v1`, `anthropic:claude-sonnet-4-5`, `gguf:./model.gguf`,
 * `gguf:hf:OWNER/REPO/FILE.gguf?ctx=4096` or `replay:./responses.jsonl`, or the object form in the
 * config file. Each is parsed by the registry of the run it is part of (registry.ts), the prefix
 * picking the descriptor whose shape reads the rest (docs/providers.md#spec-shapes).
 */

export {
  MAX_TIMER_MS,
  type ModelSpec,
  type SpecWhere,
  specLabel,
  withoutUserinfo,
} from './spec-shape.js';

/** The object form as written: a provider, a model, and the fields of that provider's shape. */
export type ModelSpecInput = { provider: string; model: string; [field: string]: unknown };

/** Parses the string shorthand. Throws an InputError naming the spec when it is malformed. */
export function parseModelSpec(text: string, where: SpecWhere = {}): ModelSpec {
  return activeProviders().parse(text, where);
}

/** Normalises either form into the object form, by the run's registry. */
export function toModelSpec(
  spec: string | ModelSpecInput | Record<string, unknown>,
  where: SpecWhere = {},
): ModelSpec {
  return activeProviders().parse(spec, where);
}

/**
 * The object form in waver.yaml's schema: checked by its provider's schema in the run's registry
 * (so a registered provider's own fields are accepted), each problem at its own path. Its JSON
 * schema lists the built-in providers' objects, and any other provider's as open.
 */
const SpecObjectForm = z
  .looseObject({ provider: z.string(), model: z.string().min(1) })
  .transform((spec, ctx): ModelSpec => {
    const parsed = safeParseSpecObject(activeProviders(), spec);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.issues) ctx.addIssue({ ...issue, continue: true });
    return z.NEVER;
  })
  // A getter: the JSON schemas are made when one is asked for (`waver schema`), not on every start-up.
  .meta({
    get anyOf() {
      builtinJsonSchemas ??= [...BUILTIN_DESCRIPTORS.map(jsonSchemaOf), registeredJsonSchema()];
      return builtinJsonSchemas;
    },
  });

let builtinJsonSchemas: Record<string, unknown>[] | undefined;

/** A spec as accepted anywhere: the string shorthand or the object. */
export const ModelSpecSchema = z.union([z.string().min(1), SpecObjectForm]);

function jsonSchemaOf(descriptor: ProviderDescriptor): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(specSchemaOf(descriptor), { io: 'input' }) as Record<
    string,
    { provider?: unknown }
  >;
  const properties = json.properties as Record<string, unknown>;
  return { ...json, properties: { ...properties, provider: { const: descriptor.name } } };
}

function registeredJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { provider: { not: { enum: BUILTIN_DESCRIPTORS.map((d) => d.name) } } },
    required: ['provider', 'model'],
  };
}

/**
 * The label of a spec a stored run's config holds, as `specLabel` gives it. A spec this run
 * cannot parse (a provider another run registered, docs/providers.md) keeps its stored label.
 */
export function storedSpecLabel(spec: unknown): string {
  try {
    return specLabel(toModelSpec(spec as ModelSpecInput));
  } catch {
    if (typeof spec === 'string') return spec;
    const stored = spec as { label?: unknown; provider?: unknown; model?: unknown } | null;
    if (typeof stored?.label === 'string') return stored.label;
    // A built-in's spec stored before each provider had its own fields (an openai: spec then held
    // gguf's `chatTemplate: 'auto'`) is labelled as it was.
    if (
      typeof stored?.provider === 'string' &&
      activeProviders().get(stored.provider) &&
      typeof stored.model === 'string'
    )
      return withoutUserinfo(specLabel(stored as ModelSpec));
    return JSON.stringify(spec);
  }
}
