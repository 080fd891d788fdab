import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type FormatChoice, renderFormat } from './grammar.js';
import { sampleFormats } from './sample-formats.js';

/** Formats drawn by the Python port of FormatSpread's sampler (src/test-support/spread/python/sample_formats.py). */
const fixture = JSON.parse(
  readFileSync(new URL('../../test-support/spread/formatspread-samples.json', import.meta.url), 'utf8'),
) as {
  example: [string, string[]];
  rendered: string[];
  samples: { seed: number; n: number; formats: FormatChoice[] }[];
};

describe('FormatSpread formats', () => {
  it('draws the formats the Python sampler draws, seed for seed', () => {
    for (const s of fixture.samples) expect(sampleFormats(s.n, s.seed)).toEqual(s.formats);
  });

  it('renders each format as their solve() and str.format write it', () => {
    const [question, options] = fixture.example;
    expect(sampleFormats(40, 0).map((f) => renderFormat(f, question, options))).toEqual(fixture.rendered);
  });

  it('gives other formats for another seed, and every one is distinct', () => {
    const a = sampleFormats(40, 0).map((f) => JSON.stringify(f));
    const b = sampleFormats(40, 1).map((f) => JSON.stringify(f));
    expect(new Set(a).size).toBe(40);
    expect(a).not.toEqual(b);
  });
});
