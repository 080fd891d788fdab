import { createHash } from 'node:crypto';

/**
 * An exact port of CPython's `random.Random` (MT19937) for integer seeds, so that a sampling
 * decision made by waver can be replayed with `python3 -c "import random; random.Random(seed)..."`
 * and so that the reference implementations' Python code draws the same values.
 *
 * Matches CPython 3.11 for: seeding with an int (abs value split into 32-bit little-endian words,
 * `init_by_array`), `random()`, `getrandbits`, `_randbelow` (getrandbits rejection), `randrange`,
 * `randint`, `choice`, `choices` (no weights), `shuffle` and `sample`.
 */

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;
const LOG4 = Math.log(4);
const SG_MAGICCONST = 1 + Math.log(4.5);

export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private mti = N + 1;

  /** `seed` must be an integer (a safe-integer number or a bigint); negative seeds use abs, as CPython does. */
  constructor(seed: number | bigint) {
    this.seed(seed);
  }

  seed(seed: number | bigint): void {
    let n: bigint;
    if (typeof seed === 'bigint') n = seed;
    else {
      if (!Number.isSafeInteger(seed)) {
        // CPython hashes non-int seeds; we only port the int path, so refuse rather than differ.
        throw new RangeError(`PyRandom seed must be a safe integer or a bigint, got ${seed}`);
      }
      n = BigInt(seed);
    }
    if (n < 0n) n = -n;
    const key: number[] = [];
    while (n > 0n) {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    }
    if (key.length === 0) key.push(0);
    this.initByArray(key);
  }

  /**
   * numpy's legacy `np.random.RandomState(seed)` for an int seed in [0, 2^32): the same MT19937
   * seeded by `init_genrand(seed)` (numpy's `_legacy_seeding`), not CPython's `init_by_array`.
   * Draw from it with `numpyRandbelow`; PromptEval's sampling design is written with it.
   */
  static numpyLegacy(seed: number): PyRandom {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`numpy RandomState seed must be an integer in [0, 2^32), got ${seed}`);
    }
    const r = new PyRandom(0);
    r.initGenrand(seed);
    return r;
  }

  /**
   * numpy's legacy `RandomState.randint(0, n)` (so `choice` of a list of n): masked rejection on
   * 32-bit words, `(word & mask) > n - 1` rejected; n = 1 draws no word. For n up to 2^32.
   */
  numpyRandbelow(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > 4294967296)
      throw new RangeError(`numpyRandbelow needs an integer in [1, 2^32], got ${n}`);
    const max = n - 1;
    if (max === 0) return 0;
    const mask = max >= 0x80000000 ? 0xffffffff : 2 ** bitLength(max) - 1;
    let r = (this.nextUint32() & mask) >>> 0;
    while (r > max) r = (this.nextUint32() & mask) >>> 0;
    return r;
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] as number;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    this.mti = N;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] as number;
      mt[i] = ((mt[i] as number) ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + (key[j] as number) + j;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] as number;
      mt[i] = ((mt[i] as number) ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.mti = N;
  }

  /** The next raw 32-bit output of MT19937 (CPython's `genrand_uint32`). */
  nextUint32(): number {
    const mt = this.mt;
    if (this.mti >= N) {
      let kk = 0;
      for (; kk < N - M; kk++) {
        const y = ((mt[kk] as number) & UPPER_MASK) | ((mt[kk + 1] as number) & LOWER_MASK);
        mt[kk] = (mt[kk + M] as number) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      for (; kk < N - 1; kk++) {
        const y = ((mt[kk] as number) & UPPER_MASK) | ((mt[kk + 1] as number) & LOWER_MASK);
        mt[kk] = (mt[kk + (M - N)] as number) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      const y = ((mt[N - 1] as number) & UPPER_MASK) | ((mt[0] as number) & LOWER_MASK);
      mt[N - 1] = (mt[M - 1] as number) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A float in [0, 1) with 53 random bits: (a>>5, b>>6) as in CPython's `random_random`. */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `k` random bits as a non-negative bigint; words are consumed least significant first, as CPython does. */
  getrandbits(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new RangeError('number of bits must be non-negative');
    if (k <= 32) return BigInt(this.bitsUpTo32(k));
    let result = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32) {
      let r = this.nextUint32();
      if (left < 32) r >>>= 32 - left;
      result |= BigInt(r) << shift;
      shift += 32n;
    }
    return result;
  }

  private bitsUpTo32(k: number): number {
    if (k === 0) return 0;
    return this.nextUint32() >>> (32 - k);
  }

  /** Up to 53 bits as a number, consuming exactly the words `getrandbits(k)` would. */
  private bitsNumber(k: number): number {
    if (k <= 32) return this.bitsUpTo32(k);
    const low = this.nextUint32();
    const high = this.nextUint32() >>> (64 - k);
    return high * 4294967296 + low;
  }

  /**
   * CPython's `_randbelow_with_getrandbits(n)`: an integer in [0, n), drawn by rejection on
   * `n.bit_length()` bits (so n = 1 still consumes a word). Exposed because shuffles and
   * bootstraps call it in tight loops; n must be a positive safe integer.
   */
  randbelow(n: number): number {
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new RangeError(`randbelow needs a positive integer, got ${n}`);
    const k = bitLength(n);
    let r = this.bitsNumber(k);
    while (r >= n) r = this.bitsNumber(k);
    return r;
  }

  /** CPython 3.11 `randrange(start, stop=None, step=1)` for integer arguments. */
  randrange(start: number, stop?: number, step = 1): number {
    for (const v of [start, stop ?? 0, step]) {
      if (!Number.isSafeInteger(v)) throw new RangeError(`randrange needs integers, got ${v}`);
    }
    if (stop === undefined) {
      if (step !== 1) throw new TypeError('Missing a non-None stop argument');
      if (start > 0) return this.randbelow(start);
      throw new RangeError('empty range for randrange()');
    }
    const width = stop - start;
    if (step === 1) {
      if (width > 0) return start + this.randbelow(width);
      throw new RangeError(`empty range for randrange() (${start}, ${stop}, ${width})`);
    }
    let n: number;
    if (step > 0) n = Math.floor((width + step - 1) / step);
    else if (step < 0) n = Math.floor((width + step + 1) / step);
    else throw new RangeError('zero step for randrange()');
    if (n <= 0) throw new RangeError('empty range for randrange()');
    return start + step * this.randbelow(n);
  }

  /** An integer in [a, b], both included. */
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }

  choice<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new RangeError('Cannot choose from an empty sequence');
    return xs[this.randbelow(xs.length)] as T;
  }

  /**
   * CPython 3.11 `gammavariate(alpha, beta)`: Cheng's rejection for alpha > 1, the exponential at
   * alpha = 1, Ahrens-Dieter GS below (so a draw consumes the same words as CPython's).
   */
  gammavariate(alpha: number, beta: number): number {
    if (!(alpha > 0 && beta > 0)) throw new RangeError('gammavariate: alpha and beta must be > 0.0');
    if (alpha > 1) {
      const ainv = Math.sqrt(2 * alpha - 1);
      const bbb = alpha - LOG4;
      const ccc = alpha + ainv;
      for (;;) {
        const u1 = this.random();
        if (!(u1 > 1e-7 && u1 < 0.9999999)) continue;
        const u2 = 1 - this.random();
        const v = Math.log(u1 / (1 - u1)) / ainv;
        const x = alpha * Math.exp(v);
        const z = u1 * u1 * u2;
        const r = bbb + ccc * v - x;
        if (r + SG_MAGICCONST - 4.5 * z >= 0 || r >= Math.log(z)) return x * beta;
      }
    }
    if (alpha === 1) return -Math.log(1 - this.random()) * beta;
    for (;;) {
      const u = this.random();
      const b = (Math.E + alpha) / Math.E;
      const p = b * u;
      const x = p <= 1 ? p ** (1 / alpha) : -Math.log((b - p) / alpha);
      const u1 = this.random();
      if (p > 1 ? u1 <= x ** (alpha - 1) : u1 <= Math.exp(-x)) return x * beta;
    }
  }

  /** CPython 3.11 `betavariate(alpha, beta)`: a ratio of two gamma draws. */
  betavariate(alpha: number, beta: number): number {
    const y = this.gammavariate(alpha, 1);
    return y === 0 ? 0 : y / (y + this.gammavariate(beta, 1));
  }

  /** `k` picks with replacement, CPython's unweighted path: `floor(random() * n)`. */
  choices<T>(xs: readonly T[], k: number): T[] {
    const n = xs.length;
    if (n === 0 && k > 0) throw new RangeError('Cannot choose from an empty population');
    const out: T[] = new Array(k);
    for (let i = 0; i < k; i++) out[i] = xs[Math.floor(this.random() * n)] as T;
    return out;
  }

  /** In-place Fisher-Yates from the end, as CPython's `shuffle`. */
  shuffle<T>(xs: T[]): void {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const tmp = xs[i] as T;
      xs[i] = xs[j] as T;
      xs[j] = tmp;
    }
  }

  /**
   * `k` distinct picks without replacement, CPython's `sample`: a pool swap when the population
   * is small relative to the set a selection would need, rejection from a set otherwise. The
   * branch decides which words are drawn, so it must be the same rule.
   */
  sample<T>(xs: readonly T[], k: number): T[] {
    const n = xs.length;
    if (!Number.isInteger(k) || k < 0 || k > n) {
      throw new RangeError('Sample larger than population or is negative');
    }
    const result: T[] = new Array(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = xs.slice();
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j] as T;
        pool[j] = pool[n - i - 1] as T;
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = xs[j] as T;
      }
    }
    return result;
  }
}

function bitLength(n: number): number {
  if (n < 4294967296) return 32 - Math.clz32(n);
  return 32 + bitLength(Math.floor(n / 4294967296));
}

/**
 * A seed for `PyRandom` derived from labelled parts (e.g. suite seed, item id, family, level,
 * attempt), so every random decision has its own stream and adding an item does not shift the
 * draws of the others. Defined as the first 4 bytes of sha256(JSON.stringify(parts)) read as a
 * big-endian unsigned 32-bit integer; in Python:
 * `int.from_bytes(hashlib.sha256(json.dumps(parts, separators=(",", ":")).encode()).digest()[:4], "big")`
 * (identical for strings and integers; JSON.stringify writes non-ASCII as-is, so pass `ensure_ascii=False`).
 */
export function deriveSeed(...parts: (string | number)[]): number {
  return createHash('sha256').update(JSON.stringify(parts)).digest().readUInt32BE(0);
}
