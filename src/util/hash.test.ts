import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256 } from './hash.js';

describe('sha256', () => {
  it('is the hex digest of a Hash object, for text and bytes (so no stored key changes with the one-shot)', () => {
    for (const text of ['', 'abc', 'é😀', 'x'.repeat(100_000)])
      expect(sha256(text)).toBe(createHash('sha256').update(text).digest('hex'));
    const bytes = new Uint8Array([0, 1, 2, 255]);
    expect(sha256(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});

describe('canonicalJson', () => {
  it('orders keys as Array.prototype.sort does, at every depth (so no stored suite hash or cache key changes)', () => {
    // What canonicalJson wrote when it sorted with the built-in sort.
    const byBuiltIn = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(byBuiltIn);
      if (value && typeof value === 'object')
        return Object.fromEntries(
          Object.keys(value)
            .sort()
            .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
            .map((k) => [k, byBuiltIn((value as Record<string, unknown>)[k])]),
        );
      return value;
    };
    const keys = ['b', 'a', 'B', '10', '2', '1', 'é', 'e', '😀', 'ｚ', 'a b', 'a_b', '', 'Z', 'aa'];
    const value = {
      ...Object.fromEntries(keys.map((k, i) => [k, i])),
      nested: { z: [{ y: 1, x: { d: undefined, c: 2 } }], m: null },
      gone: undefined,
    };
    const text = canonicalJson(value);
    expect(text).toBe(JSON.stringify(byBuiltIn(value)));
    // Integer-like keys come first in numeric order: JSON.stringify enumerates an object so.
    expect(text).toBe(
      '{"1":5,"2":4,"10":3,"":12,"B":2,"Z":13,"a":1,"a b":10,"a_b":11,"aa":14,"b":0,"e":7,"nested":{"m":null,"z":[{"x":{"c":2},"y":1}]},"é":6,"😀":8,"ｚ":9}',
    );
    expect(canonicalJson({ b: 1, a: [3, { d: 4, c: 5 }] })).toBe('{"a":[3,{"c":5,"d":4}],"b":1}');
  });
});
