import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from './hash.js';

describe('sha256', () => {
  it('is the hex digest of a Hash object, for text and bytes (so no stored key changes with the one-shot)', () => {
    for (const text of ['', 'abc', 'é😀', 'x'.repeat(100_000)])
      expect(sha256(text)).toBe(createHash('sha256').update(text).digest('hex'));
    const bytes = new Uint8Array([0, 1, 2, 255]);
    expect(sha256(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});
