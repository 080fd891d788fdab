import type { NamedDataset } from '../named-dataset.js';

export const GSM8K: NamedDataset = {
  name: 'gsm8k',
  answerType: 'number',
  file: 'gsm8k/test.jsonl',
  hub: { repo: 'openai/gsm8k', config: 'main', split: 'test', licence: 'MIT' },
};
