import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentName, localRecordsSource, normalisedValue, recordsDigest } from './identity.js';
import { DatasetSourceSchema } from './provenance.js';
import type { DataRecord } from './records.js';

const records = (...values: unknown[]): DataRecord[] =>
  values.map((value, index) => ({ value, where: { file: 'any', index } }));

describe('a local dataset is named by its records (docs/datasets.md#identity)', () => {
  it('a value as every format writes it: text for numbers, no field for an empty one, keys in any order', () => {
    expect(normalisedValue({ b: 12, a: true, c: null, d: '', e: undefined })).toEqual({ b: '12', a: 'true' });
    expect(normalisedValue({ options: ['x', null, 3] })).toEqual({ options: ['x', null, '3'] });
    expect(normalisedValue(new Date(Date.UTC(2024, 0, 2)))).toBe('2024-01-02T00:00:00.000Z');
    expect(normalisedValue(new Uint8Array([104, 105]))).toBe('aGk=');
    expect(normalisedValue(2n ** 70n)).toBe('1180591620717411303424');
  });

  it('the same records as JSON values and as CSV text have one digest; any change makes another', () => {
    const typed = recordsDigest(records({ q: 'What is 2+2?', n: 4, note: null }, { q: 'Why?', n: 0.5 }));
    const text = recordsDigest(records({ n: '4', q: 'What is 2+2?', note: '' }, { q: 'Why?', n: '0.5' }));
    expect(text).toEqual(typed);
    expect(typed.count).toBe(2);
    // The digest is the sha256 of the records' canonical JSON lines (docs/datasets.md#identity).
    const lines = '{"n":"4","q":"What is 2+2?"}\n{"n":"0.5","q":"Why?"}';
    expect(typed.sha256).toBe(createHash('sha256').update(lines).digest('hex'));
    for (const other of [
      records({ q: 'What is 2+2?', n: 5 }, { q: 'Why?', n: 0.5 }),
      records({ q: 'Why?', n: 0.5 }, { q: 'What is 2+2?', n: 4 }),
      records({ q: 'What is 2+2?', n: 4 }),
    ])
      expect(recordsDigest(other).sha256).not.toBe(typed.sha256);
  });

  it('the record a suite keeps: the content name and digest, no file; or the name the user declared', () => {
    const rs = records({ q: 'a' });
    const { sha256 } = recordsDigest(rs);
    const source = localRecordsSource(rs);
    expect(source).toEqual({
      name: `records-${sha256.slice(0, 12)}`,
      records: { count: 1, sha256 },
      files: [],
    });
    expect(contentName('records', sha256)).toBe(source.name);
    expect(DatasetSourceSchema.parse(source)).toEqual(source);
    expect(localRecordsSource(rs, 'arc-challenge').name).toBe('arc-challenge');
  });
});
