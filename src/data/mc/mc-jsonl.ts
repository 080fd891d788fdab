import { InputError } from '../../errors.js';
import { readTextFile } from '../../util/text-file.js';
import { checkMcItems, type McItem, parseMcItem } from './mc-item.js';

/**
 * Generic multiple-choice JSONL: one item a line, in the shape `McItemInput` describes
 * (`{"id", "stem", "options", "key", "category"?, "alternates"?, "rule"?, "shuffleSeed"?}`).
 * A line without an id is named `line-N`; an item's `source` is `<dataset>:<line>`, `dataset` the
 * file's name as a dataset (docs/datasets.md#identity; default its path).
 */
export function loadMcJsonl(file: string, dataset = file): McItem[] {
  const items: McItem[] = [];
  readJsonLines(file, (value, line, raw) => {
    const dup = firstDuplicateKey(raw);
    if (dup) {
      const id = (value as { id?: unknown })?.id;
      const name = typeof id === 'string' || typeof id === 'number' ? `item '${id}'` : `item on line ${line}`;
      const underOptions = dup.length === 2 && dup[0] === 'options';
      throw new InputError(
        underOptions
          ? `${name}: duplicate option letter '${dup[1]}'`
          : `${name}: duplicate key '${dup.at(-1)}' (JSON keeps only the last one)`,
        { file, line, field: dup.join('.') },
      );
    }
    items.push(
      parseMcItem(
        value,
        { file, line, index: items.length },
        { id: `line-${line}`, source: `${dataset}:${line}` },
      ),
    );
  });
  if (items.length === 0) throw new InputError('the dataset has no items', { file });
  checkMcItems(items, { file });
  return items;
}

/** Reads a text file, or an InputError naming it. */
export function readDataFile(file: string): string {
  try {
    return readTextFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`cannot read dataset: ${code === 'ENOENT' ? 'no such file' : (code ?? String(e))}`, {
      file,
    });
  }
}

/** Calls `each` with every non-blank line's parsed JSON; a line that is not JSON is an InputError with its line. */
export function readJsonLines(file: string, each: (value: unknown, line: number, raw: string) => void): void {
  const lines = readDataFile(file).split('\n');
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new InputError(`not valid JSON (${(e as Error).message})`, { file, line: i + 1 });
    }
    each(value, i + 1, raw);
  });
}

/**
 * The path of the first key that appears twice in one JSON object, or undefined. JSON.parse keeps
 * the last of two equal keys silently, so `{"options": {"B": "x", "B": "y"}}` would lose an option
 * without this check. Assumes `json` already parsed (it is only a scan, not a validator).
 */
export function firstDuplicateKey(json: string): string[] | undefined {
  interface Frame {
    kind: 'object' | 'array';
    path: string[];
    keys: Set<string>;
    lastKey?: string;
    index: number;
  }
  const stack: Frame[] = [];
  let i = 0;
  const readString = (): string => {
    // json[i] is the opening quote; JSON.parse decodes the escapes exactly.
    let j = i + 1;
    while (j < json.length && json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
    const s = JSON.parse(json.slice(i, j + 1)) as string;
    i = j + 1;
    return s;
  };
  while (i < json.length) {
    const c = json[i] as string;
    const top = stack.at(-1);
    if (c === '"') {
      const s = readString();
      let k = i;
      while (k < json.length && /\s/.test(json[k] as string)) k++;
      if (top?.kind === 'object' && json[k] === ':') {
        if (top.keys.has(s)) return [...top.path, s];
        top.keys.add(s);
        top.lastKey = s;
      }
      continue;
    }
    if (c === '{' || c === '[') {
      const segment = top ? (top.kind === 'object' ? (top.lastKey ?? '') : String(top.index)) : undefined;
      stack.push({
        kind: c === '{' ? 'object' : 'array',
        path: segment === undefined ? [] : [...(top?.path ?? []), segment],
        keys: new Set(),
        index: 0,
      });
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top?.kind === 'array') top.index++;
    i++;
  }
  return undefined;
}
