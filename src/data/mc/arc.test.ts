import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir, sharedFile } from '../../test-support/shared.js';
import { loadArcChallenge } from './arc.js';

const ARC = sharedFile('data/arc-challenge/arc_challenge.jsonl');
const withArc = ARC ? describe : describe.skip;

withArc(
  `ARC-Challenge from ../shared/data ${ARC ? '' : `(skipped: ${resolve(sharedDir, 'data/arc-challenge/arc_challenge.jsonl')} is not there)`}`,
  () => {
    it('loads all 1172 items with 4 options, keys from gold, the "Question: " prefix removed', () => {
      const items = loadArcChallenge(ARC as string);
      expect(items).toHaveLength(1172);
      expect(items.every((i) => i.options.length === 4 && i.category === 'science')).toBe(true);
      const keys: Record<string, number> = {};
      for (const i of items) keys[i.key] = (keys[i.key] ?? 0) + 1;
      // The README's gold distribution: 0: 261, 1: 306, 2: 311, 3: 294.
      expect(keys).toEqual({ A: 261, B: 306, C: 311, D: 294 });
      expect(items[0]).toMatchObject({
        id: 'arc-challenge-0',
        stem: 'An astronomer observes that a planet rotates faster after a meteorite impact. Which is the most likely effect of this increase in rotation?',
        key: 'C',
        source: 'arc-challenge:0',
      });
      expect(items[0]?.options[2]?.text).toBe('Planetary days will become shorter.');
    });
  },
);

describe('loadArcChallenge on bad rows', () => {
  it('names the item and field of a gold outside the choices', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-arc-'));
    const path = join(dir, 'arc.jsonl');
    writeFileSync(path, `${JSON.stringify({ query: 'Question: q', choices: ['a', 'b'], gold: 2 })}\n`);
    expect(() => loadArcChallenge(path)).toThrow(
      "item 'arc-challenge-0': key 'C' is not one of the options (A, B)",
    );
    writeFileSync(path, `${JSON.stringify({ query: 'Question: q', choices: ['a'], gold: 0 })}\n`);
    expect(() => loadArcChallenge(path)).toThrow("item 'arc-challenge-0': needs at least two choices");
  });
});
