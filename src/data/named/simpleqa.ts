import { type NamedDataset, strings } from '../named-dataset.js';
import { loadSimpleQa, SIMPLEQA_FILE } from '../open/simpleqa.js';
import { pick } from '../records.js';

export const SIMPLEQA: NamedDataset = {
  name: 'simpleqa',
  answerType: 'text',
  file: SIMPLEQA_FILE,
  // OpenAI publishes SimpleQA as a CSV beside simple-evals, not on the Hub; this is the copy
  // evaluation tools load (the same 4,326 rows and columns).
  hub: { repo: 'basicv8vc/SimpleQA', split: 'test', licence: 'MIT' },
  open: {
    load: loadSimpleQa,
    hub: { prompt: 'problem', references: (r) => strings(pick(r, 'answer')), id: (_r, i) => `simpleqa-${i}` },
  },
};
