import type { McItem } from './mc/mc-item.js';
import type { OpenPrompt } from './open/open-prompt.js';
import type { DataRecord } from './records.js';

/**
 * What a named dataset is (docs/datasets.md#catalog): its canonical Hugging Face Hub home, its file
 * under a data directory (docs/datasets.md#offline), its licence as the card states it, the answer
 * type of its records and the reader of that type. One module per dataset in `named/`, one line
 * each in `named/index.ts`; `registerDataset` (registry.ts) adds one from anywhere else.
 */

/** A dataset's canonical Hub home: config, split and (where the repository follows no split naming) file. */
export interface HubDatasetRef {
  repo: string;
  config?: string;
  split: string;
  file?: string;
  /** As the card states it; the card's own `license` field, when the Hub sends one, wins. */
  licence: string;
  licenceNote?: string;
}

/**
 * What a dataset's records answer: a number (grade-school problems), a choice (a stem, options and
 * the key), a text (a question and its short gold answers), or nothing to score (an open prompt).
 * A `text` dataset is also read as open prompts (its answers as references).
 */
export type DatasetAnswerType = 'number' | 'choice' | 'text' | 'open';

/** Multiple-choice items from the data directory's file, or from the Hub's rows. */
export interface ChoiceReader {
  load: (file: string) => McItem[];
  fromHub: (records: readonly DataRecord[]) => McItem[];
}

/** Open prompts from the data directory's file, or the Hub's columns mapped to them. */
export interface OpenReader {
  load: (path: string, label: string) => OpenPrompt[];
  /** How the Hub's rows map to prompts: the prompt field, references, aliases and the id of row `index`. */
  hub: {
    prompt: string;
    references?: (row: unknown) => string[];
    aliases?: (row: unknown) => string[];
    id: (row: unknown, index: number) => string;
    /** Instructions keep their line breaks; questions read as one line. */
    keepLines?: boolean;
  };
}

interface NamedBase {
  name: string;
  /** Other names it answers to (any case). */
  aliases?: readonly string[];
  /** Path under a data directory (a folder for a templates dataset). */
  file: string;
  /** Absent for a dataset that is not on the Hub (its file only). */
  hub?: HubDatasetRef;
  /** The licence of a dataset not on the Hub. */
  licence?: string;
}

/**
 * A number dataset's records are read by the protocol that asks numbers (their worked-solution
 * formats are the ladder's seeds, docs/ladder.md); the registry holds where they are and their licence.
 */
export type NamedDataset =
  | (NamedBase & { answerType: 'number' })
  | (NamedBase & { answerType: 'choice'; choice: ChoiceReader })
  | (NamedBase & { answerType: 'text' | 'open'; open: OpenReader });

export type ChoiceDataset = Extract<NamedDataset, { answerType: 'choice' }>;
export type OpenDataset = Extract<NamedDataset, { answerType: 'text' | 'open' }>;

/** What CC BY-NC-ND 4.0 means for waver's outputs (docs/datasets.md#licences). */
export const NC_ND_NOTE =
  'non-commercial use only, and no adapted material may be shared: perturbed or reworded versions of its problems are adaptations, so keep suites built from it private';
export const NC_NOTE = 'non-commercial use only';
export const SA_NOTE = 'adapted material (perturbed prompts) may be shared only under the same licence';

/** Strings of a Hub column holding one or a list. */
export function strings(v: unknown): string[] {
  return Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string')
    : typeof v === 'string'
      ? [v]
      : [];
}
