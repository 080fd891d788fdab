import { readFileSync } from 'node:fs';

/**
 * A UTF-8 text file's contents without a leading byte-order mark. Editors on Windows write one
 * (often with CRLF line ends, which the JSONL, CSV and YAML readers accept as they are), and
 * without this the first line of a JSONL file or the first CSV header would carry it.
 */
export function readTextFile(path: string): string {
  return withoutBom(readFileSync(path, 'utf8'));
}

/** The text without its leading U+FEFF, if it has one. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
