import { type NamedDataset, strings } from '../named-dataset.js';
import { loadTriviaQa, TRIVIAQA_FILE } from '../open/triviaqa.js';
import { pick } from '../records.js';

export const TRIVIAQA: NamedDataset = {
  name: 'triviaqa',
  answerType: 'text',
  file: TRIVIAQA_FILE,
  hub: { repo: 'mandarjoshi/trivia_qa', config: 'rc.nocontext', split: 'validation', licence: 'unknown' },
  open: {
    load: loadTriviaQa,
    hub: {
      prompt: 'question',
      references: (r) => strings(pick(r, 'answer.value')),
      aliases: (r) => strings(pick(r, 'answer.aliases')),
      id: (r, i) => `trivia-${String(pick(r, 'question_id') ?? i + 1)}`,
    },
  },
};
