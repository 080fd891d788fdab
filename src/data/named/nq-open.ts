import { type NamedDataset, SA_NOTE, strings } from '../named-dataset.js';
import { loadNqOpen, NQ_OPEN_FILE } from '../open/nq-open.js';
import { pick } from '../records.js';

export const NQ_OPEN: NamedDataset = {
  name: 'nq-open',
  answerType: 'text',
  file: NQ_OPEN_FILE,
  hub: {
    repo: 'google-research-datasets/nq_open',
    config: 'nq_open',
    split: 'validation',
    licence: 'CC-BY-SA-3.0',
    licenceNote: SA_NOTE,
  },
  open: {
    load: loadNqOpen,
    // Ids are 1-based lines in the JSONL file; the Hub's rows keep that numbering.
    hub: { prompt: 'question', references: (r) => strings(pick(r, 'answer')), id: (_r, i) => `nq-${i + 1}` },
  },
};
