import { basename, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { selectDataFiles } from '../hub/data-files.js';
import { fetchDatasetFile, type HubOptions, openDatasetSnapshot } from '../hub/datasets.js';
import { formatHfDatasetSpec, type HfDatasetSpec } from './dataset-spec.js';
import { localRecordsSource } from './identity.js';
import type { HubDatasetRef, NamedDataset } from './named-dataset.js';
import { type DatasetSource, localFileEntry } from './provenance.js';
import { type DataRecord, readRecords } from './records.js';

/**
 * The records of a dataset and where they came from, for the protocols' loaders: a Hub dataset
 * (downloaded and cached, src/hub/), a named dataset's Hub home (src/data/named/), or a local
 * file. The Hub's files of one split are read in path order as one sequence: record `index` counts
 * across shards.
 */

export interface LoadedRecords {
  records: DataRecord[];
  source: DatasetSource;
}

export interface DataOptions {
  /** Hub endpoint, token, cache, progress: see HubOptions (env HF_ENDPOINT, HF_TOKEN, WAVER_CACHE_DIR). */
  hub?: HubOptions;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** The data directory the user set (WAVER_DATA_DIR, or an explicit option); none by default. */
export function explicitDataDir(opts: {
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}): string | undefined {
  const dir = opts.dataDir ?? (opts.env ?? process.env).WAVER_DATA_DIR;
  return dir ? resolve(opts.cwd ?? process.cwd(), dir) : undefined;
}

/** A `hf:` dataset's records. `name` is how the suite names it; `known` adds the catalog's licence. */
export async function readHubRecords(
  name: string,
  spec: HfDatasetSpec,
  opts: DataOptions & { known?: HubDatasetRef; advice?: string } = {},
): Promise<LoadedRecords> {
  const revision = spec.revision ?? 'main';
  const advice = opts.advice ?? hubAdvice(spec);
  const hub = { env: opts.env, ...opts.hub };
  const snapshot = await openDatasetSnapshot(spec.repo, revision, advice, hub);
  const choice = selectDataFiles(snapshot.files, spec, spec.repo);
  const records: DataRecord[] = [];
  const files: DatasetSource['files'] = [];
  for (const file of choice.files) {
    const got = await fetchDatasetFile(snapshot, file, advice, hub);
    files.push({ path: file.path, sha256: got.sha256, bytes: got.bytes });
    for (const r of await readRecords(got.localPath, `hf:${spec.repo}/${file.path}`))
      records.push({ value: r.value, where: { ...r.where, index: records.length } });
  }
  const licence = snapshot.licence ?? opts.known?.licence;
  return {
    records,
    source: {
      name,
      hub: {
        repo: spec.repo,
        revision,
        commit: snapshot.commit,
        ...(choice.config !== undefined && { config: choice.config }),
        ...(choice.split !== undefined && { split: choice.split }),
      },
      files,
      ...(licence !== undefined && { licence }),
      ...(opts.known?.licenceNote !== undefined && { licenceNote: opts.known.licenceNote }),
    },
  };
}

/**
 * A named dataset read from its Hub home. `pass` is how the protocol takes the downloaded file
 * (`--dataset FILE`, `--dataset arc:FILE`), said when the Hub cannot be reached.
 */
export function readNamedFromHub(
  dataset: NamedDataset & { hub: HubDatasetRef },
  opts: DataOptions & { pass?: string } = {},
): Promise<LoadedRecords> {
  const known = dataset.hub;
  const spec = hubSpecOf(known);
  return readHubRecords(dataset.name, spec, {
    ...opts,
    known,
    advice: namedAdvice(dataset.name, known, opts.pass),
  });
}

/** A named dataset's licence, as its entry states it. */
export function namedLicence(dataset: NamedDataset): Pick<DatasetSource, 'licence' | 'licenceNote'> {
  const licence = dataset.hub?.licence ?? dataset.licence;
  const note = dataset.hub?.licenceNote;
  return { ...(licence !== undefined && { licence }), ...(note !== undefined && { licenceNote: note }) };
}

/** A named dataset read from the data directory: its file, and its licence as its entry states it. */
export function namedFileSource(dataset: NamedDataset, path: string): DatasetSource {
  return { name: dataset.name, files: [localFileEntry(path, dataset.file)], ...namedLicence(dataset) };
}

/** A named dataset that is not on the Hub, asked for with no data directory set. */
export function notOnHub(dataset: NamedDataset): InputError {
  return new InputError(
    `dataset '${dataset.name}' is not on the Hugging Face Hub: set WAVER_DATA_DIR to the folder that holds ${dataset.file}`,
    { field: 'dataset' },
  );
}

/** A named dataset that is on the Hub. */
export function isOnHub(dataset: NamedDataset): dataset is NamedDataset & { hub: HubDatasetRef } {
  return dataset.hub !== undefined;
}

export function hubSpecOf(ref: HubDatasetRef): HfDatasetSpec {
  return {
    repo: ref.repo,
    ...(ref.config !== undefined && { config: ref.config }),
    split: ref.split,
    ...(ref.file !== undefined && { file: ref.file }),
  };
}

/**
 * A local data file's records (Parquet, JSONL, JSON, CSV), named by their content or by the named
 * dataset the user declared the file to be (`declared`), never by its path (docs/datasets.md#identity).
 * Errors name the file as `label` (default: the path).
 */
export async function readLocalRecords(
  path: string,
  opts: { label?: string; declared?: string } = {},
): Promise<LoadedRecords> {
  const records = await readRecords(path, opts.label ?? path);
  return { records, source: localRecordsSource(records, opts.declared) };
}

/** What to do when a `hf:` dataset cannot be downloaded. */
export function hubAdvice(spec: HfDatasetSpec): string {
  return `download its files from https://huggingface.co/datasets/${spec.repo} and pass one as --dataset FILE (Parquet, JSONL, JSON or CSV), or set HF_ENDPOINT to a mirror (${formatHfDatasetSpec(spec)})`;
}

/**
 * What to do when a named dataset cannot be downloaded: the repository and files to fetch, and the
 * two ways to point waver at a copy (the file itself, or WAVER_DATA_DIR; docs/datasets.md#offline).
 */
export function namedAdvice(name: string, ref: HubDatasetRef, pass = '--dataset FILE'): string {
  const what = ref.file ?? `the ${ref.config ? `'${ref.config}' config's ` : ''}'${ref.split}' split`;
  return `dataset '${name}' is ${ref.repo} on the Hugging Face Hub: download ${what} from https://huggingface.co/datasets/${ref.repo} and pass it as ${pass}, or set WAVER_DATA_DIR to a folder laid out as docs/datasets.md#offline describes, or set HF_ENDPOINT to a mirror`;
}

/**
 * How a seed says which file it came from, for people (never in a suite, which names a file by
 * its content, docs/datasets.md#identity): the path as given, an absolute one by its file name.
 */
export function localLabel(path: string): string {
  return path.startsWith('/') ? basename(path) : path;
}
