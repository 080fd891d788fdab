import { describe, expect, it } from 'vitest';
import { type SampleLimits, type TranscriptCell, TranscriptSampler } from './transcript-sample.js';

/** The transcript sample: every cell while few, else the flagged ones and a stratified sample. */

function cell(i: number, opts: Partial<TranscriptCell> = {}): TranscriptCell {
  return {
    protocol: 'run',
    suite: 's'.repeat(64),
    model: `m${i % 3}`,
    identity: `id${i % 3}`,
    test: `t${Math.floor(i / 3)}`,
    repeat: 0,
    item: `t${i}`,
    prompt: `prompt ${i}`,
    status: 'done',
    family: i % 10 === 0 ? 'rare' : 'common',
    ...opts,
  };
}

const small: SampleLimits = { all: 100, flagged: 20, others: 60, strata: 50 };

function sample(cells: TranscriptCell[], limits = small) {
  const s = new TranscriptSampler(limits);
  for (const c of cells) s.add(c);
  return s.finish();
}

const key = (c: TranscriptCell) => `${c.identity}/${c.test}/${c.repeat}`;

describe('TranscriptSampler', () => {
  it('keeps every cell up to the limit, in order, and says it sampled nothing', () => {
    const cells = Array.from({ length: 100 }, (_, i) => cell(i));
    const { cells: kept, summary } = sample(cells);
    expect(kept).toEqual(cells);
    expect(summary).toMatchObject({ total: 100, shown: 100, sampled: false });
  });

  it('beyond it: every flagged cell up to its cap, others stratified with every stratum present', () => {
    const cells = Array.from({ length: 3000 }, (_, i) =>
      cell(i, i % 200 === 7 ? { status: 'failed' } : i % 300 === 11 ? { flipped: true, correct: false } : {}),
    );
    const { cells: kept, summary } = sample(cells);
    const flagged = cells.filter((c) => c.status === 'failed' || c.flipped);
    expect(flagged).toHaveLength(15 + 10);
    expect(summary).toMatchObject({ total: 3000, sampled: true, flagged: 25, flaggedShown: 20 });
    expect(kept.filter((c) => c.status === 'failed' || c.flipped)).toHaveLength(20);
    const others = kept.filter((c) => c.status !== 'failed' && !c.flipped);
    expect(others).toHaveLength(60);
    // Six strata of others (3 models x rare/common): an equal share of 10 each.
    const strata = new Map<string, number>();
    for (const c of others)
      strata.set(`${c.model}/${c.family}`, (strata.get(`${c.model}/${c.family}`) ?? 0) + 1);
    expect([...strata.values()]).toEqual([10, 10, 10, 10, 10, 10]);
    // Kept in the order they came.
    const order = cells.map(key);
    const at = kept.map((c) => order.indexOf(key(c)));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    // The counts are over every cell.
    expect(summary.groups.reduce((n, g) => n + g.cells, 0)).toBe(3000);
    expect(summary.groups.reduce((n, g) => n + g.shown, 0)).toBe(80);
  });

  it('a small stratum gives what it leaves to the others', () => {
    // One model: 2 rare cells among 1,000.
    const cells = Array.from({ length: 1000 }, (_, i) => cell(i * 3, { family: i < 2 ? 'rare' : 'common' }));
    const { cells: kept } = sample(cells);
    expect(kept.filter((c) => c.family === 'rare')).toHaveLength(2);
    expect(kept.filter((c) => c.family === 'common')).toHaveLength(58);
  });

  it('the same cells in any order give the same sample', () => {
    const cells = Array.from({ length: 2000 }, (_, i) => cell(i, i % 97 === 0 ? { status: 'failed' } : {}));
    const shuffled = [...cells].sort(
      (a, b) =>
        ((a.prompt.length * 7919 + a.test.length) % 13) - ((b.prompt.length * 7919 + b.test.length) % 13) ||
        a.item.localeCompare(b.item),
    );
    const keys = (cs: TranscriptCell[]) => new Set(cs.map(key));
    expect(keys(sample(shuffled).cells)).toEqual(keys(sample(cells).cells));
  });
});
