import { z } from 'zod';
import { InputError } from '../../errors.js';
import { deriveSeed, PyRandom } from '../../util/random.js';
import { checkMcItems, type McItem, OPTION_LETTERS, parseMcItem } from './mc-item.js';
import { readDataFile } from './mc-jsonl.js';

/**
 * TruthfulQA's MC1 task (`truthfulqa/mc_task.json`, docs/datasets.md#offline): a JSON array of
 * `{"question", "mc1_targets": {answer text: 1 | 0}}` with exactly one true answer.
 *
 * In the file the true answer is always listed first, so presenting the options in file order
 * would make "A" right every time. The loader orders each item's options by a fixed shuffle seeded
 * from the item's index (`deriveSeed('truthfulqa-mc1', index)`), the same on every run and machine,
 * independent of the run seed (docs/paraphrase.md#truthfulqa-option-order). The paraphrase
 * protocol's options-shuffled phrasing shuffles again from there.
 */

const Row = z.object({
  question: z.string().min(1),
  mc1_targets: z.record(z.string(), z.union([z.literal(0), z.literal(1)])),
});

export function loadTruthfulQaMc(file: string): McItem[] {
  let rows: unknown;
  try {
    rows = JSON.parse(readDataFile(file));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not valid JSON (${(e as Error).message})`, { file });
  }
  if (!Array.isArray(rows)) throw new InputError('expected a JSON array of questions', { file });
  return truthfulQaMcItems(rows, file);
}

/**
 * The Hub's `multiple_choice` rows (`mc1_targets: {choices: [...], labels: [1, 0, ...]}`) in the
 * file's shape (`mc1_targets: {text: 1 | 0}`), so both are read, ordered and checked alike.
 */
export function truthfulQaHubRows(rows: readonly unknown[]): unknown[] {
  return rows.map((row) => {
    const r = (row ?? {}) as { question?: unknown; mc1_targets?: { choices?: unknown; labels?: unknown } };
    const choices = Array.isArray(r.mc1_targets?.choices) ? r.mc1_targets.choices : [];
    const labels = Array.isArray(r.mc1_targets?.labels) ? r.mc1_targets.labels : [];
    return {
      question: r.question,
      mc1_targets: Object.fromEntries(choices.map((c, i) => [String(c), labels[i]])),
    };
  });
}

/** Items from rows in the file's shape; `file` names the source in errors. */
export function truthfulQaMcItems(rows: readonly unknown[], file: string): McItem[] {
  const items = rows.map((value, index) => {
    const id = `truthfulqa-mc1-${index}`;
    const row = Row.safeParse(value);
    if (!row.success) {
      const issue = row.error.issues[0];
      throw new InputError(`item '${id}': ${issue?.message ?? 'not a TruthfulQA MC row'}`, {
        file,
        field: [index, ...(issue?.path ?? [])].map(String).join('.'),
      });
    }
    const targets = Object.entries(row.data.mc1_targets);
    const trueCount = targets.filter(([, v]) => v === 1).length;
    if (trueCount !== 1)
      throw new InputError(`item '${id}': mc1_targets must mark exactly one answer true, got ${trueCount}`, {
        file,
        field: `${index}.mc1_targets`,
      });
    if (targets.length > OPTION_LETTERS.length)
      throw new InputError(`item '${id}': more than ${OPTION_LETTERS.length} answers`, {
        file,
        field: `${index}.mc1_targets`,
      });
    // 17 questions (the first is 293) list an empty false answer: an empty option cannot be shown, so it is
    // left out (docs/paraphrase.md#truthfulqa-option-order). An empty true answer stays and is refused.
    const order = targets
      .map(([text, v]) => ({ text, correct: v === 1 }))
      .filter((o) => o.correct || o.text.trim() !== '');
    new PyRandom(deriveSeed('truthfulqa-mc1', index)).shuffle(order);
    return parseMcItem(
      {
        id,
        stem: row.data.question,
        options: order.map((o) => o.text),
        key: OPTION_LETTERS[order.findIndex((o) => o.correct)] as string,
        category: 'truthfulqa',
        source: `truthfulqa-mc1:${index}`,
      },
      { file, index },
    );
  });
  if (items.length === 0) throw new InputError('the dataset has no items', { file });
  checkMcItems(items, { file });
  return items;
}
