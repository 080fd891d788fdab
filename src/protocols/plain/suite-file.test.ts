import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlainSuite } from './suite-file.js';

const dir = mkdtempSync(join(tmpdir(), 'waver-suite-'));
function suiteFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('plain suite', () => {
  it('loads tests and hashes them independently of key order and blank lines', () => {
    const a = loadPlainSuite(
      suiteFile('a.jsonl', '{"id":"1","prompt":"hi"}\n\n{"id":"2","prompt":"yo","system":"s"}\n'),
    );
    const b = loadPlainSuite(
      suiteFile('b.jsonl', '{"prompt":"hi","id":"1"}\n{"system":"s","prompt":"yo","id":"2"}'),
    );
    expect(a.tests).toHaveLength(2);
    expect(a.hash).toBe(b.hash);
    const c = loadPlainSuite(
      suiteFile('c.jsonl', '{"id":"1","prompt":"hi!"}\n{"id":"2","prompt":"yo","system":"s"}'),
    );
    expect(c.hash).not.toBe(a.hash);
  });

  it('reads a file saved with a byte-order mark and CRLF line ends as the same suite', () => {
    const lf = loadPlainSuite(suiteFile('lf.jsonl', '{"id":"1","prompt":"hi"}\n{"id":"2","prompt":"yo"}\n'));
    const bom = loadPlainSuite(
      suiteFile('bom.jsonl', '\ufeff{"id":"1","prompt":"hi"}\r\n{"id":"2","prompt":"yo"}\r\n'),
    );
    expect(bom.tests.map((t) => t.id)).toEqual(['1', '2']);
    expect(bom.hash).toBe(lf.hash);
  });

  it("bounds a line's repeats by maxRepeats (1,000 unless raised), naming file, line and field", () => {
    const path = suiteFile(
      'many.jsonl',
      '{"id":"1","prompt":"a","repeats":1000}\n{"id":"2","prompt":"b","repeats":1001}\n',
    );
    try {
      loadPlainSuite(path);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({
        name: 'InputError',
        file: path,
        line: 2,
        field: 'repeats',
        reason: '1001 is above the limit of 1000 (maxRepeats in waver.yaml raises it)',
      });
    }
    expect(loadPlainSuite(path, 1001).tests.map((t) => t.repeats)).toEqual([1000, 1001]);
  });

  it.each([
    ['{"id":"1","prompt":"a"}\n{"id":"2"}', 2, 'prompt'],
    ['{"id":"1","prompt":"a"}\n{"id":"1","prompt":"b"}', 2, 'id'],
    ['{"id":"1","prompt":"a","promt":"b"}', 1, 'promt'],
    ['{"id":"1","prompt":"a","system":3}', 1, 'system'],
    ['{"id":"1","prompt":"a"}\n{"id":"2","prompt":"b"\n', 2, undefined],
  ])('names the line and field of bad input (%#)', (text, line, field) => {
    const path = suiteFile(`bad${line}${field}.jsonl`, text);
    try {
      loadPlainSuite(path);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ name: 'InputError', file: path, line, field });
    }
  });
});
