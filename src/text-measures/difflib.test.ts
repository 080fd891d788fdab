import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../test-support/python3.js';
import { sharedFile } from '../test-support/shared.js';
import { sequenceMatcherMatches, sequenceMatcherRatio } from './difflib.js';

interface RatioPair {
  a: string;
  b: string;
  py: number;
  py_noauto: number;
  nonbmp: boolean;
}

for (const name of ['difflib-ratio-pairs.json', 'difflib-ratio-long.json']) {
  const path = sharedFile(`fixtures/${name}`);
  const title = path
    ? `sequenceMatcherRatio equals CPython 3.11 on every pair of ${name}`
    : `skipped: ../shared/fixtures/${name} is not there`;
  describe.skipIf(!path)(title, () => {
    const pairs = path ? (JSON.parse(readFileSync(path, 'utf8')) as RatioPair[]) : [];

    it('with autojunk (the default), bit for bit', () => {
      const wrong = pairs.filter((p) => !Object.is(sequenceMatcherRatio(p.a, p.b), p.py));
      expect(pairs.length).toBeGreaterThanOrEqual(200);
      expect(wrong.map((p) => [p.a.slice(0, 40), p.py])).toEqual([]);
    });

    it('without autojunk, bit for bit', () => {
      const wrong = pairs.filter(
        (p) => !Object.is(sequenceMatcherRatio(p.a, p.b, { autojunk: false }), p.py_noauto),
      );
      expect(wrong.map((p) => [p.a.slice(0, 40), p.py_noauto])).toEqual([]);
    });

    it('counts code points, not UTF-16 units, on the pairs with non-BMP characters', () => {
      const nonBmp = pairs.filter((p) => p.nonbmp);
      if (name === 'difflib-ratio-pairs.json') expect(nonBmp.length).toBeGreaterThan(0);
      for (const p of nonBmp) {
        const total = Array.from(p.a).length + Array.from(p.b).length;
        expect((2 * sequenceMatcherMatches(p.a, p.b)) / total).toBe(p.py);
      }
    });
  });
}

describe('sequenceMatcherRatio on hand-checked cases', () => {
  it('follows CPython on empty and disjoint inputs', () => {
    expect(sequenceMatcherRatio('', '')).toBe(1);
    expect(sequenceMatcherRatio('', 'abc')).toBe(0);
    expect(sequenceMatcherRatio('abc', '')).toBe(0);
    expect(sequenceMatcherRatio('abc', 'xyz')).toBe(0);
    expect(sequenceMatcherRatio('abc', 'abc')).toBe(1);
  });

  it('gives the documented examples', () => {
    // difflib docs: SequenceMatcher(None, "abcd", "bcde").ratio() == 0.75
    expect(sequenceMatcherRatio('abcd', 'bcde')).toBe(0.75);
    // an astral character is one element: 2*1/(1+2)
    expect(sequenceMatcherRatio('😀', '😀x')).toBe(2 / 3);
    expect(sequenceMatcherRatio('\ud83d', '😀')).toBe(0); // a lone surrogate is its own code point
  });

  it('applies autojunk only from len(b) >= 200: popular characters stop seeding matches', () => {
    // b: 199 'a's and a 'b'; 'a' occurs more than 200 // 100 + 1 = 3 times and leaves b2j.
    const b = `${'a'.repeat(199)}b`;
    expect(sequenceMatcherRatio('xa', b, { autojunk: false })).toBe(2 / 202);
    expect(sequenceMatcherRatio('xa', b)).toBe(0);
    expect(sequenceMatcherRatio('xa', b.slice(1))).toBe(2 / 201); // len(b) 199: no autojunk
  });

  it('keeps CPython quirk: the empty best match at (alo, blo) is still extended over equal elements', () => {
    // No seed exists ('a' is popular), yet a[0:2] == b[0:2] is found by the forward extension.
    const b = `${'a'.repeat(199)}b`;
    expect(sequenceMatcherRatio('aa', b)).toBe(4 / 202);
    // and a popular element next to a seeded match joins it
    expect(sequenceMatcherRatio('ab', b)).toBe(4 / 202);
  });
});

/** A deterministic generator (mulberry32) for the CPython cross-check inputs. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.skipIf(python3Missing)(
  python3Missing ?? 'sequenceMatcherRatio equals the local CPython on generated edge cases',
  () => {
    it('around the autojunk threshold, with small alphabets (many popular elements) and astral characters', () => {
      const next = rng(20240611);
      const alphabets = ['ab', 'abc ', 'abcdefgh ', 'xyz😀𝔸', 'The quick brown fox. '];
      const cases: { a: string; b: string }[] = [];
      for (let n = 0; n < 400; n++) {
        const alphabet = Array.from(alphabets[n % alphabets.length] as string);
        const pick = () => alphabet[Math.floor(next() * alphabet.length)] as string;
        const lb = 150 + Math.floor(next() * 300); // both sides of 200
        const b = Array.from({ length: lb }, pick).join('');
        // a: an edited copy of b, so there is structure to find
        const a = Array.from(b)
          .map((c) => (next() < 0.15 ? pick() : c))
          .filter(() => next() > 0.05)
          .join('');
        cases.push(n % 2 === 0 ? { a, b } : { a: b, b: a });
      }
      const py = runPython<[number, number][]>(
        [
          'import sys, json, difflib',
          'cases = json.load(sys.stdin)',
          'print(json.dumps([[difflib.SequenceMatcher(None, c["a"], c["b"]).ratio(),',
          '  difflib.SequenceMatcher(None, c["a"], c["b"], autojunk=False).ratio()] for c in cases]))',
        ].join('\n'),
        cases,
      );
      const ours = cases.map((c) => [
        sequenceMatcherRatio(c.a, c.b),
        sequenceMatcherRatio(c.a, c.b, { autojunk: false }),
      ]);
      expect(ours).toEqual(py);
      // the inputs really exercise autojunk: it changes the ratio on some of them
      expect(py.filter(([auto, noauto]) => auto !== noauto).length).toBeGreaterThan(20);
    });
  },
);
