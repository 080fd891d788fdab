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

  it('reads a file of one line without an end, a BOM alone and an empty file as readTextFile splits them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-text-'));
    const cases = ['one line, no end', '\ufeff', '', '\n', '\ufeff\n\n', `${'€'.repeat(400_000)}\nshort`];
    cases.forEach((text, i) => {
      const path = join(dir, `case-${i}.txt`);
      writeFileSync(path, text);
      const expected = readTextFile(path).split('\n');
      if (expected.at(-1) === '') expected.pop();
      expect([...linesOfTextFile(path)].map(([line]) => line)).toEqual(expected);
    });
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

  it('names the line among thousands read at once, and a line cut across reads', () => {
    const path = join(dir, 'deep.jsonl');
    const good = (n: number) =>
      Buffer.from(
        Array.from({ length: n }, (_, i) => `{"id":"${i}","p":"${'é'.repeat(i % 50)}"}\n`).join(''),
      );
    const first = good(3_000);
    writeFileSync(path, Buffer.concat([first, Buffer.from([0x7b, 0xc3, 0x28, 0x0a]), good(40_000)]));
    expect(inputErrorOf(() => [...linesOfTextFile(path)])).toMatchObject({ line: 3_001 });
    // The lines before it are read first, so a reader meets an earlier line's own error first.
    let before = 0;
    inputErrorOf(() => {
      for (const _ of linesOfTextFile(path)) before++;
    });
    expect(before).toBe(3_000);
    // Past the first megabyte: the bad byte sits in a later read.
    const late = good(40_000);
    writeFileSync(path, Buffer.concat([late, Buffer.from([0xff, 0x0a])]));
    expect(inputErrorOf(() => [...linesOfTextFile(path)])).toMatchObject({ line: 40_001 });
  });

  it('a device that never ends is refused, not read until memory runs out', () => {
    expect(inputErrorOf(() => readTextFile('/dev/zero')).message).toBe('is a device, not a text file');
    const t0 = performance.now();
    expect(inputErrorOf(() => [...linesOfTextFile('/dev/zero')]).message).toMatch(/^line 1 is longer than/);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
