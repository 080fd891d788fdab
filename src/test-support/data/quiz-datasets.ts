import { loadMcJsonl } from '../../data/mc/mc-jsonl.js';
import { mcItemsFromRecords } from '../../data/mc/mc-records.js';
import type { NamedDataset } from '../../data/named-dataset.js';
import { parseJsonl, readDataFile, stringField } from '../../data/open/open-prompt.js';

/**
 * Two named datasets that are not waver's, declared as a library user would declare theirs: one
 * module each and one `registerDataset` call, no other file. `quiz-mc` holds multiple-choice items in
 * waver's item form; `quiz-qa` questions with short answers. Both live under a data directory only.
 */

export const QUIZ_MC: NamedDataset = {
  name: 'quiz-mc',
  aliases: ['quiz'],
  answerType: 'choice',
  file: 'quiz/mc.jsonl',
  licence: 'CC0-1.0',
  choice: {
    load: (file) => loadMcJsonl(file, 'quiz-mc'),
    fromHub: (records) =>
      mcItemsFromRecords(records, { prefix: 'quiz-mc', category: 'quiz', sourcePrefix: 'quiz-mc' }),
  },
};

export const QUIZ_QA: NamedDataset = {
  name: 'quiz-qa',
  answerType: 'text',
  file: 'quiz/qa.jsonl',
  licence: 'CC0-1.0',
  open: {
    load: (path, label) =>
      parseJsonl(readDataFile(path, 'quiz-qa'), path).map(({ line, value }) => ({
        id: `quiz-qa-${line}`,
        dataset: 'quiz-qa',
        text: stringField(value, 'q', { file: path, line }),
        references: [stringField(value, 'a', { file: path, line })],
        source: { file: label, line },
      })),
    hub: { prompt: 'q', id: (_row, index) => `quiz-qa-${index + 1}` },
  },
};

export const QUIZ_MC_LINES = [
  {
    id: 'q1',
    stem: 'Which planet is known as the red planet?',
    options: ['Venus', 'Mars', 'Jupiter'],
    key: 'B',
    category: 'quiz',
  },
  {
    id: 'q2',
    stem: 'How many sides has a hexagon?',
    options: ['5', '6', '8', '7'],
    key: 'B',
    category: 'quiz',
  },
];

export const QUIZ_QA_LINES = [
  { q: 'What is the capital of Italy?', a: 'Rome' },
  { q: 'Who painted the Mona Lisa?', a: 'Leonardo da Vinci' },
  { q: 'What gas do plants take in?', a: 'carbon dioxide' },
];
