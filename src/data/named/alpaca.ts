import { type NamedDataset, NC_NOTE } from '../named-dataset.js';
import { ALPACA_FILE, loadAlpaca } from '../open/alpaca.js';

/** The 805 AlpacaEval instructions (the SAGO paper's "Alpaca"), not the 52K training set. */
export const ALPACA: NamedDataset = {
  name: 'alpaca',
  answerType: 'open',
  file: ALPACA_FILE,
  hub: {
    repo: 'tatsu-lab/alpaca_eval',
    config: 'alpaca_eval',
    split: 'eval',
    file: 'alpaca_eval.json',
    licence: 'CC-BY-NC-4.0',
    licenceNote: NC_NOTE,
  },
  open: { load: loadAlpaca, hub: { prompt: 'instruction', id: (_r, i) => `alpaca-${i}`, keepLines: true } },
};
