import { describe, expect, it } from 'vitest';
import {
  type ParaphraseModelMetrics,
  type ParaphraseObservation,
  paraphraseLeaderboard,
  paraphraseMetrics,
} from './metrics.js';

/** `A` is every item's key here; `?` is an unparsed reply, `!` a failed cell, `.` a pending one. */
function table(rows: Record<string, Record<string, string>>): ParaphraseObservation[] {
  const out: ParaphraseObservation[] = [];
  for (const [item, byPhrasing] of Object.entries(rows))
    for (const [phrasing, answers] of Object.entries(byPhrasing))
      [...answers].forEach((a, repeat) => {
        if (a === '.') return;
        if (a === '!') {
          out.push({
            item,
            phrasing,
            repeat,
            status: 'failed',
            correct: false,
            error: { kind: 'timeout', message: 'no answer in time' },
          });
          return;
        }
        out.push({
          item,
          phrasing,
          repeat,
          status: 'done',
          correct: a === 'A',
          ...(a === '?' ? {} : { answer: a, given: a }),
          key: 'A',
        });
      });
  return out;
}

const DESIGN = { items: ['i1', 'i2', 'i3', 'i4'], phrasings: ['p1', 'p2'], repeats: 2 };
// Worked by hand below each metric.
const OBS = table({
  i1: { p1: 'AA', p2: 'AA' }, // always right
  i2: { p1: 'AB', p2: 'AA' }, // one flip: p1, repeat 1
  i3: { p1: '??', p2: 'CC' }, // never right; unparsed in p1
  i4: { p1: 'AA', p2: '!A' }, // one failed cell: incomplete item
});

describe('paraphraseMetrics on a hand-computed table', () => {
  const m = paraphraseMetrics(DESIGN, OBS, { seed: 0, streamKey: 'm' });

  it('coverage: 15 of 16 cells done, 1 failed (timeout), complete at the 90% threshold', () => {
    expect(m.coverage).toEqual({
      expected: 16,
      done: 15,
      failed: 1,
      pending: 0,
      share: 15 / 16,
      complete: true,
      errorsByKind: { timeout: 1 },
    });
    expect(m.errors).toEqual([
      { item: 'i4', phrasing: 'p2', repeat: 0, kind: 'timeout', message: 'no answer in time' },
    ]);
  });

  it('raw accuracy: (4 + 3 + 0 + 3) / 16, the failed cell counted wrong', () => {
    expect(m.rawAccuracy.value).toBe(10 / 16);
    expect(m.rawAccuracy.n).toBe(16);
    expect(m.rawAccuracy.over).toBe(
      '16 cells (4 items x 2 phrasings x 2 repeats); failed and pending cells count as wrong',
    );
  });

  it('SAA: i1 only, over the 3 complete items (i4 excluded and counted)', () => {
    expect(m.saa.value).toBe(1 / 3);
    expect(m.saa.itemsScored).toBe(3);
    expect(m.saa.itemsExcluded).toBe(1);
    expect(m.saa.over).toBe('3 items with all 4 cells done (1 incomplete items excluded)');
  });

  it('per-phrasing accuracy and parse rate', () => {
    expect(m.perPhrasing.map((p) => [p.phrasing, p.accuracy.value, p.parsed, p.done, p.parseRate])).toEqual([
      ['p1', 5 / 8, 6, 8, 6 / 8],
      ['p2', 5 / 8, 7, 7, 1],
    ]);
    expect(m.parse).toEqual({ parsed: 13, done: 15, rate: 13 / 15 });
  });

  it('run instability: 1 of 7 complete (item, phrasing) pairs disagree across repeats (i2/p1)', () => {
    expect(m.runInstability.value).toBe(1 / 7);
    expect(m.runInstability.n).toBe(7);
  });

  it('prompt instability: 3 of 7 complete (item, repeat) pairs disagree across phrasings (i2/r1, i3/r0, i3/r1; unparsed is an answer of its own)', () => {
    expect(m.promptInstability.value).toBe(3 / 7);
    expect(m.promptInstability.n).toBe(7);
  });

  it('flips: the one wrong answer to an item answered right elsewhere; i3 never right', () => {
    expect(m.flips).toEqual([{ item: 'i2', phrasing: 'p1', repeat: 1, given: 'B', answer: 'B', key: 'A' }]);
    expect(m.neverCorrect).toEqual(['i3']);
  });

  it('CIs: the 2,000-resample cluster bootstrap equals CPython random.choices + numpy.percentile', () => {
    // Python: seed = first 4 bytes of sha256('[0,"paraphrase-bootstrap","m"]'); for each of 2000
    // resamples idx = rng.choices(range(4), k=4); every rate = sum(num[idx]) / sum(den[idx]);
    // np.percentile(values, [2.5, 97.5]).
    expect([m.saa.low, m.saa.high]).toEqual([0, 1]);
    expect([m.rawAccuracy.low, m.rawAccuracy.high]).toEqual([0.1875, 0.9375]);
    expect([m.runInstability.low, m.runInstability.high]).toEqual([0, 0.375]);
    expect([m.promptInstability.low, m.promptInstability.high]).toEqual([0, 0.8571428571428571]);
    expect(m.perPhrasing.map((p) => [p.accuracy.low, p.accuracy.high])).toEqual([
      [0.25, 1],
      [0.25, 1],
    ]);
  });
});

describe('paraphraseMetrics bootstrap', () => {
  const c = [4, 4, 4, 4, 4, 4, 4, 3, 2, 0];
  const items = c.map((_, k) => `q${k}`);
  const obs = table(
    Object.fromEntries(
      c.map((n, k) => {
        const answers = `${'A'.repeat(n)}${'B'.repeat(4 - n)}`;
        return [`q${k}`, { canonical: answers.slice(0, 2), terse: answers.slice(2) }];
      }),
    ),
  );
  const design = { items, phrasings: ['canonical', 'terse'], repeats: 2 };

  it('matches Python on a 10-item table (seed 7, stream model-b)', () => {
    const m = paraphraseMetrics(design, obs, { seed: 7, streamKey: 'model-b' });
    expect(m.saa.value).toBe(0.7);
    expect([m.saa.low, m.saa.high]).toEqual([0.4, 0.9]);
    expect(m.rawAccuracy.value).toBe(33 / 40);
    expect([m.rawAccuracy.low, m.rawAccuracy.high]).toEqual([0.6, 0.975]);
    const few = paraphraseMetrics(design, obs, { seed: 7, streamKey: 'model-b', resamples: 500 });
    expect([few.saa.low, few.saa.high]).toEqual([0.4, 1]);
  });

  it('is reproducible: the same seed gives the same CIs, another seed or stream other draws', () => {
    const a = paraphraseMetrics(design, obs, { seed: 11, streamKey: 'x' });
    const b = paraphraseMetrics(design, obs, { seed: 11, streamKey: 'x' });
    expect(b).toEqual(a);
    const runs = [12, 13, 14, 15].map((seed) =>
      paraphraseMetrics(design, obs, { seed, streamKey: 'x', resamples: 200 }),
    );
    const intervals = new Set(
      runs.map((r) => `${r.rawAccuracy.low} ${r.rawAccuracy.high} ${r.saa.low} ${r.saa.high}`),
    );
    expect(intervals.size).toBeGreaterThan(1);
  });

  it('collapses to a point when every item has the same value', () => {
    const allRight = table(Object.fromEntries(items.map((i) => [i, { canonical: 'AA', terse: 'AA' }])));
    const m = paraphraseMetrics(design, allRight, { seed: 0, streamKey: 's' });
    expect([m.saa.value, m.saa.low, m.saa.high]).toEqual([1, 1, 1]);
    expect([m.runInstability.value, m.runInstability.low, m.runInstability.high]).toEqual([0, 0, 0]);
  });
});

describe('paraphraseMetrics: unavailable, never 0', () => {
  it('a model with no cell at all: coverage 0, incomplete, every rate unavailable except raw (0 of 16 expected)', () => {
    const m = paraphraseMetrics(DESIGN, [], { seed: 0, streamKey: 'none' });
    expect(m.coverage).toMatchObject({ expected: 16, done: 0, pending: 16, share: 0, complete: false });
    expect(m.saa).toMatchObject({
      value: undefined,
      unavailable: 'no item has all its cells done',
      itemsScored: 0,
      itemsExcluded: 4,
    });
    expect(m.runInstability.unavailable).toBe('no (item, phrasing) pair has all its repeats done');
    expect(m.promptInstability.unavailable).toBe('no (item, repeat) pair has all its phrasings done');
    expect(m.parse.rate).toBeUndefined();
    expect(m.perPhrasing[0]?.parseRate).toBeUndefined();
    // Pending cells count as wrong in raw accuracy (they are in coverage too).
    expect(m.rawAccuracy.value).toBe(0);
  });

  it('one repeat: run instability unavailable (needs 2 repeats); one phrasing: prompt instability unavailable', () => {
    const one = paraphraseMetrics(
      { items: ['i1'], phrasings: ['p1', 'p2'], repeats: 1 },
      table({ i1: { p1: 'A', p2: 'A' } }),
      {
        seed: 0,
        streamKey: 'r',
      },
    );
    expect(one.runInstability).toMatchObject({ value: undefined, unavailable: 'needs at least 2 repeats' });
    expect(one.promptInstability.value).toBe(0);
    const single = paraphraseMetrics(
      { items: ['i1'], phrasings: ['p1'], repeats: 2 },
      table({ i1: { p1: 'AB' } }),
      {
        seed: 0,
        streamKey: 'r',
      },
    );
    expect(single.promptInstability).toMatchObject({
      value: undefined,
      unavailable: 'needs at least 2 phrasings',
    });
    expect(single.runInstability.value).toBe(1);
  });

  it('coverage below the threshold marks the model incomplete; cells outside the design are ignored', () => {
    const obs = table({ i1: { p1: 'AA', p2: 'AA' }, i2: { p1: 'AA', p2: '!!' }, i3: { p1: '..', p2: '..' } });
    obs.push({ item: 'zz', phrasing: 'p1', repeat: 0, status: 'done', correct: true, answer: 'A' });
    obs.push({ item: 'i1', phrasing: 'p1', repeat: 5, status: 'done', correct: true, answer: 'A' });
    const m = paraphraseMetrics({ items: ['i1', 'i2', 'i3'], phrasings: ['p1', 'p2'], repeats: 2 }, obs, {
      seed: 0,
      streamKey: 'c',
      minCoverage: 0.9,
    });
    expect(m.coverage).toMatchObject({
      expected: 12,
      done: 6,
      failed: 2,
      pending: 4,
      share: 0.5,
      complete: false,
    });
    expect(m.saa).toMatchObject({ value: 1, itemsScored: 1, itemsExcluded: 2 });
  });
});

describe('paraphraseLeaderboard', () => {
  const design = { items: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], phrasings: ['p1', 'p2'], repeats: 1 };
  const model = (label: string, rightItems: number, rows?: Record<string, Record<string, string>>) => {
    const r =
      rows ??
      Object.fromEntries(design.items.map((item, k) => [item, { p1: k < rightItems ? 'A' : 'B', p2: 'A' }]));
    return { label, metrics: paraphraseMetrics(design, table(r), { seed: 1, streamKey: label }) };
  };

  it('ranks complete models by SAA, warns of no overlap (the paired test decides), and leaves incomplete models out of the ranking', () => {
    const strong = model('strong', 8);
    const close = model('close', 7);
    const weak = model('weak', 0);
    const broken = model('broken', 8, Object.fromEntries(design.items.map((i) => [i, { p1: '!', p2: '!' }])));
    const board = paraphraseLeaderboard([weak, broken, close, strong]);
    expect(board.ranked.map((m) => m.label)).toEqual(['strong', 'close', 'weak']);
    expect(board.incomplete.map((m) => m.label)).toEqual(['broken']);
    // Separate intervals that overlap are no test (issue 37.1): the board carries no warning of it.
    expect(Object.keys(board).sort()).toEqual(['incomplete', 'ranked']);
  });

  it('breaks SAA ties by raw accuracy, then by name', () => {
    const m = (label: string, metrics: Partial<ParaphraseModelMetrics>) => {
      const base = model(label, 8).metrics;
      return { label, metrics: { ...base, ...metrics } as ParaphraseModelMetrics };
    };
    const est = (value: number) => ({ value, low: value, high: value, n: 1, over: 'x' });
    const board = paraphraseLeaderboard([
      m('b', { saa: { ...est(0.5), itemsScored: 1, itemsExcluded: 0 }, rawAccuracy: est(0.9) }),
      m('a', { saa: { ...est(0.5), itemsScored: 1, itemsExcluded: 0 }, rawAccuracy: est(0.9) }),
      m('c', { saa: { ...est(0.5), itemsScored: 1, itemsExcluded: 0 }, rawAccuracy: est(0.95) }),
    ]);
    expect(board.ranked.map((x) => x.label)).toEqual(['c', 'a', 'b']);
  });
});

describe('a model that never answers parseably', () => {
  it('has its instability unavailable, with the parse rate, not 0%', () => {
    const never = table({ i1: { p1: '??', p2: '??' }, i2: { p1: '??', p2: '??' } });
    const m = paraphraseMetrics({ ...DESIGN, items: ['i1', 'i2'] }, never, { seed: 0, streamKey: 'm' });
    expect(m.parse).toEqual({ parsed: 0, done: 8, rate: 0 });
    for (const e of [m.runInstability, m.promptInstability]) {
      expect(e.value).toBeUndefined();
      expect(e.unavailable).toBe(
        'no answer was parsed (parse rate 0/8): agreement between answers cannot be measured',
      );
    }
    // One parsed answer is enough for a figure.
    const one = table({ i1: { p1: 'A?', p2: '??' }, i2: { p1: '??', p2: '??' } });
    const m1 = paraphraseMetrics({ ...DESIGN, items: ['i1', 'i2'] }, one, { seed: 0, streamKey: 'm' });
    expect(m1.runInstability.value).toBeGreaterThan(0);
  });
});
