import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../../errors.js';
import { loadArcChallenge } from './arc.js';
import { BUILTIN_MC_ITEMS } from './builtin-items.js';
import { loadCommonsenseQa } from './commonsenseqa.js';
import type { McItem } from './mc-item.js';
import { loadMcJsonl } from './mc-jsonl.js';
import { loadTruthfulQaMc } from './truthfulqa-mc.js';

/**
 * Where multiple-choice items come from, by `--dataset`:
 * - nothing or `builtin`: the 32 built-in items;
 * - a name (`arc-challenge`, `commonsenseqa`, `truthfulqa-mc`, or an alias): that dataset's file
 *   under the data directory — `WAVER_DATA_DIR`, else `../shared/data` relative to the cwd;
 * - `NAME:FILE`: that dataset's format read from FILE;
 * - any other existing file: generic JSONL (see mc-jsonl.ts).
 */

interface NamedDataset {
  /** Path under the data directory. */
  file: string;
  load: (file: string) => McItem[];
  aliases: string[];
}

export const MC_DATASETS: Readonly<Record<string, NamedDataset>> = {
  'arc-challenge': { file: 'arc-challenge/arc_challenge.jsonl', load: loadArcChallenge, aliases: ['arc'] },
  commonsenseqa: { file: 'commonsenseqa/dev_rand_split.jsonl', load: loadCommonsenseQa, aliases: ['csqa'] },
  'truthfulqa-mc': {
    file: 'truthfulqa/mc_task.json',
    load: loadTruthfulQaMc,
    aliases: ['truthfulqa', 'truthfulqa-mc1'],
  },
};

export interface McDataset {
  /** `builtin`, a dataset name, or `jsonl`. */
  name: string;
  /** The file read (absent for the built-in items). */
  file?: string;
  items: McItem[];
}

/** The data directory: `WAVER_DATA_DIR`, else `../shared/data` relative to `cwd`. */
export function mcDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return env.WAVER_DATA_DIR ? resolve(cwd, env.WAVER_DATA_DIR) : resolve(cwd, '..', 'shared', 'data');
}

function named(name: string): [string, NamedDataset] | undefined {
  const lower = name.toLowerCase();
  for (const [canonical, d] of Object.entries(MC_DATASETS))
    if (canonical === lower || d.aliases.includes(lower)) return [canonical, d];
  return undefined;
}

export function resolveMcItems(
  dataset?: string,
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): McDataset {
  const cwd = opts.cwd ?? process.cwd();
  if (dataset === undefined || dataset === 'builtin')
    return { name: 'builtin', items: [...BUILTIN_MC_ITEMS] };
  const byName = named(dataset);
  if (byName) {
    const [name, d] = byName;
    const dir = mcDataDir(opts.env, cwd);
    const file = resolve(dir, d.file);
    if (!existsSync(file))
      throw new InputError(
        `dataset '${name}' not found at ${file}: set WAVER_DATA_DIR to the folder that holds ${d.file}, or pass ${name}:FILE`,
        { field: 'dataset' },
      );
    return { name, file, items: d.load(file) };
  }
  const colon = dataset.indexOf(':');
  if (colon > 0) {
    const prefixed = named(dataset.slice(0, colon));
    if (prefixed) {
      const file = resolve(cwd, dataset.slice(colon + 1));
      if (!isFile(file))
        throw new InputError('cannot read dataset: no such file', { file, field: 'dataset' });
      return { name: prefixed[0], file, items: prefixed[1].load(file) };
    }
  }
  const file = resolve(cwd, dataset);
  if (isFile(file)) return { name: 'jsonl', file, items: loadMcJsonl(file) };
  throw new InputError(
    `unknown dataset '${dataset}': expected builtin, ${Object.keys(MC_DATASETS).join(', ')}, NAME:FILE, or a JSONL file`,
    { field: 'dataset' },
  );
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
