import { loadCommonsenseQa } from '../mc/commonsenseqa.js';
import { mcItemsFromRecords } from '../mc/mc-records.js';
import type { NamedDataset } from '../named-dataset.js';

export const COMMONSENSEQA: NamedDataset = {
  name: 'commonsenseqa',
  aliases: ['csqa'],
  answerType: 'choice',
  file: 'commonsenseqa/dev_rand_split.jsonl',
  hub: { repo: 'tau/commonsense_qa', split: 'validation', licence: 'MIT' },
  choice: {
    load: loadCommonsenseQa,
    fromHub: (records) =>
      mcItemsFromRecords(records, {
        prefix: 'commonsenseqa',
        category: 'commonsense',
        sourcePrefix: 'commonsenseqa',
        fields: { id: 'id', stem: 'question', options: 'choices', key: 'answerKey' },
      }),
  },
};
