import { z } from 'zod';
import { closest } from '../util/closest.js';

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/**
 * The fields an object of the config may have where `path` points (`['ladder']`, `['models', 0]`),
 * read from the schema's JSON form, which has unwrapped every optional, default and union; every
 * branch of a union is searched (a model is a spec string or an object).
 */
export function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const root = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  let nodes = [root];
  for (const key of path) nodes = nodes.flatMap((n) => childrenOf(n, key));
  return [...new Set(nodes.flatMap((n) => branches(n).flatMap((b) => Object.keys(b.properties ?? {}))))];
}

/** `did you mean concurrency?` for an unknown field at `path`, or undefined when nothing is close. */
export function didYouMean(
  schema: z.ZodType,
  path: readonly PropertyKey[],
  field: string,
): string | undefined {
  const match = closest(field, fieldsAt(schema, path));
  return match && `did you mean ${match}?`;
}

function branches(node: JsonSchema): JsonSchema[] {
  const alternatives = [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])];
  return [node, ...alternatives.flatMap(branches)];
}

function childrenOf(node: JsonSchema, key: PropertyKey): JsonSchema[] {
  return branches(node).flatMap((b) => {
    if (typeof key === 'number' || /^\d+$/.test(String(key)))
      return [
        ...(b.items ? [b.items] : []),
        ...(b.prefixItems?.[Number(key)] ? [b.prefixItems[Number(key)] as JsonSchema] : []),
      ];
    const property = b.properties?.[String(key)];
    if (property) return [property];
    return typeof b.additionalProperties === 'object' ? [b.additionalProperties] : [];
  });
}
