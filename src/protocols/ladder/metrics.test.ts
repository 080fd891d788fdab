import { describe, expect, it } from 'vitest';
import { clusterBootstrap } from '../../stats/bootstrap.js';
import { deriveSeed, PyRandom } from '../../util/random.js';
import { type LadderObservation, ladderMetrics } from './metrics.js';
import type { Family, KbType, Level } from './types.js';

function obs(
  seedId: string,
  family: Family | 'baseline',
  level: Level | 0 | undefined,
  magnitude: number,
  score: number | undefined,
  extra: Partial<LadderObservation> = {},
): LadderObservation {
  return { seedId, family, level, magnitude, score, ...extra };
}
const kb = (seedId: string, kbType: KbType, level: Level, magnitude: number, score: number | undefined) =>
  obs(seedId, 'KB', level, magnitude, score, { kbType });

// A hand-computed fixture: two seeds, A and B.
const FIXTURE: LadderObservation[] = [
  // Baseline x3: A 1,1,1; B 1,1,0 -> acc(L0) = 5/6, tau = 0.8 x 5/6 = 2/3.
  obs('A', 'baseline', 0, 0, 1),
  obs('A', 'baseline', 0, 0, 1),
  obs('A', 'baseline', 0, 0, 1),
  obs('B', 'baseline', 0, 0, 1),
  obs('B', 'baseline', 0, 0, 1),
  obs('B', 'baseline', 0, 0, 0),
  // SV: L1 both right; L2 A right, B's call failed (wrong in Accuracy, left out of Stability); L3..L5 no tests.
  obs('A', 'SV', 1, 0.1, 1),
  obs('B', 'SV', 1, 0.1, 1),
  obs('A', 'SV', 2, 0.2, 1),
  obs('B', 'SV', 2, 0.3, 0, { error: true }),
  // IQ: L1 two tests of magnitude 0 (Stability unavailable there), L4 one right: never collapses.
  obs('A', 'IQ', 1, 0, 1),
  obs('B', 'IQ', 1, 0, 1),
  obs('A', 'IQ', 4, 0.2, 1),
  // KB: L1 missing information scored 1 and 0.75; L5 impossible premise scored 0 and one unscored.
  kb('A', 'missing-information', 1, 0.5, 1),
  kb('B', 'missing-information', 1, 0.5, 0.75),
  kb('A', 'impossible-premise', 5, 0.6, 0),
  kb('B', 'impossible-premise', 5, 0.6, undefined),
];

describe('ladderMetrics on a hand-computed fixture', () => {
  const m = ladderMetrics(FIXTURE, { seed: 7 });
  const fam = (f: Family) => m.families.find((x) => x.family === f);

  it('computes the baseline accuracy acc(L0) from the three repeats per seed', () => {
    expect(m.baseline.n).toBe(6);
    expect(m.baseline.seeds).toBe(2);
    expect(m.baseline.accuracy.value).toBeCloseTo(5 / 6, 12);
    expect(m.baseline.stability.value).toBeUndefined();
    expect(m.baseline.stability.unavailable).toBe('sum of magnitudes is 0');
  });

  it('computes Accuracy, Magnitude and Stability per family x measured level, errors wrong in Accuracy and absent from Stability', () => {
    const sv = fam('SV');
    expect(sv?.levels[1]).toMatchObject({ n: 2, scored: 2, errors: 0, seeds: 2 });
    expect(sv?.levels[1].accuracy.value).toBe(1);
    expect(sv?.levels[1].magnitude.value).toBeCloseTo(0.1, 12);
    expect(sv?.levels[1].stability.value).toBeCloseTo(1, 12);
    expect(sv?.levels[2]).toMatchObject({ n: 2, errors: 1 });
    expect(sv?.levels[2].accuracy.value).toBe(0.5);
    expect(sv?.levels[2].magnitude.value).toBeCloseTo(0.25, 12);
    // Stability = sum(score x magnitude) / sum(magnitude) over answered responses: 0.2 / 0.2 (the
    // failed call has no output to compare, so it is left out, as in the reference code).
    expect(sv?.levels[2].stability.value).toBeCloseTo(1, 12);
    // All SV pooled: accuracy 3/4, magnitude 0.7/4, stability 0.4/0.4.
    expect(sv?.overall.accuracy.value).toBe(0.75);
    expect(sv?.overall.magnitude.value).toBeCloseTo(0.175, 12);
    expect(sv?.overall.stability.value).toBeCloseTo(1, 12);
  });

  it('marks a level with no tests unavailable, never 0', () => {
    const l3 = fam('SV')?.levels[3];
    expect(l3?.n).toBe(0);
    for (const metric of [l3?.accuracy, l3?.magnitude, l3?.stability]) {
      expect(metric?.value).toBeUndefined();
      expect(metric?.low).toBeUndefined();
      expect(metric?.unavailable).toBe('no tests');
    }
    expect(fam('F')?.overall.accuracy.unavailable).toBe('no tests');
    expect(m.byLevel[3].accuracy.unavailable).toBe('no tests');
  });

  it('marks Stability unavailable when the sum of magnitudes is 0 (accuracy still computed)', () => {
    const l1 = fam('IQ')?.levels[1];
    expect(l1?.accuracy.value).toBe(1);
    expect(l1?.stability.value).toBeUndefined();
    expect(l1?.stability.unavailable).toBe('sum of magnitudes is 0');
  });

  it('finds Collapse Points: SV at L2, KB at L5, IQ never ("—")', () => {
    const sv = fam('SV')?.collapse;
    expect(sv?.status).toBe('collapsed');
    expect(sv?.level).toBe(2);
    expect(sv?.threshold).toBeCloseTo(2 / 3, 12);
    expect(fam('KB')?.collapse).toMatchObject({ status: 'collapsed', level: 5 });
    expect(fam('IQ')?.collapse.status).toBe('never');
    expect(fam('IQ')?.collapse.level).toBeUndefined();
    // A family without tests has no Collapse Point to find.
    expect(fam('CL')?.collapse).toMatchObject({ status: 'unavailable', reason: 'no tests' });
  });

  it('scores KB as the mean rubric score, with the recognise share, per boundary type; unscored responses are left out', () => {
    const missing = m.kbByType.find((t) => t.kbType === 'missing-information');
    expect(missing).toMatchObject({ level: 1, n: 2, scored: 2 });
    expect(missing?.accuracy.value).toBe(0.875);
    expect(missing?.recognise?.value).toBe(1);
    const impossible = m.kbByType.find((t) => t.kbType === 'impossible-premise');
    expect(impossible).toMatchObject({ level: 5, n: 2, scored: 1 });
    expect(impossible?.accuracy.value).toBe(0);
    expect(impossible?.recognise?.value).toBe(0);
    // Magnitude is a property of the test: the unscored one still counts there.
    expect(impossible?.magnitude.value).toBeCloseTo(0.6, 12);
    const evidence = m.kbByType.find((t) => t.kbType === 'fabricated-evidence');
    expect(evidence?.accuracy.unavailable).toBe('no tests');
    // KB Stability over scored responses: (0.5 + 0.375 + 0) / (0.5 + 0.5 + 0.6).
    expect(fam('KB')?.overall.stability.value).toBeCloseTo(0.875 / 1.6, 12);
  });

  it('aggregates accuracy by measured level over every family (L0 = baseline)', () => {
    expect(m.byLevel[0].accuracy.value).toBeCloseTo(5 / 6, 12);
    expect(m.byLevel[1].n).toBe(6);
    expect(m.byLevel[1].accuracy.value).toBeCloseTo(5.75 / 6, 12);
    expect(m.byLevel[2].accuracy.value).toBe(0.5);
    expect(m.byLevel[4].accuracy.value).toBe(1);
    expect(m.byLevel[5]).toMatchObject({ n: 2, scored: 1 });
    expect(m.byLevel[5].accuracy.value).toBe(0);
  });

  it('places families in quadrants: x = family mean magnitude (threshold: their mean), y = Stability (0.80)', () => {
    const xSv = 0.175;
    const xIq = 0.2 / 3;
    const xKb = 2.2 / 4;
    expect(m.quadrant.xThreshold).toBeCloseTo((xSv + xIq + xKb) / 3, 12);
    expect(m.quadrant.yThreshold).toBe(0.8);
    const at = (f: Family) => m.quadrant.points.find((p) => p.family === f);
    expect(at('SV')).toMatchObject({ quadrant: 'stable', y: 1 });
    expect(at('SV')?.x).toBeCloseTo(xSv, 12);
    expect(at('IQ')).toMatchObject({ quadrant: 'stable', y: 1 });
    expect(at('KB')).toMatchObject({ quadrant: 'failure' });
    expect(at('F')?.quadrant).toBeUndefined();
    expect(at('F')?.unavailable).toBe('no tests');
  });

  it('gives CIs that bracket their estimates and a CP distribution that sums to 1', () => {
    for (const f of m.families) {
      for (const s of [f.overall, ...Object.values(f.levels)]) {
        for (const iv of [s.accuracy, s.magnitude, s.stability]) {
          if (iv.value === undefined || iv.low === undefined || iv.high === undefined) continue;
          expect(iv.low).toBeLessThanOrEqual(iv.high);
        }
      }
      const total = f.collapse.distribution.reduce((a, d) => a + d.share, 0);
      expect(total).toBeCloseTo(1, 12);
    }
  });
});

describe('the seed bootstrap', () => {
  it("draws the resamples of clusterBootstrap (Python's rng.choices over seeds): the SV Collapse Point distribution, exactly", () => {
    const seed = 11;
    const m = ladderMetrics(FIXTURE, { seed, resamples: 500 });
    // Recount by hand: seeds are clusters [A, B]; AA never collapses, BB collapses at L2
    // (acc(L0) = 2/3, tau = 0.533, B's SV L2 is wrong), AB and BA are the full data (L2).
    const rng = new PyRandom(deriveSeed(seed, 'ladder-metrics'));
    let never = 0;
    for (let b = 0; b < 500; b++) {
      const i = Math.floor(rng.random() * 2);
      const j = Math.floor(rng.random() * 2);
      if (i === 0 && j === 0) never++;
    }
    const sv = m.families.find((f) => f.family === 'SV')?.collapse;
    expect(sv?.resamples).toBe(500);
    expect(sv?.distribution).toEqual([
      { value: 'L2', share: (500 - never) / 500 },
      { value: 'never', share: never / 500 },
    ]);
  });

  it('matches a plain per-set clusterBootstrap over seeds on random data', () => {
    const rng = new PyRandom(3);
    const data: LadderObservation[] = [];
    for (let s = 0; s < 30; s++) {
      for (let r = 0; r < 3; r++) data.push(obs(`s${s}`, 'baseline', 0, 0, rng.random() < 0.8 ? 1 : 0));
      for (const k of [1, 2, 3] as Level[]) {
        if (rng.random() < 0.2) continue; // some seeds lack some levels
        data.push(obs(`s${s}`, 'CI', k, Math.round(rng.random() * 1e4) / 1e4, rng.random() < 0.7 ? 1 : 0));
      }
    }
    const m = ladderMetrics(data, { seed: 5, resamples: 400 });
    // The reference: clusters are all seeds (each with its responses), the statistic the set's figure.
    const bySeed = new Map<string, LadderObservation[]>();
    for (const o of data) bySeed.set(o.seedId, [...(bySeed.get(o.seedId) ?? []), o]);
    const clusters = [...bySeed.values()];
    const inCell = (o: LadderObservation) => o.family === 'CI' && o.level === 2;
    const accuracy = (sample: readonly LadderObservation[][]) => {
      const xs = sample.flat().filter(inCell);
      return xs.length === 0 ? undefined : xs.reduce((a, o) => a + (o.score ?? 0), 0) / xs.length;
    };
    const stability = (sample: readonly LadderObservation[][]) => {
      const xs = sample.flat().filter(inCell);
      const den = xs.reduce((a, o) => a + o.magnitude, 0);
      return den === 0 ? undefined : xs.reduce((a, o) => a + (o.score ?? 0) * o.magnitude, 0) / den;
    };
    const opts = { seed: deriveSeed(5, 'ladder-metrics'), resamples: 400 };
    const refAcc = clusterBootstrap(clusters, accuracy, opts);
    const refStab = clusterBootstrap(clusters, stability, opts);
    const cell = m.families.find((f) => f.family === 'CI')?.levels[2];
    expect(cell?.accuracy.value).toBeCloseTo(refAcc.estimate as number, 12);
    expect(cell?.accuracy.low).toBeCloseTo(refAcc.low as number, 12);
    expect(cell?.accuracy.high).toBeCloseTo(refAcc.high as number, 12);
    expect(cell?.stability.low).toBeCloseTo(refStab.low as number, 12);
    expect(cell?.stability.high).toBeCloseTo(refStab.high as number, 12);
    // Same seed, same data: the same numbers.
    expect(ladderMetrics(data, { seed: 5, resamples: 400 })).toEqual(m);
  });
});

describe("the reference code's quadrant and Collapse Point (quadrant / collapse: 'reference')", () => {
  it('plots mean Sim over the answered responses, with the baseline a point at x = 0 in the x threshold', () => {
    const m = ladderMetrics(FIXTURE, { seed: 7, resamples: 20, quadrant: 'reference' });
    expect(m.quadrant.mode).toBe('reference');
    const at = (f: Family) => m.quadrant.points.find((p) => p.family === f);
    // SV answered: 0.1, 0.1, 0.2 all right (the failed call is dropped, as pandas' dropna does).
    expect(at('SV')?.x).toBeCloseTo(0.4 / 3, 12);
    expect(at('SV')?.y).toBe(1);
    // IQ: 0, 0, 0.2 all right; KB scored: 1, 0.75, 0 at 0.5, 0.5, 0.6 (the unscored one dropped).
    expect(at('IQ')?.x).toBeCloseTo(0.2 / 3, 12);
    expect(at('KB')?.x).toBeCloseTo(1.6 / 3, 12);
    expect(at('KB')?.y).toBeCloseTo(1.75 / 3, 12);
    expect(m.quadrant.baseline).toEqual({ x: 0, y: 5 / 6 });
    expect(m.quadrant.xThreshold).toBeCloseTo((0.4 / 3 + 0.2 / 3 + 1.6 / 3 + 0) / 4, 12);
    expect(at('KB')?.quadrant).toBe('failure');
    // The default is the paper's: y = Stability, no baseline point.
    expect(ladderMetrics(FIXTURE, { seed: 7, resamples: 20 }).quadrant.baseline).toBeUndefined();
  });

  it('takes acc(L0) = 1 without a baseline, where waver leaves the Collapse Point unavailable', () => {
    const data = [obs('A', 'SV', 1, 0.1, 1), obs('B', 'SV', 2, 0.2, 0)];
    const waver = ladderMetrics(data, { seed: 1, resamples: 20 });
    expect(waver.families.find((f) => f.family === 'SV')?.collapse.status).toBe('unavailable');
    const reference = ladderMetrics(data, { seed: 1, resamples: 20, collapse: 'reference' });
    expect(reference.baseline.accuracy.value).toBeUndefined();
    expect(reference.families.find((f) => f.family === 'SV')?.collapse).toMatchObject({
      status: 'collapsed',
      level: 2,
      threshold: 0.8,
    });
  });

  it('compares floats exactly, so a tie within floating noise collapses, and acc(L0) = 0 never collapses', () => {
    const data: LadderObservation[] = [];
    for (let i = 0; i < 10; i++) data.push(obs(`s${i}`, 'baseline', 0, 0, i < 9 ? 1 : 0));
    for (let i = 0; i < 25; i++) data.push(obs(`s${i % 10}`, 'F', 1, 0.02, i < 18 ? 1 : 0));
    const m = ladderMetrics(data, { seed: 1, resamples: 20, collapse: 'reference' });
    // 0.72 < 0.8 * 0.9 = 0.7200000000000001, as pandas computes it.
    expect(m.families.find((f) => f.family === 'F')?.collapse).toMatchObject({
      status: 'collapsed',
      level: 1,
    });
    const zero = ladderMetrics([obs('A', 'baseline', 0, 0, 0), obs('A', 'SV', 1, 0.1, 0)], {
      seed: 1,
      resamples: 20,
      collapse: 'reference',
    });
    expect(zero.families.find((f) => f.family === 'SV')?.collapse.status).toBe('never');
  });
});

describe('ladderMetrics edge cases', () => {
  it('a set whose every call failed: accuracy 0, Stability unavailable', () => {
    const m = ladderMetrics([obs('A', 'SV', 1, 0.1, 0, { error: true })], { seed: 1, resamples: 20 });
    const l1 = m.families.find((f) => f.family === 'SV')?.levels[1];
    expect(l1).toMatchObject({ n: 1, scored: 1, errors: 1 });
    expect(l1?.accuracy.value).toBe(0);
    expect(l1?.stability).toMatchObject({ value: undefined, unavailable: 'every call failed' });
  });

  it('acc(L0) = 0: every Collapse Point is unavailable, not a collapse at L1', () => {
    const m = ladderMetrics(
      [
        obs('A', 'baseline', 0, 0, 0),
        obs('B', 'baseline', 0, 0, 0),
        obs('A', 'SV', 1, 0.1, 0),
        obs('B', 'SV', 1, 0.1, 1),
      ],
      { seed: 1, resamples: 50 },
    );
    const sv = m.families.find((f) => f.family === 'SV')?.collapse;
    expect(sv?.status).toBe('unavailable');
    expect(sv?.reason).toMatch(/acc\(L0\) = 0/);
    expect(sv?.distribution).toEqual([{ value: 'unavailable', share: 1 }]);
  });

  it('no baseline: acc(L0) and the Collapse Points are unavailable', () => {
    const m = ladderMetrics([obs('A', 'SV', 1, 0.1, 1)], { seed: 1, resamples: 20 });
    expect(m.baseline.accuracy.unavailable).toBe('no tests');
    expect(m.families.find((f) => f.family === 'SV')?.collapse.reason).toMatch(/no baseline/);
  });

  it('KB without a judge: accuracy and recognise share unavailable, never 0', () => {
    const m = ladderMetrics(
      [obs('A', 'baseline', 0, 0, 1), kb('A', 'fabricated-entity', 4, 0.3, undefined)],
      { seed: 1, resamples: 20 },
    );
    const k = m.families.find((f) => f.family === 'KB');
    expect(k?.overall.n).toBe(1);
    expect(k?.overall.scored).toBe(0);
    expect(k?.overall.accuracy.value).toBeUndefined();
    expect(k?.overall.accuracy.unavailable).toMatch(/no judge verdicts/);
    expect(k?.overall.recognise?.unavailable).toMatch(/no judge verdicts/);
    expect(k?.overall.magnitude.value).toBeCloseTo(0.3, 12);
    expect(k?.collapse.status).toBe('unavailable');
  });

  it('a tie at the threshold is not a collapse (strict <, floating noise ignored)', () => {
    // acc(L0) = 0.9 and acc(L1) = 0.72 = 0.8 x 0.9 exactly, though 0.8 * 0.9 is 0.7200000000000001 in floats.
    const data: LadderObservation[] = [];
    for (let i = 0; i < 10; i++) data.push(obs(`s${i}`, 'baseline', 0, 0, i < 9 ? 1 : 0));
    for (let i = 0; i < 25; i++) data.push(obs(`s${i % 10}`, 'F', 1, 0.02, i < 18 ? 1 : 0));
    const m = ladderMetrics(data, { seed: 1, resamples: 20 });
    expect(m.families.find((f) => f.family === 'F')?.collapse.status).toBe('never');
  });

  it('no observations at all: everything unavailable, nothing thrown', () => {
    const m = ladderMetrics([], { seed: 1 });
    expect(m.baseline.accuracy.value).toBeUndefined();
    expect(m.families.every((f) => f.collapse.status === 'unavailable' && f.collapse.resamples === 0)).toBe(
      true,
    );
    expect(m.quadrant.xThreshold).toBeUndefined();
  });
});

describe('the reference modes of Accuracy and Stability (docs/fidelity.md L14, L25)', () => {
  const base = [1, 1, 1, 1].map((s, i) => obs(`S${i}`, 'baseline', 0, 0, s));
  // KB L3 scored [1, 1, .75, .75]: the mean rubric score 0.875 stays above 0.8 x acc(L0) = 0.8, but the
  // reference counts a score correct at >= 0.80 (run_sut_model.py:127): 2/4 = 0.5 < 0.8, a collapse at L3.
  const scores = [1, 1, 0.75, 0.75];
  const kbAt3 = (reference: boolean) =>
    scores.map((s, i) => ({
      ...kb(`S${i}`, 'not-yet-knowable', 3, 0.4, s),
      ...(reference && { correct: s >= 0.8 ? 1 : 0 }),
    }));

  it('KB accuracy and Collapse Point count a score >= 0.80 correct when told to; Stability keeps the score', () => {
    const waver = ladderMetrics([...base, ...kbAt3(false)], { seed: 1, resamples: 50 });
    const reference = ladderMetrics([...base, ...kbAt3(true)], { seed: 1, resamples: 50 });
    const family = (m: typeof waver) => m.families.find((f) => f.family === 'KB');
    expect(family(waver)?.collapse.status).toBe('never');
    expect(family(waver)?.levels[3].accuracy.value).toBe(0.875);
    expect(family(reference)?.collapse).toMatchObject({ status: 'collapsed', level: 3 });
    expect(family(reference)?.levels[3].accuracy.value).toBe(0.5);
    // The reference's Table 4 weighs the continuous Sim: (1 + 1 + .75 + .75) x 0.4 / (4 x 0.4).
    expect(family(reference)?.overall.stability.value).toBeCloseTo(0.875, 12);
  });

  it("stability: reference makes a zero-magnitude set's Stability its mean answered score (Table 4's Baseline row)", () => {
    // Baseline: four answered [1, 1, 1, 0] and a failed call. acc(L0) = 3/5 (the failed call is wrong);
    // the reference's Baseline row is the mean Sim with the failed call dropped: 3/4 (results_crossmodel.ipynb:841).
    const rows = [
      ...[1, 1, 1, 0].map((s, i) => obs(`S${i}`, 'baseline', 0, 0, s)),
      obs('S4', 'baseline', 0, 0, 0, { error: true }),
    ];
    const waver = ladderMetrics(rows, { seed: 1, resamples: 50 });
    const reference = ladderMetrics(rows, { seed: 1, resamples: 50, stability: 'reference' });
    expect(waver.baseline.accuracy.value).toBe(0.6);
    expect(waver.baseline.stability).toMatchObject({
      value: undefined,
      unavailable: 'sum of magnitudes is 0',
    });
    expect(reference.baseline.accuracy.value).toBe(0.6);
    expect(reference.baseline.stability.value).toBe(0.75);
  });
});
