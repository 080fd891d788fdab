/**
 * Student t distribution and the one-sample t-test (SAGO's one-sided tests). The CDF is computed
 * through the regularized incomplete beta function with a Lentz continued fraction, always
 * evaluating the smaller tail directly, so tiny p-values keep their relative accuracy (~1e-12)
 * instead of being lost to `1 - cdf`.
 */

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITERATIONS = 100_000;
const HALF_LN_2PI = 0.5 * Math.log(2 * Math.PI);

/** lnΓ(x) - Stirling's main terms, for x >= 10 (the asymptotic series is exact to double there). */
function stirlingCorrection(x: number): number {
  const r = 1 / x;
  const r2 = r * r;
  return (
    r *
    (1 / 12 +
      r2 *
        (-1 / 360 + r2 * (1 / 1260 + r2 * (-1 / 1680 + r2 * (1 / 1188 + r2 * (-691 / 360360 + r2 / 156))))))
  );
}

/** ln Γ(x) for x > 0: shift small arguments up to 10, then Stirling with its correction series. */
export function lnGamma(x: number): number {
  if (!(x > 0)) return Number.NaN;
  let shift = 0;
  let product = 1;
  while (x < 10) {
    product *= x;
    x += 1;
    shift += 1;
  }
  const stirling = (x - 0.5) * Math.log(x) - x + HALF_LN_2PI + stirlingCorrection(x);
  return shift === 0 ? stirling : stirling - Math.log(product);
}

/**
 * ln B(a, b). When one argument is large, lnΓ(big) - lnΓ(big + small) is written as a difference
 * of Stirling forms so the two huge lnΓ values never cancel (df = 100000 would otherwise lose
 * ~6 digits).
 */
export function lnBeta(a: number, b: number): number {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  if (hi < 10) return lnGamma(lo) + lnGamma(hi) - lnGamma(lo + hi);
  const ratio =
    -lo * Math.log(hi) -
    (hi + lo - 0.5) * Math.log1p(lo / hi) +
    lo +
    stirlingCorrection(hi) -
    stirlingCorrection(hi + lo);
  return lnGamma(lo) + ratio;
}

/** Continued fraction for I_x(a, b) (modified Lentz), converging fast when x < (a+1)/(a+b+2). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) return h;
  }
  return h; // not reached for the t distribution's arguments; the last convergent is the best we have
}

/**
 * The regularized incomplete beta I_x(a, b) and its complement 1 - I_x(a, b), each computed
 * directly when it is the small side. `x` and `y = 1 - x` are passed separately so callers can
 * compute both without cancellation; `lnX`/`lnY` likewise.
 */
function incompleteBetaPair(
  a: number,
  b: number,
  x: number,
  y: number,
  lnX: number,
  lnY: number,
): { lower: number; upper: number } {
  if (x <= 0) return { lower: 0, upper: 1 };
  if (y <= 0) return { lower: 1, upper: 0 };
  const lnFront = a * lnX + b * lnY - lnBeta(a, b);
  if (x < (a + 1) / (a + b + 2)) {
    const lower = (Math.exp(lnFront) * betaContinuedFraction(a, b, x)) / a;
    return { lower, upper: 1 - lower };
  }
  const upper = (Math.exp(lnFront) * betaContinuedFraction(b, a, y)) / b;
  return { lower: 1 - upper, upper };
}

/** P(T <= t) for T ~ Student t with `df` > 0 degrees of freedom (df need not be an integer). */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0) || !Number.isFinite(df)) return Number.NaN;
  if (t === 0) return 0.5;
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  // Both tails equal 0.5 * I_x(df/2, 1/2) with x = df / (df + t²); y = t² / (df + t²).
  const t2 = t * t;
  const x = df / (df + t2);
  const y = t2 / (df + t2);
  const lnX = -Math.log1p(t2 / df);
  const lnY = -Math.log1p(df / t2);
  const { lower, upper } = incompleteBetaPair(df / 2, 0.5, x, y, lnX, lnY);
  const tail = 0.5 * lower;
  // For t > 0 the cdf is 1 - tail = 0.5 + 0.5 * upper, which keeps precision near t = 0.
  return t < 0 ? tail : 0.5 + 0.5 * upper;
}

/** P(T > t), computed as the lower tail at -t so small upper tails stay accurate. */
/** The t quantile: the t with P(T <= t) = p, by bisection on the CDF (to ~1e-12). */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a quantile needs p in (0, 1), got ${p}`);
  let lo = -1;
  let hi = 1;
  while (studentTCdf(lo, df) > p) lo *= 2;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export function studentTSf(t: number, df: number): number {
  return studentTCdf(-t, df);
}

export type TTestAlternative = 'greater' | 'less' | 'two-sided';

export interface OneSampleTTest {
  t: number;
  df: number;
  p: number;
  n: number;
  mean: number;
}

/**
 * One-sample t-test of H0: mean = mu0, as scipy's `ttest_1samp(xs, mu0, alternative=...)`
 * (sample standard deviation with n - 1).
 *
 * Returns undefined when n < 2 (no variance estimate). When every value is identical (zero
 * variance) scipy gives t = ±inf or nan; we return t = ±Infinity with the limiting p (for
 * 'greater': 0 when mean > mu0, 1 when mean < mu0; mirrored for 'less'; 0 for 'two-sided'),
 * and undefined when mean == mu0, where no test is defined. Non-finite inputs give undefined.
 */
export function oneSampleTTest(
  xs: readonly number[],
  mu0: number,
  alternative: TTestAlternative,
): OneSampleTTest | undefined {
  const n = xs.length;
  if (n < 2 || !Number.isFinite(mu0) || xs.some((x) => !Number.isFinite(x))) return undefined;
  const df = n - 1;
  const first = xs[0] as number;
  if (xs.every((x) => x === first)) {
    // Exactly constant data: checked directly so rounding in the mean cannot fake a variance.
    if (first === mu0) return undefined;
    const t = first > mu0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    return { t, df, p: pValue(t, df, alternative), n, mean: first };
  }
  const mean = neumaierSum(xs) / n;
  let ss = 0;
  for (const x of xs) ss += (x - mean) * (x - mean);
  const sd = Math.sqrt(ss / df);
  const t = (mean - mu0) / (sd / Math.sqrt(n));
  return { t, df, p: pValue(t, df, alternative), n, mean };
}

function pValue(t: number, df: number, alternative: TTestAlternative): number {
  if (alternative === 'greater') return studentTCdf(-t, df);
  if (alternative === 'less') return studentTCdf(t, df);
  return Math.min(1, 2 * studentTCdf(-Math.abs(t), df));
}

/** Compensated sum, so the mean does not depend on the order values were stored in. */
function neumaierSum(xs: readonly number[]): number {
  let sum = 0;
  let c = 0;
  for (const x of xs) {
    const s = sum + x;
    c += Math.abs(sum) >= Math.abs(x) ? sum - s + x : x - s + sum;
    sum = s;
  }
  return sum + c;
}

/**
 * The t interval of a mean from its sample sd over n units: mean ± t(n-1) sd / sqrt(n), two-sided
 * at `confidence`; undefined below 2 units (no sd). SAGO's SGS is such a mean over prompts.
 */
export function tInterval(
  mean: number,
  sd: number | undefined,
  n: number,
  confidence = 0.95,
): { low: number; high: number } | undefined {
  if (sd === undefined || n < 2) return undefined;
  const half = (studentTQuantile(1 - (1 - confidence) / 2, n - 1) * sd) / Math.sqrt(n);
  return { low: mean - half, high: mean + half };
}
