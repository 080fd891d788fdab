import { cleanText, type OpenPrompt, parseJsonl, readDataFile, stringField } from './open-prompt.js';

/** NQ-open dev (3,610 questions, lower-cased as released). Path relative to the data directory. */
export const NQ_OPEN_FILE = 'nq-open/NQ-open.dev.jsonl';

/** `{question, answer: [...]}` per line. Id: `nq-<line>`. */
export function loadNqOpen(path: string, label = NQ_OPEN_FILE): OpenPrompt[] {
  const text = readDataFile(path, 'nq-open');
  return parseJsonl(text, path).flatMap(({ line, value }) => {
    const question = cleanText(stringField(value, 'question', { file: path, line }));
    if (question === '') return [];
    const answers = (value as { answer?: unknown }).answer;
    const references = Array.isArray(answers)
      ? answers.filter((a): a is string => typeof a === 'string')
      : [];
    return [
      {
        id: `nq-${line}`,
        dataset: 'nq-open',
        text: question,
        ...(references.length > 0 ? { references } : {}),
        source: { file: label, line },
      },
    ];
  });
}
