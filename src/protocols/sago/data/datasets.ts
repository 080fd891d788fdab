import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { catalogNameOf, HUB_DATASETS } from '../../../data/catalog.js';
import { isHfDatasetSpec, parseHfDatasetSpec } from '../../../data/dataset-spec.js';
import { OPEN_DATASETS, OPEN_NAMES, type OpenName, openPromptsFromHub } from '../../../data/open/named.js';
import type { OpenPrompt } from '../../../data/open/open-prompt.js';
import { type DatasetSource, localFileEntry } from '../../../data/provenance.js';
import { isRecordFile } from '../../../data/records.js';
import {
  type DataOptions,
  explicitDataDir,
  hubSpecOf,
  readHubRecords,
  readLocalRecords,
  readNamedFromHub,
} from '../../../data/sources.js';
import { InputError } from '../../../errors.js';
import { deriveSeed, PyRandom } from '../../../util/random.js';
import { BUILTIN_OPEN_QUESTIONS } from './builtin-questions.js';
import { type FieldMapping, promptsFromRecords } from './open-jsonl.js';

/** The built-in set's name (original questions, no file needed). */
export const BUILTIN_OPEN_DATASET = 'builtin';

export interface ResolveOpenPromptsOptions extends DataOptions {
  /** Prompts sampled per dataset (default 16, the paper's operating point). */
  n?: number;
  seed?: number;
  /** Where named datasets live: this, else env WAVER_DATA_DIR, else none (they come from the Hub). */
  dataDir?: string;
  /** Field mapping for dataset files and `hf:` datasets. */
  fields?: FieldMapping;
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
  if (isHfDatasetSpec(name)) return loadHub(name, opts);
  const named = OPEN_DATASETS[name as OpenName];
  if (named) {
    const dir = explicitDataDir(opts);
    if (dir === undefined) {
      const loaded = await readNamedFromHub(name as OpenName, { ...opts, pass: '--datasets FILE' });
      return { prompts: openPromptsFromHub(name, named, loaded.records), source: loaded.source };
    }
    const path = resolve(dir, named.file);
    if (!existsSync(path))
      throw new InputError(
        `dataset '${name}' not found: ${path} is missing (set WAVER_DATA_DIR or --data-dir to the directory holding ${named.file}, or unset both to download it from the Hugging Face Hub)`,
        { field: 'datasets' },
      );
    const ref = HUB_DATASETS[name as OpenName] as { licence: string; licenceNote?: string };
    return {
      prompts: named.load(path, named.file),
      source: {
        name,
        files: [localFileEntry(path, named.file)],
        licence: ref.licence,
        ...(ref.licenceNote !== undefined && { licenceNote: ref.licenceNote }),
      },
    };
  }
  if (isRecordFile(name)) {
    // Errors name the file as given; the prompts' dataset is the records' content name, never the
    // path (docs/datasets.md#identity): it keys the variants' seeds and the tests.
    const loaded = await readLocalRecords(resolve(opts.cwd ?? process.cwd(), name), { label: name });
    return {
      prompts: promptsFromRecords(loaded.records, loaded.source.name, opts.fields),
      source: loaded.source,
    };
  }
  throw new InputError(
    `unknown dataset '${name}': expected ${[BUILTIN_OPEN_DATASET, ...OPEN_NAMES].join(', ')}, an hf:OWNER/NAME dataset, or a .jsonl/.json/.csv/.parquet file`,
    { field: 'datasets' },
  );
}

async function loadHub(name: string, opts: ResolveOpenPromptsOptions) {
  const spec = parseHfDatasetSpec(name);
  const known = catalogNameOf(spec.repo, spec.config, OPEN_NAMES);
  const ref = known ? HUB_DATASETS[known] : undefined;
  const full =
    ref && spec.config === undefined && spec.split === undefined ? { ...hubSpecOf(ref), ...spec } : spec;
  const loaded = await readHubRecords(name, full, { ...opts, ...(ref && { known: ref }) });
  const prompts =
    known && opts.fields === undefined
      ? openPromptsFromHub(name, OPEN_DATASETS[known], loaded.records)
      : promptsFromRecords(loaded.records, name, opts.fields);
  return { prompts, source: loaded.source };
}

function fileOf(name: string, opts: ResolveOpenPromptsOptions): { file?: string } {
  const named = OPEN_DATASETS[name as OpenName];
  const dir = explicitDataDir(opts);
  if (named) return dir !== undefined ? { file: resolve(dir, named.file) } : {};
  if (name === BUILTIN_OPEN_DATASET || isHfDatasetSpec(name)) return {};
  return { file: name };
}
