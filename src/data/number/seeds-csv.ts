import { InputError } from '../../errors.js';
import { readCsv, requireColumns } from '../csv.js';
import { goldAfterHashes, plainNumber } from './gsm8k.js';
import type { NumberItem } from './number-item.js';

/**
 * The ladder paper's own seed file, `gsm8k_symbolic100.csv` (neuroloft-ai/stability): columns
 * `original_id` (GSM8K test index), `question`, `answer` (worked solution ending `#### <gold>`),
 * `ground_truth`. Seeds are named like GSM8K's (`gsm8k-test-<original_id>`), since they are those
 * records. Both gold columns are read and must agree: a disagreement means a damaged file.
 */
export function loadLadderSeedsCsv(file: string): NumberItem[] {
  const table = readCsv(file);
  requireColumns(table, ['original_id', 'question'], file);
  if (!table.header.includes('ground_truth') && !table.header.includes('answer'))
    throw new InputError("needs a 'ground_truth' or an 'answer' column", { file, line: 1 });
  const seen = new Map<string, number>();
  return table.records.map(({ line, fields }) => {
    const id = (fields.original_id ?? '').trim();
    if (!/^\d+$/.test(id))
      throw new InputError(`must be a GSM8K test index, got '${id}'`, { file, line, field: 'original_id' });
    const first = seen.get(id);
    if (first !== undefined)
      throw new InputError(`duplicate original_id ${id} (first on line ${first})`, {
        file,
        line,
        field: 'original_id',
      });
    seen.set(id, line);
    const question = fields.question ?? '';
    if (question.trim() === '') throw new InputError('empty question', { file, line, field: 'question' });

    const fromColumn = fields.ground_truth !== undefined ? plainNumber(fields.ground_truth) : undefined;
    const fromAnswer = fields.answer !== undefined ? goldAfterHashes(fields.answer) : undefined;
    if (fields.ground_truth !== undefined && fields.ground_truth.trim() !== '' && fromColumn === undefined)
      throw new InputError(`not a number: '${fields.ground_truth}'`, { file, line, field: 'ground_truth' });
    const gold = fromColumn ?? fromAnswer;
    if (gold === undefined)
      throw new InputError("no parsable gold (empty ground_truth and no '#### <number>' in answer)", {
        file,
        line,
        field: fields.ground_truth !== undefined ? 'ground_truth' : 'answer',
      });
    if (fromColumn !== undefined && fromAnswer !== undefined && fromColumn !== fromAnswer)
      throw new InputError(`ground_truth ${fromColumn} disagrees with the answer's '#### ${fromAnswer}'`, {
        file,
        line,
        field: 'ground_truth',
      });
    return {
      id: `gsm8k-test-${id}`,
      question,
      gold,
      ...(fields.answer?.trim() && { solution: fields.answer }),
      source: `ladder seeds csv (gsm8k test #${id})`,
    };
  });
}
