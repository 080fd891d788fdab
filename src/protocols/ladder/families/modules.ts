import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../../../errors.js';
import { importModule } from '../../../util/import-module.js';
import { readTextFile } from '../../../util/text-file.js';
import type { LadderFamily } from './contract.js';

const loadYaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml');

interface Where {
  file: string;
  line?: number;
  field: string;
}

/**
 * Registers the families a config file's `ladder.familyModules` names (docs/decisions.md E46), as
 * `providers:` registers providers: each entry a module path, relative to the file, whose default
 * export is a LadderFamily. It runs ahead of the (synchronous) config load, so `ladder.families`,
 * `--families`, a stored suite and `waver check` know the codes when they are read. A file that does
 * not parse is left to that load. A bad entry is an InputError naming the file, the line and
 * `ladder.familyModules.N`.
 */
export async function loadConfigFamilies(file: string): Promise<void> {
  if (!existsSync(file)) return;
  const { LineCounter, parseDocument } = loadYaml();
  const lines = new LineCounter();
  const doc = parseDocument(readTextFile(file), { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) return;
  const list = doc.getIn(['ladder', 'familyModules'], true) as
    | { items?: { range?: [number]; toJSON(): unknown }[] }
    | undefined;
  if (!list?.items) return;
  // The families' modules are loaded only for a file that names one (some 100 ms).
  const { ladderFamilies, registerLadderFamily } = await import('./registry.js');
  for (const [i, node] of list.items.entries()) {
    const where = {
      file,
      line: node.range ? lines.linePos(node.range[0]).line : undefined,
      field: `ladder.familyModules.${i}`,
    };
    const path = node.toJSON?.() ?? node;
    if (typeof path !== 'string' || path === '') continue; // the schema reports it
    const family = await importFamily(resolve(dirname(file), path), where);
    // The same module named by two configs in one process is one family.
    if (ladderFamilies().includes(family)) continue;
    try {
      registerLadderFamily(family);
    } catch (e) {
      throw new InputError(`${path}: ${(e as Error).message}`, where);
    }
  }
}

/** What a module's default export must have to be built, run and scored as a family (contract.ts). */
const MEMBERS: Record<string, string> = {
  code: 'string',
  name: 'string',
  preserves: 'object',
  severity: 'object',
  rules: 'function',
  answerTypes: 'object',
  familyGate: 'function',
  instructions: 'object',
  writes: 'string',
  modelGates: 'object',
};

async function importFamily(path: string, where: Where): Promise<LadderFamily> {
  if (!existsSync(path)) throw new InputError(`family module not found: ${path}`, where);
  let module: { default?: unknown };
  try {
    module = await importModule(pathToFileURL(path).href);
  } catch (e) {
    throw new InputError(`cannot load the family module ${path}: ${(e as Error).message}`, where);
  }
  const family = module.default as Record<string, unknown> | undefined;
  const missing = Object.entries(MEMBERS)
    .filter(([key, type]) => typeof family?.[key] !== type)
    .map(([key]) => key);
  if (typeof (family?.severity as { measure?: unknown } | undefined)?.measure !== 'function')
    missing.push('severity.measure');
  if (missing.length > 0)
    throw new InputError(
      `${path}: its default export must be a ladder family (docs/architecture.md#adding-a-ladder-family); it lacks ${missing.join(', ')}`,
      where,
    );
  return family as unknown as LadderFamily;
}
