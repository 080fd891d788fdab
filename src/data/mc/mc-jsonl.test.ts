import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputErrorOf } from '../../test-support/scratch.js';
import { firstDuplicateKey, loadMcJsonl } from './mc-jsonl.js';

function file(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'waver-mc-jsonl-'));
  const path = join(dir, 'items.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('loadMcJsonl', () => {
  it('reads one item a line, skipping blank lines, naming id-less items line-N', () => {
    const path = file([
      JSON.stringify({ id: 'a', stem: 'Pick one', options: { A: 'x', B: 'y' }, key: 'A', category: 'demo' }),
      '',
      JSON.stringify({ stem: 'Pick two', options: ['x', 'y', 'z'], key: 'c', alternates: ['Choose two'] }),
    ]);
    const items = loadMcJsonl(path);
    expect(items.map((i) => [i.id, i.key, i.options.length, i.source])).toEqual([
      ['a', 'A', 2, `${path}:1`],
      ['line-3', 'C', 3, `${path}:3`],
    ]);
  });

  it('reads a file saved with a byte-order mark and CRLF line ends', () => {
    const path = file([]);
    const item = JSON.stringify({ id: 'a', stem: 'Pick one', options: { A: 'x', B: 'y' }, key: 'B' });
    writeFileSync(path, `\ufeff${item}\r\n${item.replace('"a"', '"b"')}\r\n`);
    expect(loadMcJsonl(path).map((i) => [i.id, i.key])).toEqual([
      ['a', 'B'],
      ['b', 'B'],
    ]);
  });

  it('refuses duplicate option letters that JSON.parse would silently merge', () => {
    const path = file(['{"id": "q7", "stem": "s", "options": {"A": "x", "B": "y", "B": "z"}, "key": "A"}']);
    const e = inputErrorOf(() => loadMcJsonl(path));
    expect(e.format()).toBe(`${path}:1: options.B: item 'q7': duplicate option letter 'B'`);
  });

  it('names the line of a line that is not JSON, and of an item that is bad', () => {
    const notJson = file([
      JSON.stringify({ id: 'a', stem: 's', options: ['x', 'y'], key: 'A' }),
      '{"id": "b", ',
    ]);
    expect(inputErrorOf(() => loadMcJsonl(notJson)).line).toBe(2);
    const badKey = file([JSON.stringify({ id: 'a', stem: 's', options: ['x', 'y'], key: 'Z' })]);
    expect(inputErrorOf(() => loadMcJsonl(badKey)).format()).toBe(
      `${badKey}:1: key: item 'a': key 'Z' is not one of the options (A, B)`,
    );
    const empty = file(['', '  ']);
    expect(inputErrorOf(() => loadMcJsonl(empty)).message).toBe('the dataset has no items');
    expect(inputErrorOf(() => loadMcJsonl(join(tmpdir(), 'no-such-waver-file.jsonl'))).message).toBe(
      'cannot read dataset: no such file',
    );
  });

  it('refuses two items with the same id', () => {
    const item = JSON.stringify({ id: 'same', stem: 's', options: ['x', 'y'], key: 'A' });
    const e = inputErrorOf(() => loadMcJsonl(file([item, item])));
    expect(e.reason).toBe("item 'same': duplicate id (also item #1)");
  });
});

describe('firstDuplicateKey', () => {
  it('finds a repeated key at any depth and gives its path', () => {
    expect(firstDuplicateKey('{"a": 1, "b": {"c": 1, "c": 2}}')).toEqual(['b', 'c']);
    expect(firstDuplicateKey('{"a": [{"x": 1}, {"y": 1, "y": 2}]}')).toEqual(['a', '1', 'y']);
    expect(firstDuplicateKey('{"a": 1, "a": 2}')).toEqual(['a']);
  });

  it('is not fooled by equal keys in different objects, by strings that look like keys, or by escapes', () => {
    expect(firstDuplicateKey('{"a": {"k": 1}, "b": {"k": 1}}')).toBeUndefined();
    expect(firstDuplicateKey('{"a": "b\\": 1, ", "b": "a"}')).toBeUndefined();
    expect(firstDuplicateKey('{"list": ["a", "a"], "s": "{\\"x\\":1,\\"x\\":2}"}')).toBeUndefined();
    expect(firstDuplicateKey('{"\\u0041": 1, "A": 2}')).toEqual(['A']);
  });
});
