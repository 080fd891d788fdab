import { InputError } from '../../errors.js';
import { type DataRecord, pick } from '../records.js';
import { ALPACA_FILE, loadAlpaca } from './alpaca.js';
import { HOTPOTQA_FILE, loadHotpotQa } from './hotpotqa.js';
import { loadNqOpen, NQ_OPEN_FILE } from './nq-open.js';
import { cleanText, type OpenPrompt } from './open-prompt.js';
import { loadSimpleQa, SIMPLEQA_FILE } from './simpleqa.js';
import { loadTriviaQa, TRIVIAQA_FILE } from './triviaqa.js';
import { loadTruthfulQa, TRUTHFULQA_FILE } from './truthfulqa.js';

/**
 * The named open-ended datasets (docs/datasets.md#catalog): the file each is read from under a data
 * directory (docs/datasets.md#offline), its loader, and how the Hub's rows become prompts. One table
 * for every protocol that asks open questions.
 */

export type OpenName = 'truthfulqa' | 'nq-open' | 'triviaqa' | 'hotpotqa' | 'simpleqa' | 'alpaca';

export interface NamedOpenDataset {
  /** Path under a data directory (docs/datasets.md#offline) and the loader of that file. */
  file: string;
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

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

export const OPEN_DATASETS: Readonly<Record<OpenName, NamedOpenDataset>> = {
  truthfulqa: {
    file: TRUTHFULQA_FILE,
    load: loadTruthfulQa,
    hub: {
      prompt: 'question',
      references: (r) => strings(pick(r, 'correct_answers')),
      id: (_r, i) => `tqa-${i}`,
    },
  },
  // NQ-open and TriviaQA ids are 1-based lines in their JSONL files; the Hub's rows keep that numbering.
  'nq-open': {
    file: NQ_OPEN_FILE,
    load: loadNqOpen,
    hub: { prompt: 'question', references: (r) => strings(pick(r, 'answer')), id: (_r, i) => `nq-${i + 1}` },
  },
  triviaqa: {
    file: TRIVIAQA_FILE,
    load: loadTriviaQa,
    hub: {
      prompt: 'question',
      references: (r) => strings(pick(r, 'answer.value')),
      aliases: (r) => strings(pick(r, 'answer.aliases')),
      id: (r, i) => `trivia-${String(pick(r, 'question_id') ?? i + 1)}`,
    },
  },
  hotpotqa: {
    file: HOTPOTQA_FILE,
    load: loadHotpotQa,
    hub: { prompt: 'question', references: (r) => strings(pick(r, 'answer')), id: (_r, i) => `hotpot-${i}` },
  },
  simpleqa: {
    file: SIMPLEQA_FILE,
    load: loadSimpleQa,
    hub: { prompt: 'problem', references: (r) => strings(pick(r, 'answer')), id: (_r, i) => `simpleqa-${i}` },
  },
  alpaca: {
    file: ALPACA_FILE,
    load: loadAlpaca,
    hub: { prompt: 'instruction', id: (_r, i) => `alpaca-${i}`, keepLines: true },
  },
};

export const OPEN_NAMES = Object.keys(OPEN_DATASETS) as OpenName[];

/** A named dataset's prompts from its Hub rows (the Hub's columns, not the local files'). */
export function openPromptsFromHub(
  dataset: string,
  named: NamedOpenDataset,
  records: readonly DataRecord[],
): OpenPrompt[] {
  return records.flatMap((r) => {
    const raw = pick(r.value, named.hub.prompt);
    if (typeof raw !== 'string')
      throw new InputError('must be a string', {
        file: r.where.file,
        ...(r.where.line !== undefined && { line: r.where.line }),
        field: named.hub.prompt,
      });
    const text = named.hub.keepLines ? raw.trim() : cleanText(raw);
    if (cleanText(text) === '') return [];
    const references = named.hub.references?.(r.value) ?? [];
    const aliases = named.hub.aliases?.(r.value) ?? [];
    return [
      {
        id: named.hub.id(r.value, r.where.index),
        dataset,
        text,
        ...(references.length > 0 && { references }),
        ...(aliases.length > 0 && { aliases }),
        source: { file: r.where.file, index: r.where.index },
      },
    ];
  });
}
