import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../../../errors.js';
import type { Seed } from '../types.js';
import { GRADE_SCHOOL_SEEDS } from './grade-school.js';
import { loadGsmSymbolic } from './gsm-symbolic.js';
import { loadGsm8k } from './gsm8k.js';
import { loadLadderSeedsCsv } from './seeds-csv.js';

/**
 * Where the ladder's seed problems come from: a dataset name or a file. Names resolve against a
 * data directory laid out like ../shared/data (see its README); files are read by their shape.
 */

export const LADDER_DATASET_NAMES = ['builtin', 'gsm8k', 'gsm-symbolic', 'ladder-seeds'] as const;

export interface LadderSeedOptions {
  /** The data directory; default env WAVER_DATA_DIR, else `../shared/data` relative to `cwd`. */
  dataDir?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Keep only the first N seeds (a quick run). */
  limit?: number;
}

export function ladderDataDir(opts: LadderSeedOptions = {}): string {
  const cwd = opts.cwd ?? process.cwd();
  const env = opts.env ?? process.env;
  return resolve(cwd, opts.dataDir ?? env.WAVER_DATA_DIR ?? join('..', 'shared', 'data'));
}

/**
 * The seeds of a dataset. `builtin` (the default): waver's own grade-school problems. `gsm8k`: the
 * GSM8K test split. `gsm-symbolic`: the 100 GSM8K problems the GSM-Symbolic templates come from.
 * `ladder-seeds`: the paper's `gsm8k_symbolic100.csv` (the same 100). Anything else is a path: a
 * `.jsonl` in GSM8K form, a `.csv` in the paper's seed form, or a folder of GSM-Symbolic templates.
 */
export function resolveLadderSeeds(dataset: string | undefined, opts: LadderSeedOptions = {}): Seed[] {
  const seeds = loadNamed(dataset ?? 'builtin', opts);
  if (seeds.length === 0) throw new InputError('the dataset has no seed problems', { field: 'dataset' });
  if (opts.limit !== undefined) {
    if (!Number.isInteger(opts.limit) || opts.limit < 1)
      throw new InputError(`expected a positive number of seeds, got ${opts.limit}`, { field: 'seeds' });
    return seeds.slice(0, opts.limit);
  }
  return seeds;
}

function loadNamed(dataset: string, opts: LadderSeedOptions): Seed[] {
  const dataDir = () => ladderDataDir(opts);
  switch (dataset) {
    case 'builtin':
      // A copy, so a caller that edits its seeds cannot change the built-in set.
      return GRADE_SCHOOL_SEEDS.map((s) => ({ ...s }));
    case 'gsm8k':
      return loadGsm8k(needFile(join(dataDir(), 'gsm8k', 'test.jsonl'), dataset));
    case 'gsm-symbolic': {
      const dir = needFile(join(dataDir(), 'gsm-symbolic', 'templates', 'symbolic'), dataset);
      const test = join(dataDir(), 'gsm8k', 'test.jsonl');
      return loadGsmSymbolic(dir, existsSync(test) ? { gsm8kTest: test } : {});
    }
    case 'ladder-seeds': {
      // The paper's CSV is a reference fixture, not a dataset: look in the data dir, then beside it.
      const candidates = [
        join(dataDir(), 'ladder', 'gsm8k_symbolic100.csv'),
        join(dataDir(), '..', 'fixtures', 'ladder-reference', 'gsm8k_symbolic100.csv'),
      ];
      const found = candidates.find((c) => existsSync(c));
      return loadLadderSeedsCsv(needFile(found ?? (candidates[0] as string), dataset));
    }
    default:
      return loadPath(resolve(opts.cwd ?? process.cwd(), dataset), dataset);
  }
}

function loadPath(path: string, dataset: string): Seed[] {
  if (!existsSync(path))
    throw new InputError(
      `unknown dataset '${dataset}': not one of ${LADDER_DATASET_NAMES.join(', ')}, and no such file or folder`,
      { field: 'dataset' },
    );
  if (statSync(path).isDirectory()) return loadGsmSymbolic(path);
  if (/\.jsonl?$/i.test(path)) return loadGsm8k(path);
  if (/\.csv$/i.test(path)) return loadLadderSeedsCsv(path);
  throw new InputError(
    'cannot tell the seed format: expected a .jsonl (GSM8K), a .csv (the paper seed CSV) or a folder of GSM-Symbolic templates',
    { file: path },
  );
}

function needFile(path: string, dataset: string): string {
  if (!existsSync(path))
    throw new InputError(
      `dataset '${dataset}' not found: set WAVER_DATA_DIR to a folder laid out like ../shared/data, or pass a file`,
      { file: path },
    );
  return path;
}
