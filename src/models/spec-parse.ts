import type { z } from 'zod';
import { InputError } from '../errors.js';
import type { ProviderDescriptor } from './descriptor.js';
import {
  completeShape,
  type ModelSpec,
  type SpecShape,
  type SpecWhere,
  specObjectSchema,
  withoutUserinfo,
} from './spec-shape.js';

/**
 * Parsing a spec against the descriptors of one registry (registry.ts): the prefix picks the
 * descriptor, whose `spec` says the fields and the string form (docs/providers.md#spec-shapes).
 */
export interface SpecProviders {
  get(name: string): ProviderDescriptor | undefined;
  names(): string[];
}

/** Each descriptor's shape and schema, made once (a descriptor with no `spec` is an HTTP endpoint's). */
const shapes = new WeakMap<
  ProviderDescriptor,
  { shape: Required<SpecShape>; schema: z.ZodType<ModelSpec> }
>();

function shapeOf(descriptor: ProviderDescriptor): {
  shape: Required<SpecShape>;
  schema: z.ZodType<ModelSpec>;
} {
  let made = shapes.get(descriptor);
  if (!made) {
    const shape = completeShape(descriptor.spec);
    made = { shape, schema: specObjectSchema(shape) as unknown as z.ZodType<ModelSpec> };
    shapes.set(descriptor, made);
  }
  return made;
}

export function specSchemaOf(descriptor: ProviderDescriptor): z.ZodType<ModelSpec> {
  return shapeOf(descriptor).schema;
}

/** The prefixes a spec may name: the registry's, built-in and registered, in that order. */
export function expectedProviders(providers: SpecProviders): string {
  return `expected one of ${providers
    .names()
    .map((p) => `${p}:`)
    .join(', ')}`;
}

/** Parses the string shorthand. Throws an InputError naming the spec when it is malformed. */
export function parseSpecString(providers: SpecProviders, text: string, where: SpecWhere = {}): ModelSpec {
  // A base URL's user:password@ is a secret: no label, message or stored spec carries it.
  text = withoutUserinfo(text);
  const colon = text.indexOf(':');
  const prefix = colon > 0 ? text.slice(0, colon) : '';
  const rest = colon > 0 ? text.slice(colon + 1) : '';
  const descriptor = providers.get(prefix);
  if (!descriptor)
    throw new InputError(`unknown model provider in '${text}': ${expectedProviders(providers)}`, where);
  if (!rest) throw new InputError(`model spec '${text}' names no model after '${prefix}:'`, where);
  const parts = shapeOf(descriptor).shape.fromString(rest, text, where);
  const parsed = specSchemaOf(descriptor).safeParse({
    ...parts.fields,
    provider: prefix,
    model: parts.model,
    label: text,
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const given = parts.given?.[field];
  throw new InputError(
    `model spec '${text}': ${given?.key ?? field} ${issue?.message ?? 'is invalid'}${given === undefined ? '' : `, got '${given.text}'`}`,
    where,
  );
}

/**
 * Checks the object form against its provider's schema; the first problem, with its path under
 * `where.field`, is an InputError.
 */
export function parseSpecObject(
  providers: SpecProviders,
  spec: Record<string, unknown>,
  where: SpecWhere = {},
): ModelSpec {
  const parsed = safeParseSpecObject(providers, spec);
  if (!parsed.success) {
    const issue = parsed.issues[0] as z.core.$ZodIssue;
    const field = [where.field, ...issue.path.map(String)].filter(Boolean).join('.');
    throw new InputError(issue.message, { ...where, field });
  }
  const { baseURL, label } = parsed.data;
  return {
    ...parsed.data,
    ...(baseURL && { baseURL: withoutUserinfo(baseURL) }),
    ...(label && { label: withoutUserinfo(label) }),
  };
}

/** The object form parsed by its provider's schema, or its problems as zod issues (paths from the object). */
export function safeParseSpecObject(
  providers: SpecProviders,
  spec: Record<string, unknown>,
): { success: true; data: ModelSpec } | { success: false; issues: z.core.$ZodIssue[] } {
  const { provider } = spec;
  const descriptor = typeof provider === 'string' ? providers.get(provider) : undefined;
  if (!descriptor) {
    const message =
      typeof provider === 'string'
        ? `unknown model provider '${provider}': ${expectedProviders(providers)}`
        : 'must name the provider (a string)';
    return { success: false, issues: [{ code: 'custom', path: ['provider'], message, input: provider }] };
  }
  const parsed = specSchemaOf(descriptor).safeParse(spec);
  return parsed.success ? parsed : { success: false, issues: parsed.error.issues };
}
