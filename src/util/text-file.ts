import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

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

/**
 * Each line of a UTF-8 text file (without its `\n` and a leading byte-order mark), with its
 * number from 1, read a megabyte at a time: a large file is never held whole.
 */
export function* linesOfTextFile(path: string): Generator<[line: string, number: number]> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let number = 0;
    let first = true;
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      const text = rest + decoder.write(buffer.subarray(0, n));
      let start = first && text.charCodeAt(0) === 0xfeff ? 1 : 0;
      first = false;
      for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
        yield [text.slice(start, end), ++number];
        start = end + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder.end();
    if (rest !== '') yield [rest, ++number];
  } finally {
    closeSync(fd);
  }
}
