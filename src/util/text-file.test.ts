import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextFile, withoutBom } from './text-file.js';

describe('readTextFile', () => {
  it('drops a leading byte-order mark and keeps CRLF line ends and a BOM anywhere else', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'waver-text-')), 'a.jsonl');
    writeFileSync(path, '\ufeff{"id":"1"}\r\n{"id":"\ufeff2"}\r\n');
    expect(readTextFile(path)).toBe('{"id":"1"}\r\n{"id":"\ufeff2"}\r\n');
    expect(withoutBom('plain')).toBe('plain');
  });
});
