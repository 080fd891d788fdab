import { type NamedDataset, NC_ND_NOTE } from '../named-dataset.js';

/** The 100 GSM8K originals GSM-Symbolic's templates come from (docs/datasets.md#catalog). */
export const GSM_SYMBOLIC: NamedDataset = {
  name: 'gsm-symbolic',
  answerType: 'number',
  file: 'gsm-symbolic/templates/symbolic',
  hub: {
    repo: 'apple/GSM-Symbolic',
    config: 'main',
    split: 'test',
    file: 'main/test.jsonl',
    licence: 'CC-BY-NC-ND-4.0',
    licenceNote: NC_ND_NOTE,
  },
};
