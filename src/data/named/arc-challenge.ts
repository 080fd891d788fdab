import { loadArcChallenge } from '../mc/arc.js';
import { mcItemsFromRecords } from '../mc/mc-records.js';
import { type NamedDataset, SA_NOTE } from '../named-dataset.js';

export const ARC_CHALLENGE: NamedDataset = {
  name: 'arc-challenge',
  aliases: ['arc'],
  answerType: 'choice',
  file: 'arc-challenge/arc_challenge.jsonl',
  hub: {
    repo: 'allenai/ai2_arc',
    config: 'ARC-Challenge',
    split: 'test',
    licence: 'CC-BY-SA-4.0',
    licenceNote: SA_NOTE,
  },
  choice: {
    load: loadArcChallenge,
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
};
