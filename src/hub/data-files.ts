import { InputError } from '../errors.js';
import type { HubFile } from './datasets.js';

/**
 * Which files of a Hub dataset repository hold a config's split, by the Hub's own layout rules
 * (the ones `datasets` applies when a card declares no `data_files`): a config is a top-level
 * folder (`main/`, `ARC-Challenge/`; `data/` or the root for a repository with one config), and a
 * split's files are those whose path names it between separators (`test-00000-of-00001.parquet`,
 * `test.jsonl`, `simple_qa_test_set.csv`). Shards come in path order. A `file` picks one file.
 */

export const DATA_EXTENSIONS = ['.parquet', '.jsonl', '.ndjson', '.json', '.csv'] as const;

/** The split used when none is named: an evaluation reads the test split where there is one. */
export const SPLIT_PREFERENCE = ['test', 'validation', 'dev', 'eval', 'train'] as const;

export interface DataFileChoice {
  files: HubFile[];
  config?: string;
  split?: string;
}

export function selectDataFiles(
  all: readonly HubFile[],
  want: { config?: string; split?: string; file?: string },
  repo: string,
): DataFileChoice {
  const data = all.filter((f) => isDataFile(f.path));
  if (want.file !== undefined) {
    const file = all.find((f) => f.path === want.file);
    if (!file)
      throw new InputError(
        `hf:${repo} has no file '${want.file}' (its data files: ${list(data.map((f) => f.path))})`,
        { field: 'dataset' },
      );
    return {
      files: [file],
      ...(want.config && { config: want.config }),
      ...(want.split && { split: want.split }),
    };
  }
  if (data.length === 0)
    throw new InputError(`hf:${repo} has no data files (${DATA_EXTENSIONS.join(', ')})`, {
      field: 'dataset',
    });

  const configs = [...new Set(data.filter((f) => f.path.includes('/')).map((f) => topFolder(f.path)))];
  let inConfig: HubFile[];
  let config = want.config;
  if (config !== undefined) {
    inConfig = data.filter((f) => topFolder(f.path) === config);
    if (inConfig.length === 0)
      throw new InputError(
        `hf:${repo} has no config '${config}' (its configs: ${list(configs)}); name one with ?config=`,
        { field: 'dataset' },
      );
  } else {
    const named = configs.filter((c) => c !== 'data');
    if (named.length > 1)
      throw new InputError(`hf:${repo} has several configs (${list(named)}): name one with ?config=`, {
        field: 'dataset',
      });
    inConfig = data;
    config = named.length === 1 ? named[0] : undefined;
  }

  const relative = (f: HubFile) => (config !== undefined ? f.path.slice(config.length + 1) : f.path);
  const splitOf = (split: string) => inConfig.filter((f) => namesSplit(relative(f), split));
  if (want.split !== undefined) {
    const files = splitOf(want.split);
    if (files.length === 0)
      throw new InputError(
        `hf:${repo}${config ? ` (config ${config})` : ''} has no '${want.split}' split (its files: ${list(inConfig.map((f) => f.path))})`,
        { field: 'dataset' },
      );
    return { files, ...(config && { config }), split: want.split };
  }
  for (const split of SPLIT_PREFERENCE) {
    const files = splitOf(split);
    if (files.length > 0) return { files, ...(config && { config }), split };
  }
  if (inConfig.length === 1) return { files: inConfig, ...(config && { config }) };
  throw new InputError(
    `hf:${repo}: cannot tell which files are a split (${list(inConfig.map((f) => f.path))}); name one with ?split= or ?file=`,
    { field: 'dataset' },
  );
}

function isDataFile(path: string): boolean {
  const name = path.split('/').at(-1) ?? '';
  if (name.startsWith('.')) return false;
  const lower = name.toLowerCase();
  return DATA_EXTENSIONS.some((e) => lower.endsWith(e));
}

function topFolder(path: string): string {
  return path.split('/')[0] ?? '';
}

/** Whether `path` names `split` between separators (start, end, `/`, `-`, `_`, `.`, space, digits). */
function namesSplit(path: string, split: string): boolean {
  const escaped = split.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[-._ 0-9/])${escaped}([-._ 0-9/]|$)`).test(path);
}

function list(items: readonly string[]): string {
  if (items.length === 0) return 'none';
  return items.length > 8 ? `${items.slice(0, 8).join(', ')}, ...` : items.join(', ');
}
