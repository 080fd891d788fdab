import { existsSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { catalogNameOf, HUB_DATASETS } from '../../../data/catalog.js';
import { isHfDatasetSpec, parseHfDatasetSpec } from '../../../data/dataset-spec.js';
import type { McItem } from '../../../data/mc/mc-item.js';
import { loadMcJsonl } from '../../../data/mc/mc-jsonl.js';
import { type McFields, mcItemsFromRecords } from '../../../data/mc/mc-records.js';
import { MC_DATASETS, MC_NAMES, type McName, namedMcDataset } from '../../../data/mc/named.js';
import { type DatasetSource, localFileEntry } from '../../../data/provenance.js';
import { looksLikePath } from '../../../data/records.js';
import {
  type DataOptions,
  explicitDataDir,
  hubSpecOf,
  readHubRecords,
  readLocalRecords,
  readNamedFromHub,
} from '../../../data/sources.js';
import { InputError } from '../../../errors.js';
import { BUILTIN_MC_ITEMS } from './builtin-items.js';

/**
 * Where multiple-choice items come from, by `--dataset` (docs/datasets.md):
 * - nothing or `builtin`: the 32 built-in items;
 * - a name (`arc-challenge`, `commonsenseqa`, `truthfulqa-mc`, or an alias): that dataset from its
 *   Hugging Face Hub home, or its file under the data directory when `WAVER_DATA_DIR` is set;
 * - `hf:OWNER/NAME...`: a Hub dataset (a named one's repository reads as that dataset);
 * - `NAME:FILE`: that dataset's file format read from FILE;
 * - any other file: JSONL, JSON, CSV or Parquet records, read with one set of field fallbacks
 *   and `paraphrase.fields` (see mc-records.ts); a JSONL in waver's item form by mc-jsonl.ts.
 */

export interface McDataset {
  /** `builtin`, a dataset name, the `hf:` spec as given, or a file's content name (docs/datasets.md#identity). */
  name: string;
  /** The file read (absent for the built-in items and Hub datasets). */
  file?: string;
  items: McItem[];
  /** The dataset's record (commit, files' sha256, licence); absent for the built-in items. */
  source?: DatasetSource;
}

export interface McDatasetOptions extends DataOptions {
  /** Field mapping for record files and `hf:` datasets (the `paraphrase.fields` config). */
  fields?: McFields;
}

/** The data directory the user set (`WAVER_DATA_DIR`), or undefined: named datasets then come from the Hub. */
export function mcDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  return explicitDataDir({ env, cwd });
}

export async function resolveMcItems(dataset?: string, opts: McDatasetOptions = {}): Promise<McDataset> {
  const cwd = opts.cwd ?? process.cwd();
  if (dataset === undefined || dataset === 'builtin')
    return { name: 'builtin', items: [...BUILTIN_MC_ITEMS] };
  if (isHfDatasetSpec(dataset)) return loadHub(dataset, opts);
  const byName = namedMcDataset(dataset);
  if (byName) {
    const [name, d] = byName;
    const dir = mcDataDir(opts.env, cwd);
    if (dir === undefined) {
      const loaded = await readNamedFromHub(name, { ...opts, pass: `--dataset ${name}:FILE` });
      return { name, items: d.fromHub(loaded.records), source: loaded.source };
    }
    const file = resolve(dir, d.file);
    if (!existsSync(file))
      throw new InputError(
        `dataset '${name}' not found at ${file}: set WAVER_DATA_DIR to the folder that holds ${d.file}, pass ${name}:FILE, or unset WAVER_DATA_DIR to download it from the Hugging Face Hub`,
        { field: 'dataset' },
      );
    return { name, file, items: d.load(file), source: namedSource(name, file, d.file) };
  }
  const colon = dataset.indexOf(':');
  if (colon > 0) {
    const prefixed = namedMcDataset(dataset.slice(0, colon));
    if (prefixed) {
      const [name, d] = prefixed;
      const file = resolve(cwd, dataset.slice(colon + 1));
      if (!isFile(file))
        throw new InputError('cannot read dataset: no such file', { file, field: 'dataset' });
      // The file is the named dataset, as declared: its name, its records' digest and the catalog's
      // licence, never its path (docs/datasets.md#identity).
      const loaded = await readLocalRecords(file, { declared: name });
      // A Parquet file is the Hub's form of the dataset (downloaded by hand).
      const items = extname(file).toLowerCase() === '.parquet' ? d.fromHub(loaded.records) : d.load(file);
      return { name, file, items, source: { ...loaded.source, ...catalogLicence(name) } };
    }
  }
  const file = resolve(cwd, dataset);
  if (isFile(file)) {
    const loaded = await readLocalRecords(file);
    // A file is named by its records' content, not its path or format (docs/datasets.md#identity).
    const name = loaded.source.name;
    // Read by what the records hold (docs/decisions.md#e32-datasets-are-read-by-what-their-records-hold):
    // a JSONL of waver's item form keeps its own reader (its duplicate-key check, `line-N` ids);
    // every other file, JSONL included, goes through the one set of field fallbacks.
    if (/\.(jsonl|ndjson)$/i.test(file) && opts.fields === undefined && isWaverItem(loaded.records[0]?.value))
      return { name, file, items: loadMcJsonl(file, name), source: loaded.source };
    return {
      name,
      file,
      items: mcItemsFromRecords(loaded.records, {
        mapping: 'paraphrase.fields',
        prefix: 'item',
        category: 'uncategorised',
        sourcePrefix: name,
        ...(opts.fields && { fields: opts.fields }),
      }),
      source: loaded.source,
    };
  }
  if (looksLikePath(dataset))
    throw new InputError('cannot read dataset: no such file', { file: dataset, field: 'dataset' });
  throw new InputError(
    `unknown dataset '${dataset}': expected builtin, ${MC_NAMES.join(', ')}, hf:OWNER/NAME, NAME:FILE, or a .jsonl, .json, .csv or .parquet file`,
    { field: 'dataset' },
  );
}

async function loadHub(dataset: string, opts: McDatasetOptions): Promise<McDataset> {
  const spec = parseHfDatasetSpec(dataset);
  const known = catalogNameOf(spec.repo, spec.config, MC_NAMES);
  const ref = known ? HUB_DATASETS[known] : undefined;
  const full =
    ref && spec.config === undefined && spec.split === undefined ? { ...hubSpecOf(ref), ...spec } : spec;
  const loaded = await readHubRecords(dataset, full, { ...opts, ...(ref && { known: ref }) });
  const items =
    known && opts.fields === undefined
      ? MC_DATASETS[known].fromHub(loaded.records)
      : mcItemsFromRecords(loaded.records, {
          mapping: 'paraphrase.fields',
          prefix: spec.repo.split('/')[1] ?? 'item',
          category: 'uncategorised',
          sourcePrefix: dataset,
          ...(opts.fields && { fields: opts.fields }),
        });
  return { name: known ?? dataset, items, source: loaded.source };
}

function namedSource(name: McName, file: string, label: string): DatasetSource {
  return { name, files: [localFileEntry(file, label)], ...catalogLicence(name) };
}

/** A named dataset's licence, as the catalog states it. */
function catalogLicence(name: McName): Pick<DatasetSource, 'licence' | 'licenceNote'> {
  const ref = HUB_DATASETS[name] as { licence: string; licenceNote?: string };
  return { licence: ref.licence, ...(ref.licenceNote !== undefined && { licenceNote: ref.licenceNote }) };
}

/** waver's own item form names its question `stem` (docs/paraphrase.md#items). */
function isWaverItem(value: unknown): boolean {
  return typeof (value as { stem?: unknown } | undefined)?.stem === 'string';
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
