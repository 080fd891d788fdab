import { type NamedDataset, SA_NOTE, strings } from '../named-dataset.js';
import { HOTPOTQA_FILE, loadHotpotQa } from '../open/hotpotqa.js';
import { pick } from '../records.js';

export const HOTPOTQA: NamedDataset = {
  name: 'hotpotqa',
  answerType: 'open',
  file: HOTPOTQA_FILE,
  hub: {
    repo: 'hotpotqa/hotpot_qa',
    config: 'distractor',
    split: 'validation',
    licence: 'CC-BY-SA-4.0',
    licenceNote: SA_NOTE,
  },
  open: {
    load: loadHotpotQa,
    hub: { prompt: 'question', references: (r) => strings(pick(r, 'answer')), id: (_r, i) => `hotpot-${i}` },
  },
};
