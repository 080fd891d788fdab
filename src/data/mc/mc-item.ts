import { z } from 'zod';
import { InputError } from '../../errors.js';

/**
 * A multiple-choice item: the unit the paraphrase protocol asks in five phrasings. Every loader
 * (built-in, ARC, CommonsenseQA, TruthfulQA MC, generic JSONL) ends here, so one set of checks
 * decides what a valid item is, and a bad one is reported with its item and field before anything
 * is written.
 */

export const OPTION_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export interface McOption {
  /** One uppercase letter, A-Z. */
  letter: string;
  text: string;
}

/**
 * How a key can be recomputed instead of trusted. Data rules can come from a JSONL file; `code`
 * rules only from waver's own built-in items. A rule yields the correct answer's value: a number
 * is matched against the number in each option's text, a string against the option text itself
 * (see src/data/mc-rules.ts).
 */
export type KeyRule =
  | { kind: 'arithmetic'; expression: string }
  | { kind: 'weekday'; date: string }
  | { kind: 'days-between'; from: string; to: string }
  | { kind: 'code'; describe: string; compute: () => string | number };

export interface McItem {
  id: string;
  stem: string;
  /** In the order the item lists them; letters are unique. */
  options: McOption[];
  /** The correct option's letter. */
  key: string;
  category: string;
  /** Other wordings of the stem that ask exactly the same thing (the `reworded` phrasing uses the first). */
  alternates?: string[];
  rule?: KeyRule;
  /** Pins the options-shuffled order for this item (otherwise derived from the run seed and the item id). */
  shuffleSeed?: number;
  /** Where it came from: `builtin`, `arc-challenge:12`, `FILE:LINE`, ... */
  source: string;
}

/** Where an item was read from, for error messages. */
export interface ItemWhere {
  file?: string;
  line?: number;
  /** 0-based position in the dataset, for items without an id (named `#N` in messages). */
  index?: number;
}

const DataRule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('arithmetic'), expression: z.string().min(1) }).strict(),
  z
    .object({
      kind: z.literal('weekday'),
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
    })
    .strict(),
  z
    .object({
      kind: z.literal('days-between'),
      from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
      to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
    })
    .strict(),
]);

const OptionObject = z
  .object({ letter: z.string().optional(), label: z.string().optional(), text: z.string() })
  .strict();

/**
 * The item as a file may write it. Options may be an object (`{"A": "...", "B": "..."}`), an array
 * of texts (lettered A, B, ... in order) or an array of `{letter|label, text}`.
 */
export const McItemInput = z
  .object({
    id: z.union([z.string().min(1), z.int()]).optional(),
    stem: z.string().trim().min(1, 'must be a non-empty string'),
    options: z.union([z.record(z.string(), z.string()), z.array(z.string()), z.array(OptionObject)]),
    key: z.string().trim().min(1, 'must be a non-empty string'),
    category: z.string().min(1).optional(),
    alternates: z.array(z.string().trim().min(1, 'must be a non-empty string')).optional(),
    rule: DataRule.optional(),
    shuffleSeed: z.unknown().optional(),
    source: z.string().min(1).optional(),
  })
  .strict();
export type McItemInput = z.input<typeof McItemInput>;

/** Names an item in messages: its id when it has one, else its position. */
export function itemName(id: string | undefined, where: ItemWhere): string {
  if (id !== undefined) return `item '${id}'`;
  if (where.index !== undefined) return `item #${where.index + 1}`;
  return 'item';
}

function fail(id: string | undefined, where: ItemWhere, field: string, message: string): never {
  throw new InputError(`${itemName(id, where)}: ${message}`, { file: where.file, line: where.line, field });
}

/**
 * Parses and checks one item written in a file. `defaults` fill what a dataset format implies
 * (an id from the line number, a category from the dataset's name).
 */
export function parseMcItem(
  raw: unknown,
  where: ItemWhere,
  defaults: { id?: string; category?: string; source?: string } = {},
): McItem {
  const rawId = raw && typeof raw === 'object' && 'id' in raw ? (raw as { id: unknown }).id : undefined;
  const named = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : defaults.id;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    fail(named, where, 'item', 'must be a JSON object');
  const parsed = McItemInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    let field = path.map(String).join('.') || 'item';
    let message = issue?.message ?? 'invalid item';
    if (issue?.code === 'unrecognized_keys') {
      field = [...path, issue.keys[0] ?? ''].map(String).join('.');
      message =
        'unknown field (expected id, stem, options, key, category, alternates, rule, shuffleSeed, source)';
    } else if (issue?.code === 'invalid_union' && path[0] === 'options') {
      message = 'must be an object of letter -> text, an array of texts, or an array of {letter, text}';
    }
    fail(named, where, field, message);
  }
  const input = parsed.data;
  const id = input.id !== undefined ? String(input.id) : defaults.id;
  if (id === undefined) fail(undefined, where, 'id', 'missing id');
  const options = normaliseOptions(input.options, id, where);
  const item: McItem = {
    id,
    stem: input.stem,
    options,
    key: input.key.toUpperCase(),
    category: input.category ?? defaults.category ?? 'uncategorised',
    source: input.source ?? defaults.source ?? sourceOf(where),
    ...(input.alternates !== undefined ? { alternates: input.alternates } : {}),
    ...(input.rule !== undefined ? { rule: input.rule } : {}),
  };
  if (input.shuffleSeed !== undefined) item.shuffleSeed = input.shuffleSeed as number;
  checkMcItem(item, where);
  return item;
}

function sourceOf(where: ItemWhere): string {
  if (where.file === undefined) return 'inline';
  return where.line !== undefined ? `${where.file}:${where.line}` : where.file;
}

function normaliseOptions(
  options: Record<string, string> | string[] | { letter?: string; label?: string; text: string }[],
  id: string,
  where: ItemWhere,
): McOption[] {
  if (Array.isArray(options)) {
    return options.map((o, i) => {
      if (typeof o === 'string') {
        if (i >= OPTION_LETTERS.length)
          fail(id, where, 'options', `more than ${OPTION_LETTERS.length} options`);
        return { letter: OPTION_LETTERS[i] as string, text: o };
      }
      const letter = o.letter ?? o.label;
      if (letter === undefined) fail(id, where, `options.${i}.letter`, 'missing letter');
      return { letter: letter.trim().toUpperCase(), text: o.text };
    });
  }
  return Object.entries(options).map(([letter, text]) => ({ letter: letter.trim().toUpperCase(), text }));
}

/**
 * The rules every item obeys, whatever loaded it: at least two options; each letter one of A-Z and
 * used once (case-insensitively); no empty option text; the key one of the letters; an integer
 * shuffle seed; alternate wordings non-empty. Option texts may repeat (real datasets do): the
 * parser then cannot tell them apart by text (docs/paraphrase.md#duplicate-option-texts).
 */
export function checkMcItem(item: McItem, where: ItemWhere = {}): void {
  const { id } = item;
  if (typeof id !== 'string' || id.trim() === '') fail(undefined, where, 'id', 'must be a non-empty string');
  if (typeof item.stem !== 'string' || item.stem.trim() === '')
    fail(id, where, 'stem', 'must be a non-empty string');
  if (typeof item.category !== 'string' || item.category === '')
    fail(id, where, 'category', 'must be a non-empty string');
  if (!Array.isArray(item.options) || item.options.length < 2)
    fail(id, where, 'options', `needs at least two options, got ${item.options?.length ?? 0}`);
  const seen = new Set<string>();
  for (const o of item.options) {
    if (!/^[A-Z]$/.test(o.letter))
      fail(id, where, `options.${o.letter}`, `option letter '${o.letter}' must be one letter A-Z`);
    if (seen.has(o.letter)) fail(id, where, `options.${o.letter}`, `duplicate option letter '${o.letter}'`);
    seen.add(o.letter);
    if (typeof o.text !== 'string' || o.text.trim() === '')
      fail(id, where, `options.${o.letter}`, 'option text must be non-empty');
  }
  if (!seen.has(item.key))
    fail(
      id,
      where,
      'key',
      `key '${item.key}' is not one of the options (${item.options.map((o) => o.letter).join(', ')})`,
    );
  if (item.shuffleSeed !== undefined && !Number.isSafeInteger(item.shuffleSeed))
    fail(
      id,
      where,
      'shuffleSeed',
      `shuffle seed must be an integer, got ${JSON.stringify(item.shuffleSeed)}`,
    );
  if (item.alternates !== undefined) {
    item.alternates.forEach((a, i) => {
      if (typeof a !== 'string' || a.trim() === '')
        fail(id, where, `alternates.${i}`, 'alternate wording must be non-empty');
    });
  }
  if (item.rule?.kind === 'code' && typeof item.rule.compute !== 'function')
    fail(id, where, 'rule', 'a code rule needs a compute function');
}

/** Checks a whole dataset: every item, and ids unique (a duplicate is named with both positions). */
export function checkMcItems(items: readonly McItem[], where: { file?: string } = {}): void {
  const first = new Map<string, number>();
  items.forEach((item, index) => {
    checkMcItem(item, { file: where.file, index });
    const earlier = first.get(item.id);
    if (earlier !== undefined)
      fail(item.id, { file: where.file, index }, 'id', `duplicate id (also item #${earlier + 1})`);
    first.set(item.id, index);
  });
}

/** The option with this letter. */
export function optionText(item: Pick<McItem, 'options'>, letter: string): string | undefined {
  return item.options.find((o) => o.letter === letter)?.text;
}
