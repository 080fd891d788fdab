import { z } from 'zod';
import { InputError } from '../../errors.js';
import { checkMcItems, type McItem, OPTION_LETTERS, parseMcItem } from './mc-item.js';
import { readJsonLines } from './mc-jsonl.js';

/**
 * ARC-Challenge as `arc-challenge/arc_challenge.jsonl` holds it (llm-foundry's copy, docs/datasets.md#offline):
 * `{"query": "Question: ...", "choices": [4 texts], "gold": 0-based index}`. The rows carry no ARC
 * id, so an item is named by its 0-based line: `arc-challenge-0`, `arc-challenge-1`, ...
 */

const ArcRow = z.object({
  query: z.string().min(1),
  choices: z.array(z.string()).min(2, 'needs at least two choices'),
  gold: z.int().nonnegative(),
});

export function loadArcChallenge(file: string): McItem[] {
  const items: McItem[] = [];
  readJsonLines(file, (value, line) => {
    const index = items.length;
    const id = `arc-challenge-${line - 1}`;
    const row = ArcRow.safeParse(value);
    if (!row.success) {
      const issue = row.error.issues[0];
      throw new InputError(`item '${id}': ${issue?.message ?? 'not an ARC row'}`, {
        file,
        line,
        field: issue?.path.map(String).join('.') || undefined,
      });
    }
    const { query, choices, gold } = row.data;
    items.push(
      parseMcItem(
        {
          id,
          stem: query.replace(/^Question:\s*/, ''),
          options: choices,
          // An out-of-range gold becomes a key that names no option, which the item check reports.
          key: OPTION_LETTERS[gold] ?? String(gold),
          category: 'science',
          source: `arc-challenge:${line - 1}`,
        },
        { file, line, index },
      ),
    );
  });
  if (items.length === 0) throw new InputError('the dataset has no items', { file });
  checkMcItems(items, { file });
  return items;
}
