import type { NamedDataset } from '../named-dataset.js';

/** The ladder paper's seed CSV: not on the Hub, read from the data directory only. */
export const LADDER_SEEDS: NamedDataset = {
  name: 'ladder-seeds',
  answerType: 'number',
  file: 'ladder/gsm8k_symbolic100.csv',
};
