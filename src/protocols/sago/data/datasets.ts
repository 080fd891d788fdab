import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../../errors.js';
import { deriveSeed, PyRandom } from '../../../util/random.js';
import { ALPACA_FILE, loadAlpaca } from './alpaca.js';
import { BUILTIN_OPEN_QUESTIONS } from './builtin-questions.js';
import { HOTPOTQA_FILE, loadHotpotQa } from './hotpotqa.js';
import { loadNqOpen, NQ_OPEN_FILE } from './nq-open.js';
import { type FieldMapping, loadOpenFile } from './open-jsonl.js';
import type { OpenPrompt } from './open-prompt.js';
import { loadSimpleQa, SIMPLEQA_FILE } from './simpleqa.js';
import { loadTriviaQa, TRIVIAQA_FILE } from './triviaqa.js';
import { loadTruthfulQa, TRUTHFULQA_FILE } from './truthfulqa.js';

/** The named open-ended datasets: file under the data directory and its loader. */
export const OPEN_DATASETS: Readonly<
  Record<string, { file: string; load: (path: string, label: string) => OpenPrompt[] }>
> = {
  truthfulqa: { file: TRUTHFULQA_FILE, load: loadTruthfulQa },
  'nq-open': { file: NQ_OPEN_FILE, load: loadNqOpen },
  triviaqa: { file: TRIVIAQA_FILE, load: loadTriviaQa },
  hotpotqa: { file: HOTPOTQA_FILE, load: loadHotpotQa },
  simpleqa: { file: SIMPLEQA_FILE, load: loadSimpleQa },
  alpaca: { file: ALPACA_FILE, load: loadAlpaca },
};

/** The built-in set's name (original questions, no file needed). */
export const BUILTIN_OPEN_DATASET = 'builtin';

export interface ResolveOpenPromptsOptions {
  /** Prompts sampled per dataset (default 16, the paper's operating point). */
  n?: number;
  seed?: number;
  /** Where named datasets live: this, else env WAVER_DATA_DIR, else `../shared/data` from the cwd. */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Field mapping for dataset files given by path. */
  fields?: FieldMapping;
}

export interface OpenDatasetSample {
  name: string;
  /** Prompts in the dataset before sampling. */
  available: number;
  prompts: OpenPrompt[];
}

export const DEFAULT_PROMPTS_PER_DATASET = 16;

/** The data directory named datasets are read from. */
export function openDataDir(opts: Pick<ResolveOpenPromptsOptions, 'dataDir' | 'env'> = {}): string {
  const env = opts.env ?? process.env;
  return resolve(opts.dataDir ?? env.WAVER_DATA_DIR ?? '../shared/data');
}

/**
 * N prompts per dataset, sampled without replacement with CPython's `random.Random(seed).sample`
 * (seed derived from the run seed and the dataset name, so adding a dataset does not change the
 * others' samples). With no names, the built-in set. Every problem is an InputError naming the
 * dataset or file: an unknown name, a missing file, an empty dataset, N larger than the dataset.
 */
export function resolveOpenPrompts(
  names: readonly string[],
  opts: ResolveOpenPromptsOptions = {},
): OpenDatasetSample[] {
  const n = opts.n ?? DEFAULT_PROMPTS_PER_DATASET;
  if (!(Number.isInteger(n) && n > 0))
    throw new InputError(`the sample size must be a positive integer, got ${n}`, { field: 'n' });
  const list = names.length > 0 ? [...names] : [BUILTIN_OPEN_DATASET];
  const seen = new Set<string>();
  return list.map((name) => {
    if (seen.has(name)) throw new InputError(`dataset '${name}' is listed twice`, { field: 'datasets' });
    seen.add(name);
    const all = loadOpenDataset(name, opts);
    if (all.length === 0)
      throw new InputError(`dataset '${name}' has no prompts`, { field: 'datasets', ...fileOf(name, opts) });
    if (n > all.length)
      throw new InputError(
        `sample size ${n} is larger than dataset '${name}' (${all.length} prompts); lower --n`,
        { field: 'n' },
      );
    const rng = new PyRandom(deriveSeed(opts.seed ?? 0, 'sago/sample', name));
    return { name, available: all.length, prompts: rng.sample(all, n) };
  });
}

/** Every prompt of one dataset (built-in, named, or a file path). */
export function loadOpenDataset(name: string, opts: ResolveOpenPromptsOptions = {}): OpenPrompt[] {
  if (name === BUILTIN_OPEN_DATASET) {
    return BUILTIN_OPEN_QUESTIONS.map((q, index) => ({
      id: q.id,
      dataset: BUILTIN_OPEN_DATASET,
      text: q.text,
      source: { file: 'builtin:open-questions', index },
    }));
  }
  const named = OPEN_DATASETS[name];
  if (named) {
    const dir = openDataDir(opts);
    const path = resolve(dir, named.file);
    if (!existsSync(path))
      throw new InputError(
        `dataset '${name}' not found: ${path} is missing (set WAVER_DATA_DIR or --data-dir to the directory holding ${named.file})`,
        { field: 'datasets' },
      );
    return named.load(path, named.file);
  }
  if (/\.(jsonl|ndjson|json|csv)$/i.test(name)) return loadOpenFile(name, opts.fields);
  throw new InputError(
    `unknown dataset '${name}': expected ${[BUILTIN_OPEN_DATASET, ...Object.keys(OPEN_DATASETS)].join(', ')} or a .jsonl/.json/.csv file`,
    { field: 'datasets' },
  );
}

function fileOf(name: string, opts: ResolveOpenPromptsOptions): { file?: string } {
  const named = OPEN_DATASETS[name];
  if (named) return { file: resolve(openDataDir(opts), named.file) };
  if (name === BUILTIN_OPEN_DATASET) return {};
  return { file: name };
}
