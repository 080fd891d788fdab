import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { isHfDatasetSpec, parseHfDatasetSpec } from '../dataset-spec.js';
import type { OpenDataset } from '../named-dataset.js';
import type { DatasetSource } from '../provenance.js';
import { isRecordFile } from '../records.js';
import { namedDataset, namedDatasetOfRepo } from '../registry.js';
import {
  type DataOptions,
  explicitDataDir,
  hubSpecOf,
  isOnHub,
  namedFileSource,
  notOnHub,
  readHubRecords,
  readLocalRecords,
  readNamedFromHub,
} from '../sources.js';
import { openPromptsFromHub } from './from-hub.js';
import type { OpenPrompt } from './open-prompt.js';
import { type FieldMapping, promptsFromRecords } from './open-records.js';

/**
 * The open-prompt loader: every prompt of one dataset, for any protocol: a named dataset of open or
 * text answers (from the Hub, or its file under the data directory), a `hf:` dataset, or a record
 * file mapped by `fields` (docs/datasets.md#fields). A protocol's built-in set is the protocol's.
 */

export interface OpenDatasetOptions extends DataOptions {
  /** Where named datasets live: this, else env WAVER_DATA_DIR, else none (they come from the Hub). */
  dataDir?: string;
  /** Field mapping for dataset files and `hf:` datasets. */
  fields?: FieldMapping;
}

/** A dataset's prompts and its record (commit, files' sha256, licence). */
export interface OpenDatasetPrompts {
  prompts: OpenPrompt[];
  source: DatasetSource;
}

/** The open-prompt datasets a name can be: open prompts, and questions with short answers. */
export const OPEN_TYPES = ['open', 'text'] as const;

/** A dataset's prompts, or undefined when `name` is no named dataset, `hf:` spec or record file. */
export async function resolveOpenDataset(
  name: string,
  opts: OpenDatasetOptions,
): Promise<OpenDatasetPrompts | undefined> {
  if (isHfDatasetSpec(name)) return loadHub(name, opts);
  const named = namedDataset(name, OPEN_TYPES) as OpenDataset | undefined;
  if (named) return loadNamed(named, opts);
  if (isRecordFile(name)) {
    // Errors name the file as given; the prompts' dataset is the records' content name, never the
    // path (docs/datasets.md#identity): it keys the variants' seeds and the tests.
    const loaded = await readLocalRecords(resolve(opts.cwd ?? process.cwd(), name), { label: name });
    return {
      prompts: promptsFromRecords(loaded.records, loaded.source.name, opts.fields),
      source: loaded.source,
    };
  }
  return undefined;
}

/** The file a dataset's errors name: a named dataset's under the data directory, or the file given. */
export function openDatasetFile(name: string, opts: OpenDatasetOptions): { file?: string } {
  const named = namedDataset(name, OPEN_TYPES);
  const dir = explicitDataDir(opts);
  if (named) return dir !== undefined ? { file: resolve(dir, named.file) } : {};
  if (isHfDatasetSpec(name)) return {};
  return { file: name };
}

async function loadNamed(named: OpenDataset, opts: OpenDatasetOptions): Promise<OpenDatasetPrompts> {
  const dir = explicitDataDir(opts);
  if (dir === undefined) {
    if (!isOnHub(named)) throw notOnHub(named);
    const loaded = await readNamedFromHub(named, { ...opts, pass: '--datasets FILE' });
    return { prompts: openPromptsFromHub(named.name, named.open, loaded.records), source: loaded.source };
  }
  const path = resolve(dir, named.file);
  if (!existsSync(path))
    throw new InputError(
      `dataset '${named.name}' not found: ${path} is missing (set WAVER_DATA_DIR or --data-dir to the directory holding ${named.file}, or unset both to download it from the Hugging Face Hub)`,
      { field: 'datasets' },
    );
  return { prompts: named.open.load(path, named.file), source: namedFileSource(named, path) };
}

async function loadHub(name: string, opts: OpenDatasetOptions): Promise<OpenDatasetPrompts> {
  const spec = parseHfDatasetSpec(name);
  const known = namedDatasetOfRepo(spec.repo, spec.config, OPEN_TYPES) as OpenDataset | undefined;
  const ref = known?.hub;
  const full =
    ref && spec.config === undefined && spec.split === undefined ? { ...hubSpecOf(ref), ...spec } : spec;
  const loaded = await readHubRecords(name, full, { ...opts, ...(ref && { known: ref }) });
  const prompts =
    known && opts.fields === undefined
      ? openPromptsFromHub(name, known.open, loaded.records)
      : promptsFromRecords(loaded.records, name, opts.fields);
  return { prompts, source: loaded.source };
}
