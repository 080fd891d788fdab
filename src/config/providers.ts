import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../errors.js';
import type { ProviderDescriptor } from '../models/descriptor.js';
import { activeProviders, type ProviderRegistry } from '../models/registry.js';
import { PREFIX_PATTERN } from '../models/spec-shape.js';
import { importModule } from '../util/import-module.js';
import { readTextFile } from '../util/text-file.js';

const loadYaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml');

/**
 * Registers the providers a config file's `providers:` names (docs/providers.md#from-waveryaml),
 * before its models are read: each entry is a module path, relative to the file, whose default
 * export is a provider descriptor. Importing is asynchronous, so this runs ahead of the (synchronous)
 * config load. A file that does not parse is left to that load, which reports it with its line.
 * A bad entry is an InputError naming the file, the line and `providers.N`.
 */
export async function loadConfigProviders(
  file: string,
  registry: ProviderRegistry = activeProviders(),
): Promise<ProviderRegistry> {
  if (!existsSync(file)) return registry;
  const { LineCounter, parseDocument } = loadYaml();
  const lines = new LineCounter();
  const doc = parseDocument(readTextFile(file), { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) return registry;
  const list = doc.get('providers', true) as
    | { items?: { range?: [number]; toJSON(): unknown }[] }
    | undefined;
  if (!list?.items) return registry;
  for (const [i, node] of list.items.entries()) {
    const where = {
      file,
      line: node.range ? lines.linePos(node.range[0]).line : undefined,
      field: `providers.${i}`,
    };
    const path = node.toJSON?.() ?? node;
    if (typeof path !== 'string' || path === '') continue; // the schema reports it
    const descriptor = await importDescriptor(resolve(dirname(file), path), where);
    // The same module named by two configs in one process is one provider.
    if (registry.get(descriptor.name) === descriptor) continue;
    try {
      registry.register(descriptor);
    } catch (e) {
      throw new InputError(`${path}: ${(e as Error).message}`, where);
    }
  }
  return registry;
}

async function importDescriptor(
  path: string,
  where: { file: string; line?: number; field: string },
): Promise<ProviderDescriptor> {
  if (!existsSync(path)) throw new InputError(`provider module not found: ${path}`, where);
  let module: { default?: unknown };
  try {
    module = await importModule(pathToFileURL(path).href);
  } catch (e) {
    throw new InputError(`cannot load the provider module ${path}: ${(e as Error).message}`, where);
  }
  const d = module.default as Partial<ProviderDescriptor> | undefined;
  if (typeof d?.name !== 'string' || !PREFIX_PATTERN.test(d.name) || typeof d.create !== 'function')
    throw new InputError(
      `${path}: its default export must be a provider descriptor, { name, create(spec, opts), ... } with a name matching ${PREFIX_PATTERN} (docs/providers.md#descriptors)`,
      where,
    );
  return d as ProviderDescriptor;
}
