import type { DataRecord } from '../records.js';
import { loadArcChallenge } from './arc.js';
import { loadCommonsenseQa } from './commonsenseqa.js';
import type { McItem } from './mc-item.js';
import { mcItemsFromRecords } from './mc-records.js';
import { loadTruthfulQaMc, truthfulQaHubRows, truthfulQaMcItems } from './truthfulqa-mc.js';

/**
 * The named multiple-choice datasets (docs/datasets.md#catalog): the file each is read from under a
 * data directory (docs/datasets.md#offline), its loader, the other names it answers to, and how the
 * Hub's rows become items. One table for every protocol that asks multiple-choice items.
 */

export type McName = 'arc-challenge' | 'commonsenseqa' | 'truthfulqa-mc';

export interface NamedMcDataset {
  /** Path under the data directory. */
  file: string;
  load: (file: string) => McItem[];
  aliases: string[];
  /** The Hub's rows as items. */
  fromHub: (records: readonly DataRecord[]) => McItem[];
}

export const MC_DATASETS: Readonly<Record<McName, NamedMcDataset>> = {
  'arc-challenge': {
    file: 'arc-challenge/arc_challenge.jsonl',
    load: loadArcChallenge,
    aliases: ['arc'],
    // Numbered by position as the file's rows are; the ARC id is kept in the source.
    fromHub: (records) =>
      mcItemsFromRecords(records, {
        prefix: 'arc-challenge',
        category: 'science',
        sourcePrefix: 'arc-challenge',
        fields: { stem: 'question', options: 'choices', key: 'answerKey' },
      }).map((item, i) => ({
        ...item,
        source: `arc-challenge:${String((records[i]?.value as { id?: unknown })?.id ?? i)}`,
      })),
  },
  commonsenseqa: {
    file: 'commonsenseqa/dev_rand_split.jsonl',
    load: loadCommonsenseQa,
    aliases: ['csqa'],
    fromHub: (records) =>
      mcItemsFromRecords(records, {
        prefix: 'commonsenseqa',
        category: 'commonsense',
        sourcePrefix: 'commonsenseqa',
        fields: { id: 'id', stem: 'question', options: 'choices', key: 'answerKey' },
      }),
  },
  'truthfulqa-mc': {
    file: 'truthfulqa/mc_task.json',
    load: loadTruthfulQaMc,
    aliases: ['truthfulqa', 'truthfulqa-mc1'],
    fromHub: (records) =>
      truthfulQaMcItems(
        truthfulQaHubRows(records.map((r) => r.value)),
        records[0]?.where.file ?? 'truthfulqa-mc',
      ),
  },
};

export const MC_NAMES = Object.keys(MC_DATASETS) as McName[];

/** The dataset a name stands for (its canonical name or one of its aliases, any case). */
export function namedMcDataset(name: string): [McName, NamedMcDataset] | undefined {
  const lower = name.toLowerCase();
  for (const [canonical, d] of Object.entries(MC_DATASETS) as [McName, NamedMcDataset][])
    if (canonical === lower || d.aliases.includes(lower)) return [canonical, d];
  return undefined;
}
