/**
 * A JSON Schema (2020-12) validator for the keywords pydantic's schemas use, for tests that hold
 * a file to a published schema (inspect_ai's eval log): `$ref` (local `#/$defs/...`), `type`,
 * `properties`, `required`, `additionalProperties`, `items`, `prefixItems`, `minItems`,
 * `maxItems`, `enum`, `const`, `anyOf`, `oneOf`, `propertyNames`. Annotations (`title`, `default`,
 * `description`, `format`, `discriminator`) assert nothing, as the specification says.
 * Returns every error as `path: what`, none when the value is valid.
 */
type Schema = Record<string, unknown> | boolean;

// biome-ignore format: a list of names
const KNOWN = new Set([
  '$ref', '$defs', 'type', 'properties', 'required', 'additionalProperties', 'items', 'prefixItems',
  'minItems', 'maxItems', 'enum', 'const', 'anyOf', 'oneOf', 'propertyNames', 'title', 'default',
  'description', 'format', 'discriminator', 'examples',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const typeMatches = (want: string, v: unknown) =>
  want === typeOf(v) || (want === 'number' && typeOf(v) === 'integer');

export function validate(root: Record<string, unknown>, value: unknown): string[] {
  const resolve = (ref: string): Schema => {
    const m = /^#\/\$defs\/(.+)$/.exec(ref);
    const found = m && (root.$defs as Record<string, Schema> | undefined)?.[m[1] as string];
    if (found === undefined || found === null) throw new Error(`unresolved $ref ${ref}`);
    return found;
  };
  const check = (schema: Schema, v: unknown, path: string): string[] => {
    if (schema === true) return [];
    if (schema === false) return [`${path}: no value is allowed here`];
    for (const k of Object.keys(schema))
      if (!KNOWN.has(k)) throw new Error(`${path}: keyword ${k} is not supported by this validator`);
    const errors: string[] = [];
    if (typeof schema.$ref === 'string') errors.push(...check(resolve(schema.$ref), v, path));
    const type = schema.type as string | string[] | undefined;
    if (type !== undefined && ![type].flat().some((t) => typeMatches(t, v)))
      return [...errors, `${path}: expected ${[type].flat().join(' or ')}, got ${typeOf(v)}`];
    if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(v))
      errors.push(`${path}: expected ${JSON.stringify(schema.const)}`);
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v)))
      errors.push(`${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(schema.enum)}`);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = schema[key] as Schema[] | undefined;
      if (!options) continue;
      const results = options.map((o) => check(o, v, path));
      const passing = results.filter((r) => r.length === 0).length;
      // None: the errors of the closest option (fewest), which say what is wrong where.
      if (passing === 0) errors.push(...results.reduce((best, r) => (r.length < best.length ? r : best)));
      else if (key === 'oneOf' && passing > 1)
        errors.push(`${path}: matches ${passing} of the oneOf options`);
    }
    if (typeOf(v) === 'object') errors.push(...checkObject(schema, v as Record<string, unknown>, path));
    if (Array.isArray(v)) errors.push(...checkArray(schema, v, path));
    return errors;
  };
  const checkObject = (schema: Record<string, unknown>, v: Record<string, unknown>, path: string) => {
    const errors: string[] = [];
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const r of (schema.required ?? []) as string[])
      if (!(r in v)) errors.push(`${path}: missing required ${r}`);
    for (const [k, item] of Object.entries(v)) {
      const at = `${path}.${k}`;
      if (schema.propertyNames) errors.push(...check(schema.propertyNames as Schema, k, `${at} (name)`));
      if (k in props) errors.push(...check(props[k] as Schema, item, at));
      else if (schema.additionalProperties !== undefined)
        errors.push(...check(schema.additionalProperties as Schema, item, at));
    }
    return errors;
  };
  const checkArray = (schema: Record<string, unknown>, v: unknown[], path: string) => {
    const errors: string[] = [];
    const prefix = (schema.prefixItems ?? []) as Schema[];
    if (typeof schema.minItems === 'number' && v.length < schema.minItems)
      errors.push(`${path}: fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && v.length > schema.maxItems)
      errors.push(`${path}: more than ${schema.maxItems} items`);
    v.forEach((item, i) => {
      const s = i < prefix.length ? prefix[i] : (schema.items as Schema | undefined);
      if (s !== undefined) errors.push(...check(s, item, `${path}[${i}]`));
    });
    return errors;
  };
  return check(root, value, '$');
}
