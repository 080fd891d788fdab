import { InputError } from '../../errors.js';
import { readTextFile } from '../../util/text-file.js';

/** One open-ended prompt (a question or an instruction) with where it came from. */
export interface OpenPrompt {
  /** Unique within its dataset and stable across runs: the source's own id, else its row. */
  id: string;
  /** The dataset's name as the user gave it (`truthfulqa`, `builtin`, a file path...). */
  dataset: string;
  text: string;
  /** Reference answers when the dataset has them; SGS does not use them, reports may show them. */
  references?: string[];
  /** Other names of a reference answer (TriviaQA's aliases): a short-answer scorer accepts them too. */
  aliases?: string[];
  /** File (relative to the data directory for named datasets) and 1-based line or 0-based index. */
  source: { file: string; line?: number; index?: number };
}

/** Reads a dataset file, turning a missing or unreadable file into an InputError that names it. */
export function readDataFile(path: string, what: string): string {
  try {
    return readTextFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : (code ?? String(e));
    throw new InputError(`cannot read the ${what} dataset: ${why}`, { file: path });
  }
}

/** Parses a JSON document, naming the file when it is not JSON. */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`not valid JSON (${(e as Error).message})`, { file });
  }
}

/** Parses JSONL: one value per non-blank line, each with its 1-based line number. */
export function parseJsonl(text: string, file: string): { line: number; value: unknown }[] {
  const out: { line: number; value: unknown }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === '') continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (e) {
      throw new InputError(`not valid JSON (${(e as Error).message})`, { file, line: i + 1 });
    }
  }
  return out;
}

/** A record's string field, or an InputError naming the file, line and field. */
export function stringField(value: unknown, field: string, where: { file: string; line?: number }): string {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
  if (typeof v !== 'string') throw new InputError('must be a string', { ...where, field });
  return v;
}

/** Collapses runs of whitespace and trims, so prompts read as one line would. */
export function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
