import { describe, expect, it } from 'vitest';
import {
  markerFor,
  perPromptInstability,
  positionAblation,
  type SagoDeltaTable,
  sagoScores,
  sampleSizeAblation,
  sampleSizeDraws,
  strengthAblation,
  type VariationKey,
} from './metrics.js';

const N = Number.NaN;

function variation(
  family: string,
  subtype: string,
  strength: number | string,
  position: string,
): VariationKey {
  return { key: `${family}/${subtype}/${strength}/${position}`, family, subtype, strength, position };
}

/**
 * Two datasets x two prompts x two variations. BLEU deltas (R = 100) and mirroring deltas (R = 1),
 * one BLEU value missing. Expected numbers are worked out by hand below.
 */
const table: SagoDeltaTable = {
  prompts: [
    { dataset: 'A', id: 'a1' },
    { dataset: 'A', id: 'a2' },
    { dataset: 'B', id: 'b1' },
    { dataset: 'B', id: 'b2' },
  ],
  variations: [variation('noise', 'spacing', 5, 'prefix'), variation('noise', 'spacing', 20, 'suffix')],
  deltas: {
    // a1: -50, -30 · a2: -10, missing · b1: 0, -20 · b2: -40, -40
    bleu: Float64Array.from([-50, -30, -10, N, 0, -20, -40, -40]),
    // mirroring: every prompt mirrors on exactly one of its two variants
    mirroring: Float64Array.from([1, 0, 0, -1, 1, 0, 0, 1]),
  },
};

// s(i) by hand: RMS of delta / 100 over the values present.
const sA1 = Math.sqrt((0.25 + 0.09) / 2); // 0.41231...
const sA2 = 0.1; // one value: |-0.1|
const sB1 = Math.sqrt((0 + 0.04) / 2); // 0.14142...
const sB2 = 0.4;

/** Student-t upper tail in closed form: df 1 is the Cauchy, df 3 has an elementary CDF. */
function upperTail(t: number, df: 1 | 3): number {
  if (df === 1) return 0.5 - Math.atan(t) / Math.PI;
  const cdf = 0.5 + (t / (Math.sqrt(3) * (1 + (t * t) / 3)) + Math.atan(t / Math.sqrt(3))) / Math.PI;
  return 1 - cdf;
}

describe('SGS on a hand-computed table', () => {
  it('s(i) is the RMS of the normalised deltas, ignoring missing values', () => {
    const s = perPromptInstability(table, 'bleu', table.deltas.bleu as Float64Array);
    expect([...s]).toEqual([sA1, sA2, sB1, sB2].map((x) => expect.closeTo(x, 12)));
  });

  it('per-dataset and total SGS, sd and one-sided t-tests at every eps', () => {
    const scores = sagoScores(table);
    expect(scores.map((s) => s.scope)).toEqual(['A', 'B', 'total']);
    const [A, , total] = scores;
    const bleuA = A?.axes.bleu;
    expect(bleuA?.n).toBe(2);
    expect(bleuA?.values).toBe(3);
    expect(bleuA?.sgs).toBeCloseTo((sA1 + sA2) / 2, 12);
    const sdA = Math.abs(sA1 - sA2) / Math.sqrt(2);
    expect(bleuA?.sd).toBeCloseTo(sdA, 12);
    // t = (mean - eps) / (sd / sqrt(n)), df = 1.
    for (const [k, eps] of [0.01, 0.05, 0.1].entries()) {
      const t = ((sA1 + sA2) / 2 - eps) / (sdA / Math.sqrt(2));
      expect(bleuA?.tests[k]?.eps).toBe(eps);
      expect(bleuA?.tests[k]?.t).toBeCloseTo(t, 10);
      expect(bleuA?.tests[k]?.p).toBeCloseTo(upperTail(t, 1), 10);
    }
    // Total pools the four prompts: df = 3.
    const xs = [sA1, sA2, sB1, sB2];
    const mean = xs.reduce((a, b) => a + b) / 4;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / 3);
    expect(total?.axes.bleu?.sgs).toBeCloseTo(mean, 12);
    expect(total?.axes.bleu?.sd).toBeCloseTo(sd, 12);
    const t05 = (mean - 0.05) / (sd / 2);
    expect(total?.axes.bleu?.tests[1]?.p).toBeCloseTo(upperTail(t05, 3), 10);
  });

  it('mirroring deltas in {-1, 0, 1}: every prompt has s = sqrt(1/2)', () => {
    const total = sagoScores(table).at(-1);
    expect(total?.axes.mirroring?.sgs).toBeCloseTo(Math.SQRT1_2, 12);
    // Constant s(i) above eps: t = +inf, p = 0.
    expect(total?.axes.mirroring?.tests.every((t) => t.p === 0 && t.t === Number.POSITIVE_INFINITY)).toBe(
      true,
    );
  });

  it('an axis the table lacks stays unavailable: absent, never 0', () => {
    const total = sagoScores(table).at(-1);
    expect(total?.axes.activation).toBeUndefined();
    expect(total?.axes.entropy).toBeUndefined();
    expect(Object.keys(total?.axes ?? {}).sort()).toEqual(['bleu', 'mirroring']);
  });

  it('a dataset with one prompt has an SGS but no t-test, and says why', () => {
    const one: SagoDeltaTable = {
      ...table,
      prompts: table.prompts.map((p, i) => ({ ...p, dataset: i === 0 ? 'solo' : 'rest' })),
    };
    const solo = sagoScores(one).find((s) => s.scope === 'solo');
    expect(solo?.axes.bleu?.sgs).toBeCloseTo(sA1, 12);
    expect(solo?.axes.bleu?.sd).toBeUndefined();
    expect(solo?.axes.bleu?.tests).toEqual([]);
    expect(solo?.axes.bleu?.untested).toMatch(/at least 2 prompts/);
  });

  it('markers: * < .05, ** < .01, † < .001', () => {
    expect([0.2, 0.049, 0.0099, 0.00099].map(markerFor)).toEqual(['', '*', '**', '†']);
  });
});

describe('ablations', () => {
  it('sample size: N = all prompts gives the full-data statistic on every draw; N > prompts is unavailable', () => {
    const draws = sampleSizeDraws(4, [2, 4, 8], 50, 7);
    expect(draws.get(2)).toHaveLength(50);
    expect(draws.has(8)).toBe(false);
    const points = sampleSizeAblation(table, 'bleu', draws, [2, 4, 8]);
    // Group means of |delta|/R over all four prompts: col 0 = (.5 + .1 + 0 + .4)/4, col 1 = (.3 + .2 + .4)/3.
    const g0 = (0.5 + 0.1 + 0 + 0.4) / 4;
    const g1 = (0.3 + 0.2 + 0.4) / 3;
    const sd = Math.abs(g0 - g1) / Math.SQRT2;
    const all = points.find((p) => p.n === 4);
    expect(all?.p10).toBeCloseTo(sd, 12);
    expect(all?.band).toBeCloseTo(0, 12);
    expect(points.find((p) => p.n === 8)?.unavailable).toBe('only 4 prompts');
    const two = points.find((p) => p.n === 2);
    expect(two?.draws).toBe(50);
    expect((two?.band ?? 0) > 0).toBe(true);
    // The same seed draws the same subsets.
    expect(sampleSizeDraws(4, [2], 50, 7).get(2)).toEqual(draws.get(2));
  });

  it('by position and by strength', () => {
    const byPosition = positionAblation(table, 'bleu');
    expect(byPosition.map((p) => p.label)).toEqual(['prefix', 'suffix']);
    // Prefix column only: s(i) = |delta|/100 per prompt -> .5, .1, 0, .4.
    expect(byPosition[0]?.sgs).toBeCloseTo((0.5 + 0.1 + 0 + 0.4) / 4, 12);
    expect(byPosition[1]?.n).toBe(3);
    // One group per slice: no sd across groups.
    expect(byPosition[0]?.groupSd).toBeUndefined();
    const byStrength = strengthAblation(table, 'bleu');
    expect(byStrength).toHaveLength(1);
    expect(byStrength[0]?.slices.map((s) => s.label)).toEqual(['5', '20']);
    expect(byStrength[0]?.slices[1]?.sgs).toBeCloseTo((0.3 + 0.2 + 0.4) / 3, 12);
  });
});
