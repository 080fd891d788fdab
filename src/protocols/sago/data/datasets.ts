import type { OpenPrompt } from '../../../data/open/open-prompt.js';
import {
  OPEN_TYPES,
  type OpenDatasetOptions,
  openDatasetFile,
  resolveOpenDataset,
} from '../../../data/open/resolve.js';
import type { DatasetSource } from '../../../data/provenance.js';
import { namedDatasets } from '../../../data/registry.js';
import { InputError } from '../../../errors.js';
import { deriveSeed, PyRandom } from '../../../util/random.js';
import { BUILTIN_OPEN_QUESTIONS } from './builtin-questions.js';

/** The built-in set's name (original questions, no file needed). */
export const BUILTIN_OPEN_DATASET = 'builtin';

export interface ResolveOpenPromptsOptions extends OpenDatasetOptions {
  /** Prompts sampled per dataset (default 16, the paper's operating point). */
  n?: number;
  seed?: number;
}

export interface OpenDatasetSample {
  /** What the dataset is: its name, its `hf:` spec, or a file's content name (docs/datasets.md#identity). */
  name: string;
  /** Prompts in the dataset before sampling. */
  available: number;
  prompts: OpenPrompt[];
  /** The dataset's record (commit, files' sha256, licence); absent for the built-in set. */
  source?: DatasetSource;
}

export const DEFAULT_PROMPTS_PER_DATASET = 16;

/**
 * N prompts per dataset, sampled without replacement with CPython's `random.Random(seed).sample`
 * (seed derived from the run seed and the dataset name, so adding a dataset does not change the
 * others' samples). With no names, the built-in set. Every problem is an InputError naming the
 * dataset or file: an unknown name, a missing file, an empty dataset, N larger than the dataset.
 */
export async function resolveOpenPrompts(
  names: readonly string[],
  opts: ResolveOpenPromptsOptions = {},
): Promise<OpenDatasetSample[]> {
  const n = opts.n ?? DEFAULT_PROMPTS_PER_DATASET;
  if (!(Number.isInteger(n) && n > 0))
    throw new InputError(`the sample size must be a positive integer, got ${n}`, { field: 'n' });
  const list = names.length > 0 ? [...names] : [BUILTIN_OPEN_DATASET];
  const seen = new Set<string>();
  for (const name of list) {
    if (seen.has(name)) throw new InputError(`dataset '${name}' is listed twice`, { field: 'datasets' });
    seen.add(name);
  }
  const samples: OpenDatasetSample[] = [];
  const given = new Map<string, string>();
  for (const name of list) {
    const { prompts: all, source } = await loadOpenSource(name, opts);
    if (all.length === 0)
      throw new InputError(`dataset '${name}' has no prompts`, { field: 'datasets', ...fileOf(name, opts) });
    if (n > all.length)
      throw new InputError(
        `sample size ${n} is larger than dataset '${name}' (${all.length} prompts); lower --n`,
        { field: 'n' },
      );
    // A dataset is what it holds: a file by its records' content name, not its path (docs/datasets.md#identity).
    const identity = source?.name ?? name;
    const twin = given.get(identity);
    if (twin !== undefined)
      throw new InputError(`'${twin}' and '${name}' hold the same records (${identity}): list one of them`, {
        field: 'datasets',
      });
    given.set(identity, name);
    const rng = new PyRandom(deriveSeed(opts.seed ?? 0, 'sago/sample', identity));
    samples.push({
      name: identity,
      available: all.length,
      prompts: rng.sample(all, n),
      ...(source && { source }),
    });
  }
  return samples;
}

/** Every prompt of one dataset (built-in, named, `hf:`, or a file path). */
export async function loadOpenDataset(
  name: string,
  opts: ResolveOpenPromptsOptions = {},
): Promise<OpenPrompt[]> {
  return (await loadOpenSource(name, opts)).prompts;
}

/** The built-in set is sago's own; every other dataset comes through the datasets layer's open-prompt loader. */
async function loadOpenSource(
  name: string,
  opts: ResolveOpenPromptsOptions,
): Promise<{ prompts: OpenPrompt[]; source?: DatasetSource }> {
  if (name === BUILTIN_OPEN_DATASET) {
    return {
      prompts: BUILTIN_OPEN_QUESTIONS.map((q, index) => ({
        id: q.id,
        dataset: BUILTIN_OPEN_DATASET,
        text: q.text,
        source: { file: 'builtin:open-questions', index },
      })),
    };
  }
  const loaded = await resolveOpenDataset(name, opts);
  if (loaded) return loaded;
  const names = namedDatasets(OPEN_TYPES).map((d) => d.name);
  throw new InputError(
    `unknown dataset '${name}': expected ${[BUILTIN_OPEN_DATASET, ...names].join(', ')}, an hf:OWNER/NAME dataset, or a .jsonl/.json/.csv/.parquet file`,
    { field: 'datasets' },
  );
}

function fileOf(name: string, opts: ResolveOpenPromptsOptions): { file?: string } {
  return name === BUILTIN_OPEN_DATASET ? {} : openDatasetFile(name, opts);
}
