import { InputError } from '../errors.js';
import { readTextFile } from '../util/text-file.js';

/**
 * A small CSV reader (RFC 4180): comma-separated fields, fields quoted with `"` may hold commas,
 * line breaks and doubled quotes (`""`); records end with LF or CRLF. Every record keeps the line
 * it starts on, so an error can name it even when an earlier field spans several lines.
 */

export interface CsvRecordRaw {
  /** 1-based line where the record starts. */
  line: number;
  values: string[];
}

export interface CsvRecord {
  line: number;
  /** Field values by header name. */
  fields: Record<string, string>;
}

export interface CsvTable {
  header: string[];
  records: CsvRecord[];
}

/** Parses CSV text into raw records. An unterminated quote or stray text after one is an InputError. */
export function parseCsvRows(text: string, file?: string): CsvRecordRaw[] {
  const rows: CsvRecordRaw[] = [];
  // A byte-order mark is not part of the first header name.
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let line = 1;
  let i = 0;
  const n = s.length;
  while (i < n) {
    const start = line;
    const values: string[] = [];
    for (;;) {
      let value = '';
      if (s[i] === '"') {
        const quoteLine = line;
        i++;
        for (;;) {
          if (i >= n) throw new InputError('unterminated quoted field', { file, line: quoteLine });
          const c = s[i] as string;
          if (c === '"') {
            if (s[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          value += c;
          i++;
        }
        if (i < n && s[i] !== ',' && s[i] !== '\n' && !(s[i] === '\r' && s[i + 1] === '\n'))
          throw new InputError('text after a closing quote (a quote inside a field must be doubled)', {
            file,
            line,
          });
      } else {
        let j = i;
        while (j < n && s[j] !== ',' && s[j] !== '\n' && !(s[j] === '\r' && s[j + 1] === '\n')) j++;
        value = s.slice(i, j);
        i = j;
      }
      values.push(value);
      if (i < n && s[i] === ',') {
        i++;
        continue;
      }
      // End of record (or of input).
      if (s[i] === '\r') i++;
      if (s[i] === '\n') {
        i++;
        line++;
      }
      break;
    }
    // A blank line is no record (Python's csv module skips them the same way).
    if (!(values.length === 1 && values[0] === '')) rows.push({ line: start, values });
  }
  return rows;
}

/** Parses CSV text with a header row; every record must have as many fields as the header. */
export function parseCsv(text: string, file?: string): CsvTable {
  const rows = parseCsvRows(text, file);
  const head = rows[0];
  if (!head) throw new InputError('empty CSV: no header row', { file });
  const header = head.values.map((h) => h.trim());
  const seen = new Set<string>();
  for (const h of header) {
    if (seen.has(h)) throw new InputError(`duplicate column '${h}' in the header`, { file, line: head.line });
    seen.add(h);
  }
  const records = rows.slice(1).map((r) => {
    if (r.values.length !== header.length)
      throw new InputError(`expected ${header.length} fields (as in the header), found ${r.values.length}`, {
        file,
        line: r.line,
      });
    const fields: Record<string, string> = {};
    header.forEach((h, k) => {
      fields[h] = r.values[k] as string;
    });
    return { line: r.line, fields };
  });
  return { header, records };
}

/** Reads and parses a CSV file (see parseCsv); a missing file is an InputError naming it. */
export function readCsv(file: string): CsvTable {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (e) {
    throw new InputError(`cannot read CSV: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file });
  }
  return parseCsv(text, file);
}

/** The header columns a table must have, or an InputError naming the first one missing. */
export function requireColumns(table: CsvTable, columns: readonly string[], file?: string): void {
  for (const c of columns)
    if (!table.header.includes(c))
      throw new InputError(`missing column '${c}' (header: ${table.header.join(', ')})`, {
        file,
        line: 1,
        field: c,
      });
}
