import { InputError } from '../errors.js';
import { NAMED_DATASETS } from './named/index.js';
import type { DatasetAnswerType, NamedDataset } from './named-dataset.js';

/**
 * The registry of named datasets (docs/datasets.md#catalog): waver's own (`named/index.ts`) and any
 * registered by a library user or a test (`registerDataset`). Every protocol looks names up here,
 * among the answer types it reads, so a dataset registered once is read by each of them.
 */

const registry: NamedDataset[] = [...NAMED_DATASETS];

/** Adds a named dataset; returns how to take it back out. A name or alias already taken is refused. */
export function registerDataset(dataset: NamedDataset): () => void {
  const names = [dataset.name, ...(dataset.aliases ?? [])].map((n) => n.toLowerCase());
  for (const n of names)
    if (registry.some((d) => d.name === n || d.aliases?.includes(n)))
      throw new InputError(`dataset name '${n}' is already registered`, { field: 'name' });
  registry.push(dataset);
  return () => {
    const at = registry.indexOf(dataset);
    if (at >= 0) registry.splice(at, 1);
  };
}

/** The named datasets whose records are one of these answer types, in registry order. */
export function namedDatasets(types: readonly DatasetAnswerType[]): NamedDataset[] {
  return registry.filter((d) => types.includes(d.answerType));
}

/**
 * The dataset a name stands for among these answer types: its canonical name first, else one of its
 * aliases, any case (`truthfulqa` is the open questions for a protocol that reads them, the
 * multiple-choice task for one that reads choices).
 */
export function namedDataset(name: string, types: readonly DatasetAnswerType[]): NamedDataset | undefined {
  const lower = name.toLowerCase();
  const among = namedDatasets(types);
  return among.find((d) => d.name === lower) ?? among.find((d) => d.aliases?.includes(lower));
}

/** Which named dataset (of these types) a Hub repository (and config, when given) is, if any. */
export function namedDatasetOfRepo(
  repo: string,
  config: string | undefined,
  types: readonly DatasetAnswerType[],
): NamedDataset | undefined {
  const matches = namedDatasets(types).filter((d) => d.hub?.repo.toLowerCase() === repo.toLowerCase());
  if (config !== undefined) return matches.find((d) => d.hub?.config === config);
  return matches.length === 1 ? matches[0] : undefined;
}
