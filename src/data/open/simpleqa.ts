import { parseCsv, requireColumns } from '../csv.js';
import { cleanText, type OpenPrompt, readDataFile } from './open-prompt.js';

/** OpenAI SimpleQA test set (4,326 questions). Path relative to the data directory. */
export const SIMPLEQA_FILE = 'simpleqa/simple_qa_test_set.csv';

/** CSV `metadata, problem, answer`. Id: `simpleqa-<row>` (0-based data row). */
export function loadSimpleQa(path: string, label = SIMPLEQA_FILE): OpenPrompt[] {
  const text = readDataFile(path, 'simpleqa');
  const table = parseCsv(text, path);
  requireColumns(table, ['problem'], path);
  return table.records.flatMap(({ line, fields: record }, index) => {
    const problem = cleanText(record.problem ?? '');
    if (problem === '') return [];
    const answer = (record.answer ?? '').trim();
    return [
      {
        id: `simpleqa-${index}`,
        dataset: 'simpleqa',
        text: problem,
        ...(answer !== '' ? { references: [answer] } : {}),
        source: { file: label, line },
      },
    ];
  });
}
