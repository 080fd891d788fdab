import { type McDataset, type McDatasetOptions, resolveChoiceDataset } from '../../../data/mc/resolve.js';
import { explicitDataDir } from '../../../data/sources.js';
import { BUILTIN_MC_ITEMS } from './builtin-items.js';

/**
 * Paraphrase's items by `--dataset` (docs/datasets.md): nothing or `builtin`, its 32 built-in items;
 * anything else, the datasets layer's choice loader (src/data/mc/resolve.ts), its fields mapped by
 * `paraphrase.fields`.
 */

export type { McDataset, McDatasetOptions };

/** The data directory the user set (`WAVER_DATA_DIR`), or undefined: named datasets then come from the Hub. */
export function mcDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  return explicitDataDir({ env, cwd });
}

export async function resolveMcItems(dataset?: string, opts: McDatasetOptions = {}): Promise<McDataset> {
  if (dataset === undefined || dataset === 'builtin')
    return { name: 'builtin', items: [...BUILTIN_MC_ITEMS] };
  return resolveChoiceDataset(dataset, { ...opts, mapping: 'paraphrase.fields', builtins: ['builtin'] });
}
