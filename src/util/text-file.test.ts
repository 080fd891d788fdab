import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputErrorOf } from '../test-support/scratch.js';
import { linesOfTextFile, readTextFile, withoutBom } from './text-file.js';

describe('readTextFile', () => {
  it('drops a leading byte-order mark and keeps CRLF line ends and a BOM anywhere else', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'waver-text-')), 'a.jsonl');
    writeFileSync(path, '\ufeff{"id":"1"}\r\n{"id":"\ufeff2"}\r\n');
    expect(readTextFile(path)).toBe('{"id":"1"}\r\n{"id":"\ufeff2"}\r\n');
    expect(withoutBom('plain')).toBe('plain');
  });
});

describe('linesOfTextFile', () => {
  it('gives the lines readTextFile would split, numbered, across megabyte reads and a character cut by one', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'waver-text-')), 'big.jsonl');
    // Lines of a few hundred bytes with a 3-byte character, so reads end inside lines and characters.
    const lines = Array.from({ length: 12_000 }, (_, i) => `{"id":"${i}","prompt":"${'€x'.repeat(i % 97)}"}`);
    writeFileSync(path, `\ufeff${lines.join('\r\n')}\r\n\r\nlast without an end`);
    const read = [...linesOfTextFile(path)];
    const expected = readTextFile(path).split('\n');
    expect(read.map(([line]) => line)).toEqual(expected);
    expect(read.map(([, n]) => n)).toEqual(expected.map((_, i) => i + 1));
    expect(read[0]?.[0]).toBe('{"id":"0","prompt":""}\r');
  });
});

describe('text that is not UTF-8 lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waver-text-'));
  it('a line that is not UTF-8 is an input error naming the file and line, not U+FFFD', () => {
    const path = join(dir, 'latin1.jsonl');
    writeFileSync(
      path,
      Buffer.concat([Buffer.from('{"id":"a"}\n{"id":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]),
    );
    const lines = inputErrorOf(() => [...linesOfTextFile(path)]);
    expect(lines).toMatchObject({ file: path, line: 2, message: 'not valid UTF-8 text' });
    expect(inputErrorOf(() => readTextFile(path))).toMatchObject({ file: path, line: 2 });
  });

  it('a device that never ends is refused, not read until memory runs out', () => {
    expect(inputErrorOf(() => readTextFile('/dev/zero')).message).toBe('is a device, not a text file');
    const t0 = performance.now();
    expect(inputErrorOf(() => [...linesOfTextFile('/dev/zero')]).message).toMatch(/^line 1 is longer than/);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
