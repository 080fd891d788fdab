import { z } from 'zod';
import { InputError } from '../../errors.js';
import { checkMcItems, type McItem, parseMcItem } from './mc-item.js';
import { readJsonLines } from './mc-jsonl.js';

/**
 * CommonsenseQA in its original JSONL (`commonsenseqa/dev_rand_split.jsonl`, docs/datasets.md#offline):
 * `{"id", "answerKey": "A".."E", "question": {"question_concept", "stem", "choices": [{"label", "text"}]}}`.
 * Items keep the dataset's own ids; the concept is kept in the source for reference.
 */

const CsqaRow = z.object({
  id: z.string().min(1),
  answerKey: z.string().min(1),
  question: z.object({
    question_concept: z.string().optional(),
    stem: z.string().min(1),
    choices: z.array(z.object({ label: z.string(), text: z.string() })),
  }),
});

export function loadCommonsenseQa(file: string): McItem[] {
  const items: McItem[] = [];
  readJsonLines(file, (value, line) => {
    const row = CsqaRow.safeParse(value);
    if (!row.success) {
      const issue = row.error.issues[0];
      const id = (value as { id?: unknown })?.id;
      throw new InputError(
        `${typeof id === 'string' ? `item '${id}'` : `item on line ${line}`}: ${issue?.message ?? 'not a CommonsenseQA row'}`,
        { file, line, field: issue?.path.map(String).join('.') || undefined },
      );
    }
    const { id, answerKey, question } = row.data;
    items.push(
      parseMcItem(
        {
          id,
          stem: question.stem,
          options: question.choices.map((c) => ({ label: c.label, text: c.text })),
          key: answerKey,
          category: 'commonsense',
          source: `commonsenseqa:${id}${question.question_concept ? ` (concept: ${question.question_concept})` : ''}`,
        },
        { file, line, index: items.length },
      ),
    );
  });
  if (items.length === 0) throw new InputError('the dataset has no items', { file });
  checkMcItems(items, { file });
  return items;
}
