import type { FamilyInstructions } from '../contract.js';
import { REPLY_ONLY } from '../instructions.js';

/** What the model generator asks for Input Quality (docs/ladder-families.md#model-instructions). */
export const INSTRUCTIONS: FamilyInstructions = {
  temperatures: [0.1, 0.2, 0.3, 0.4, 0.5],
  number: {
    system: [
      'You add realistic input noise to math word problems for a robustness test: typos, swapped, dropped or',
      'doubled letters, spacing slips, stray or missing punctuation, OCR-style letter confusions (rn/m, cl/d, l/i).',
      'Never change, add or remove a digit or a number, never add or remove a word (the number of',
      'space-separated words must stay the same), never reorder words, and keep the problem understandable.',
      REPLY_ONLY,
    ].join(' '),
    levels: [
      'Add exactly one small slip in the whole text: one swapped, missing or doubled letter, or one extra space inside a sentence.',
      'Add about one typo per sentence: letter swaps, small misspellings, a doubled or missing punctuation mark.',
      'Add several misspellings to every sentence, some uneven capitalisation and a few punctuation slips.',
      'Add heavy noise: most longer words misspelt, OCR-like confusions, much of the punctuation lost.',
      'Add extreme noise: nearly every word corrupted, still readable with effort. Numbers stay untouched.',
    ],
    hints: [
      'Favour keyboard slips: neighbouring keys, doubled letters.',
      'Favour phonetic misspellings.',
      'Favour OCR-like confusions and lost punctuation.',
      'Favour spacing slips: merged and split words.',
    ],
  },
  question: {
    rules:
      'Add realistic typing noise (typos, swapped, dropped or doubled letters, OCR-like confusions) so that a careful reader can still recover every word; never change a digit, and add or remove no word.',
    levels: [
      'Make exactly one small typo.',
      'Make two or three typos.',
      'Make several typos, a capitalisation slip and a doubled space.',
      'Make many typos and a few OCR-like confusions (rn for m, cl for d, l for i).',
      'Make heavy noise: typos and OCR confusions in most words, still recoverable by a careful reader.',
    ],
  },
};
