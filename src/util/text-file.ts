import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';

/**
 * A UTF-8 text file's contents without a leading byte-order mark. Editors on Windows write one
 * (often with CRLF line ends, which the JSONL, CSV and YAML readers accept as they are), and
 * without this the first line of a JSONL file or the first CSV header would carry it.
 */
export function readTextFile(path: string): string {
  // A device never ends (`/dev/zero`): only files (and pipes, read to their end) are read whole.
  if (statSync(path).isCharacterDevice())
    throw new InputError('is a device, not a text file', { file: path });
  const bytes = readFileSync(path);
  try {
    return withoutBom(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    let line = 1;
    for (const [, number] of linesOfTextFile(path)) line = number + 1; // throws at the line that is not UTF-8
    throw new InputError('not valid UTF-8 text', { file: path, line });
  }
}

/** The text without its leading U+FEFF, if it has one. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A line longer than this is not a suite's line (`/dev/zero`, a binary file): refused, not read on. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Each line of a UTF-8 text file (without its `\n` and a leading byte-order mark), with its
 * number from 1, read a megabyte at a time: a large file is never held whole. A line that is not
 * UTF-8, or past MAX_LINE_BYTES, is an InputError naming the file and line (not U+FFFD, silently).
 */
export function* linesOfTextFile(path: string): Generator<[line: string, number: number]> {
  const fd = openSync(path, 'r');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const decode = (bytes: Buffer, number: number): string => {
    try {
      return decoder.decode(bytes);
    } catch {
      throw new InputError('not valid UTF-8 text', { file: path, line: number });
    }
  };
  try {
    const buffer = Buffer.alloc(1 << 20);
    // The bytes of the line not ended yet, kept in pieces so a long line is copied once.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let number = 0;
    let first = true;
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      const chunk = buffer.subarray(0, n);
      if (chunk.indexOf(0x0a) === -1 && !first) {
        pending.push(Buffer.from(chunk));
        pendingBytes += n;
        if (pendingBytes > MAX_LINE_BYTES)
          throw new InputError(
            `line ${number + 1} is longer than ${MAX_LINE_BYTES} bytes: not a text file of lines?`,
            {
              file: path,
            },
          );
        continue;
      }
      const bytes = pending.length > 0 ? Buffer.concat([...pending, chunk]) : chunk;
      const start = first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      first = false;
      const end = bytes.lastIndexOf(0x0a);
      // The chunk's whole lines are decoded at once (a decoder call per line cost more than the
      // parsing): \n is never part of a UTF-8 sequence, so splitting the text is splitting the bytes.
      if (end !== -1)
        for (const line of decodeLines(bytes.subarray(start, end), number, decode)) {
          number++;
          yield [line, number];
        }
      // Copied: `buffer` is read into again.
      const rest = Buffer.from(bytes.subarray(end === -1 ? start : end + 1));
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
    }
    if (pendingBytes > 0) yield [decode(Buffer.concat(pending), number + 1), number + 1];
  } finally {
    closeSync(fd);
  }
}

/**
 * The lines of whole lines' bytes (the last without its \n). Where they are not UTF-8, each is
 * decoded alone: the lines before the one that is not come first, and the error names that one.
 */
function* decodeLines(
  bytes: Buffer,
  before: number,
  decode: (bytes: Buffer, number: number) => string,
): Generator<string> {
  let text: string | undefined;
  try {
    text = decode(bytes, before + 1);
  } catch {
    let start = 0;
    let number = before;
    for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
      yield decode(bytes.subarray(start, end), ++number);
      start = end + 1;
    }
    yield decode(bytes.subarray(start), number + 1);
    return;
  }
  yield* text.split('\n');
}
