import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { sharedFile } from '../test-support/shared.js';
import { parseCsv, parseCsvRows } from './csv.js';

describe('parseCsvRows', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, LF and CRLF', () => {
    const text = 'a,b,c\r\n1,"x, y","say ""hi"""\n2,"two\nlines",\n';
    expect(parseCsvRows(text)).toEqual([
      { line: 1, values: ['a', 'b', 'c'] },
      { line: 2, values: ['1', 'x, y', 'say "hi"'] },
      { line: 3, values: ['2', 'two\nlines', ''] },
    ]);
  });

  it('keeps the starting line of a record after a multi-line field, skips blank lines and a BOM', () => {
    const rows = parseCsvRows('\ufeffh\n"a\nb\nc"\n\nlast');
    expect(rows.map((r) => r.line)).toEqual([1, 2, 6]);
    expect(rows[0]?.values).toEqual(['h']);
    expect(rows[2]?.values).toEqual(['last']);
  });

  it('rejects an unterminated quote, naming the line it opened on', () => {
    const err = (() => {
      try {
        parseCsvRows('a\n"open\nstill open', 'x.csv');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).format()).toBe('x.csv:2: unterminated quoted field');
  });

  it('rejects text after a closing quote', () => {
    expect(() => parseCsvRows('"a"b,c', 'y.csv')).toThrow(/text after a closing quote/);
  });
});

describe('parseCsv', () => {
  it('maps fields by header and refuses records of the wrong width', () => {
    expect(parseCsv('id,q\n1,"a,b"\n').records).toEqual([{ line: 2, fields: { id: '1', q: 'a,b' } }]);
    expect(() => parseCsv('id,q\n1\n', 'z.csv')).toThrow(/expected 2 fields/);
  });

  const seeds = sharedFile('fixtures/ladder-reference/gsm8k_symbolic100.csv');
  it.skipIf(!seeds)(
    `parses the paper's seed CSV like Python's csv module${seeds ? '' : ' (skipped: ../shared/fixtures/ladder-reference/gsm8k_symbolic100.csv missing)'}`,
    () => {
      const file = seeds as string;
      let python: string[][];
      try {
        const out = execFileSync(
          'python3',
          [
            '-c',
            'import csv,json,sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline="")))))',
            file,
          ],
          { encoding: 'utf8', maxBuffer: 1 << 26 },
        );
        python = JSON.parse(out) as string[][];
      } catch {
        // No python3 here: check the shape the fixture's README states instead.
        python = [];
      }
      const rows = parseCsvRows(readFileSync(file, 'utf8'), file);
      expect(rows.length).toBe(101);
      if (python.length > 0) expect(rows.map((r) => r.values)).toEqual(python);
    },
  );
});
