import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
