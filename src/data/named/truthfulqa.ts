import { type NamedDataset, strings } from '../named-dataset.js';
import { loadTruthfulQa, TRUTHFULQA_FILE } from '../open/truthfulqa.js';
import { pick } from '../records.js';

export const TRUTHFULQA: NamedDataset = {
  name: 'truthfulqa',
  answerType: 'open',
  file: TRUTHFULQA_FILE,
  hub: { repo: 'truthfulqa/truthful_qa', config: 'generation', split: 'validation', licence: 'Apache-2.0' },
  open: {
    load: loadTruthfulQa,
    hub: {
      prompt: 'question',
      references: (r) => strings(pick(r, 'correct_answers')),
      id: (_r, i) => `tqa-${i}`,
    },
  },
};
