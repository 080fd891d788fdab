import { parseCsv, requireColumns } from '../csv.js';
import { cleanText, type OpenPrompt, readDataFile } from './open-prompt.js';

/** TruthfulQA (Lin et al.), the January 2025 CSV: 790 questions. Path relative to the data directory. */
export const TRUTHFULQA_FILE = 'truthfulqa/TruthfulQA.csv';

/** Questions from `TruthfulQA.csv`; references are its `Correct Answers` (`; `-separated). Id: `tqa-<row>` (0-based data row). */
export function loadTruthfulQa(path: string, label = TRUTHFULQA_FILE): OpenPrompt[] {
  const text = readDataFile(path, 'truthfulqa');
  const table = parseCsv(text, path);
  requireColumns(table, ['Question'], path);
  return table.records.flatMap(({ line, fields: record }, index) => {
    const question = cleanText(record.Question ?? '');
    if (question === '') return [];
    const correct = (record['Correct Answers'] ?? '')
      .split('; ')
      .map((s) => s.trim())
      .filter(Boolean);
    return [
      {
        id: `tqa-${index}`,
        dataset: 'truthfulqa',
        text: question,
        ...(correct.length > 0 ? { references: correct } : {}),
        source: { file: label, line },
      },
    ];
  });
}
