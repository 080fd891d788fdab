import { loadTruthfulQaMc, truthfulQaHubRows, truthfulQaMcItems } from '../mc/truthfulqa-mc.js';
import type { NamedDataset } from '../named-dataset.js';

export const TRUTHFULQA_MC: NamedDataset = {
  name: 'truthfulqa-mc',
  aliases: ['truthfulqa', 'truthfulqa-mc1'],
  answerType: 'choice',
  file: 'truthfulqa/mc_task.json',
  hub: {
    repo: 'truthfulqa/truthful_qa',
    config: 'multiple_choice',
    split: 'validation',
    licence: 'Apache-2.0',
  },
  choice: {
    load: loadTruthfulQaMc,
    fromHub: (records) =>
      truthfulQaMcItems(
        truthfulQaHubRows(records.map((r) => r.value)),
        records[0]?.where.file ?? 'truthfulqa-mc',
      ),
  },
};
