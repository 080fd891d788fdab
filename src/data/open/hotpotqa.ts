import { InputError } from '../../errors.js';
import { cleanText, type OpenPrompt, parseJsonFile, readDataFile, stringField } from './open-prompt.js';

/** HotpotQA dev, question and answer only (closed book), from ReAct. Path relative to the data directory. */
export const HOTPOTQA_FILE = 'hotpotqa/hotpot_dev_v1_simplified.json';

/** A JSON array of `{question, answer, type}`. Id: `hotpot-<index>` (0-based). */
export function loadHotpotQa(path: string, label = HOTPOTQA_FILE): OpenPrompt[] {
  const text = readDataFile(path, 'hotpotqa');
  const value = parseJsonFile(text, path);
  if (!Array.isArray(value))
    throw new InputError('expected a JSON array of {question, answer}', { file: path });
  return value.flatMap((item, index) => {
    const question = cleanText(stringField(item, 'question', { file: `${path}[${index}]` }));
    if (question === '') return [];
    const answer = (item as { answer?: unknown }).answer;
    return [
      {
        id: `hotpot-${index}`,
        dataset: 'hotpotqa',
        text: question,
        ...(typeof answer === 'string' ? { references: [answer] } : {}),
        source: { file: label, index },
      },
    ];
  });
}
