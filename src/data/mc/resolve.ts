import { existsSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { isHfDatasetSpec, parseHfDatasetSpec } from '../dataset-spec.js';
import type { ChoiceDataset } from '../named-dataset.js';
import type { DatasetSource } from '../provenance.js';
import { looksLikePath } from '../records.js';
import { namedDataset, namedDatasetOfRepo, namedDatasets } from '../registry.js';
import {
  type DataOptions,
  explicitDataDir,
  hubSpecOf,
  isOnHub,
  namedFileSource,
  namedLicence,
  notOnHub,
  readHubRecords,
  readLocalRecords,
  readNamedFromHub,
} from '../sources.js';
import type { McItem } from './mc-item.js';
import { loadMcJsonl } from './mc-jsonl.js';
import { type McFields, mcItemsFromRecords } from './mc-records.js';

/**
 * The choice loader: multiple-choice items by `--dataset` (docs/datasets.md), for any protocol:
 * - a name (`arc-challenge`, `commonsenseqa`, `truthfulqa-mc`, an alias, or one registered): that
 *   dataset from its Hugging Face Hub home, or its file under the data directory when `WAVER_DATA_DIR` is set;
 * - `hf:OWNER/NAME...`: a Hub dataset (a named one's repository reads as that dataset);
 * - `NAME:FILE`: that dataset's file format read from FILE;
 * - any other file: JSONL, JSON, CSV or Parquet records, read with one set of field fallbacks
 *   and the field mapping (see mc-records.ts); a JSONL in waver's item form by mc-jsonl.ts.
 * A protocol's own built-in set is the protocol's (it names it in `builtins`, for the error message).
 */

export interface McDataset {
  /** A built-in set's name, a dataset name, the `hf:` spec as given, or a file's content name (docs/datasets.md#identity). */
  name: string;
  /** The file read (absent for built-in items and Hub datasets). */
  file?: string;
  items: McItem[];
  /** The dataset's record (commit, files' sha256, licence); absent for built-in items. */
  source?: DatasetSource;
}

export interface McDatasetOptions extends DataOptions {
  /** Field mapping for record files and `hf:` datasets. */
  fields?: McFields;
}

interface ChoiceLoadOptions extends McDatasetOptions {
  /** The setting that maps fields, named in errors (`paraphrase.fields`). */
  mapping: string;
  /** The protocol's built-in sets, listed in the unknown-dataset error. */
  builtins: readonly string[];
}

export async function resolveChoiceDataset(dataset: string, opts: ChoiceLoadOptions): Promise<McDataset> {
  const cwd = opts.cwd ?? process.cwd();
  if (isHfDatasetSpec(dataset)) return loadHub(dataset, opts);
  const byName = namedDataset(dataset, ['choice']) as ChoiceDataset | undefined;
  if (byName) return loadNamed(byName, opts);
  const colon = dataset.indexOf(':');
  if (colon > 0) {
    const prefixed = namedDataset(dataset.slice(0, colon), ['choice']) as ChoiceDataset | undefined;
    if (prefixed) return loadDeclared(prefixed, resolve(cwd, dataset.slice(colon + 1)));
  }
  const file = resolve(cwd, dataset);
  if (isFile(file)) return loadFile(file, opts);
  if (looksLikePath(dataset))
    throw new InputError('cannot read dataset: no such file', { file: dataset, field: 'dataset' });
  const names = namedDatasets(['choice']).map((d) => d.name);
  throw new InputError(
    `unknown dataset '${dataset}': expected ${[...opts.builtins, ...names].join(', ')}, hf:OWNER/NAME, NAME:FILE, or a .jsonl, .json, .csv or .parquet file`,
    { field: 'dataset' },
  );
}

/** A named dataset: from the Hub, or its file under the data directory the user set. */
async function loadNamed(d: ChoiceDataset, opts: ChoiceLoadOptions): Promise<McDataset> {
  const dir = explicitDataDir(opts);
  if (dir === undefined) {
    if (!isOnHub(d)) throw notOnHub(d);
    const loaded = await readNamedFromHub(d, { ...opts, pass: `--dataset ${d.name}:FILE` });
    return { name: d.name, items: d.choice.fromHub(loaded.records), source: loaded.source };
  }
  const file = resolve(dir, d.file);
  if (!existsSync(file))
    throw new InputError(
      `dataset '${d.name}' not found at ${file}: set WAVER_DATA_DIR to the folder that holds ${d.file}, pass ${d.name}:FILE, or unset WAVER_DATA_DIR to download it from the Hugging Face Hub`,
      { field: 'dataset' },
    );
  return { name: d.name, file, items: d.choice.load(file), source: namedFileSource(d, file) };
}

/**
 * `NAME:FILE`: the file is the named dataset, as declared: its name, its records' digest and the
 * entry's licence, never its path (docs/datasets.md#identity).
 */
async function loadDeclared(d: ChoiceDataset, file: string): Promise<McDataset> {
  if (!isFile(file)) throw new InputError('cannot read dataset: no such file', { file, field: 'dataset' });
  const loaded = await readLocalRecords(file, { declared: d.name });
  // A Parquet file is the Hub's form of the dataset (downloaded by hand).
  const items =
    extname(file).toLowerCase() === '.parquet' ? d.choice.fromHub(loaded.records) : d.choice.load(file);
  return { name: d.name, file, items, source: { ...loaded.source, ...namedLicence(d) } };
}

async function loadFile(file: string, opts: ChoiceLoadOptions): Promise<McDataset> {
  const loaded = await readLocalRecords(file);
  // A file is named by its records' content, not its path or format (docs/datasets.md#identity).
  const name = loaded.source.name;
  // Read by what the records hold (docs/decisions.md#e32-datasets-are-read-by-what-their-records-hold):
  // a JSONL of waver's item form keeps its own reader (its duplicate-key check, `line-N` ids);
  // every other file, JSONL included, goes through the one set of field fallbacks.
  if (/\.(jsonl|ndjson)$/i.test(file) && opts.fields === undefined && isWaverItem(loaded.records[0]?.value))
    return { name, file, items: loadMcJsonl(file, name), source: loaded.source };
  const items = mcItemsFromRecords(loaded.records, {
    mapping: opts.mapping,
    prefix: 'item',
    category: 'uncategorised',
    sourcePrefix: name,
    ...(opts.fields && { fields: opts.fields }),
  });
  return { name, file, items, source: loaded.source };
}

async function loadHub(dataset: string, opts: ChoiceLoadOptions): Promise<McDataset> {
  const spec = parseHfDatasetSpec(dataset);
  const known = namedDatasetOfRepo(spec.repo, spec.config, ['choice']) as ChoiceDataset | undefined;
  const ref = known?.hub;
  const full =
    ref && spec.config === undefined && spec.split === undefined ? { ...hubSpecOf(ref), ...spec } : spec;
  const loaded = await readHubRecords(dataset, full, { ...opts, ...(ref && { known: ref }) });
  const items =
    known && opts.fields === undefined
      ? known.choice.fromHub(loaded.records)
      : mcItemsFromRecords(loaded.records, {
          mapping: opts.mapping,
          prefix: spec.repo.split('/')[1] ?? 'item',
          category: 'uncategorised',
          sourcePrefix: dataset,
          ...(opts.fields && { fields: opts.fields }),
        });
  return { name: known?.name ?? dataset, items, source: loaded.source };
}

/** waver's own item form names its question `stem` (docs/paraphrase.md#items). */
function isWaverItem(value: unknown): boolean {
  return typeof (value as { stem?: unknown } | undefined)?.stem === 'string';
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
