import { basename } from 'node:path';
import { InputError } from '../../errors.js';
import { readTextFile } from '../../util/text-file.js';
import type { NumberItem } from './number-item.js';

/**
 * GSM8K JSONL (openai/grade-school-math): one `{"question", "answer"}` per line, the answer a worked
 * solution whose last line is `#### <gold>`. Seeds are named by split and 0-based line index
 * (`gsm8k-test-473`), the index GSM-Symbolic's `id_orig` and the paper's `original_id` use.
 */

/**
 * The gold number after the last `####`, thousands separators stripped (14 test golds are written
 * `2,125`-style); undefined when there is no `####` or what follows is not a plain number.
 */
export function goldAfterHashes(answer: string): number | undefined {
  const at = answer.lastIndexOf('####');
  if (at < 0) return undefined;
  return plainNumber(answer.slice(at + 4));
}

/** A plain number as a dataset writes a gold: optional sign and `$`, commas between digit groups. */
export function plainNumber(text: string): number | undefined {
  const t = text.trim().replace(/^\$/, '');
  if (!/^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/.test(t)) return undefined;
  const value = Number(t.replace(/,/g, ''));
  return Number.isFinite(value) ? value : undefined;
}

export interface Gsm8kRecord {
  /** 0-based line index (GSM8K's own numbering of its records). */
  index: number;
  /** 1-based line number in the file. */
  line: number;
  question: string;
  answer: string;
  gold: number;
}

/** Every record of a GSM8K JSONL file, checked: bad JSON, a missing field or an unparsable gold is an InputError naming file and line. */
export function readGsm8k(file: string): Gsm8kRecord[] {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (e) {
    throw new InputError(`cannot read GSM8K file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, {
      file,
    });
  }
  const out: Gsm8kRecord[] = [];
  const lines = text.split('\n');
  // A final newline leaves one empty string that is no record.
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') throw new InputError('blank line (GSM8K has one record per line)', { file, line });
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new InputError(`not valid JSON (${(e as Error).message})`, { file, line });
    }
    const v = (value ?? {}) as Record<string, unknown>;
    if (typeof v.question !== 'string' || v.question.trim() === '')
      throw new InputError('must be a non-empty string', { file, line, field: 'question' });
    if (typeof v.answer !== 'string')
      throw new InputError('must be a string ending in "#### <number>"', { file, line, field: 'answer' });
    const gold = goldAfterHashes(v.answer);
    if (gold === undefined)
      throw new InputError(`no parsable gold after '####' (found '${tail(v.answer)}')`, {
        file,
        line,
        field: 'answer',
      });
    out.push({ index, line, question: v.question, answer: v.answer, gold });
  });
  return out;
}

/** The split a GSM8K file holds, from its name (`test.jsonl` -> `test`). */
export function gsm8kSplit(file: string): string {
  return basename(file).replace(/\.jsonl?$/i, '');
}

/** Seeds from a GSM8K JSONL file: `gsm8k-<split>-<index>`. */
export function loadGsm8k(file: string): NumberItem[] {
  const split = gsm8kSplit(file);
  return readGsm8k(file).map((r) => ({
    id: `gsm8k-${split}-${r.index}`,
    question: r.question,
    gold: r.gold,
    solution: r.answer,
    source: `gsm8k ${split} #${r.index}`,
  }));
}

function tail(answer: string): string {
  const at = answer.lastIndexOf('####');
  const t = (at < 0 ? answer.slice(-40) : answer.slice(at)).replace(/\s+/g, ' ').trim();
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}
