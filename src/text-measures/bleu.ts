/**
 * BLEU exactly as sacrebleu 2.6.0 computes it with its defaults: 13a tokenizer, case-sensitive,
 * `exp` smoothing (mteval's: each zero-match order gets 1 / (2^k * total)), max order 4, score 0-100.
 *
 * Two modes (docs/method.md#sago; docs/sago-measures.md#bleu):
 * - `sentence`: `sacrebleu.sentence_bleu(hyp, refs)`, effective order on, so an identical short
 *   reply scores 100. waver's default.
 * - `sago-reference`: `sacrebleu.corpus_bleu([hyp], [[ref]])` on the single pair, as the SAGO
 *   reference code scored each (variant, baseline) pair: no effective order, so a reply of under
 *   four tokens has a zero 4-gram precision and scores 0 even when identical.
 */
import { tokens13a } from './tokenize-13a.js';

export const MAX_NGRAM_ORDER = 4;

export type BleuMode = 'sentence' | 'sago-reference';

export interface BleuScore {
  /** 0-100. */
  score: number;
  /** Brevity penalty. */
  bp: number;
  /** Clipped n-gram matches, n = 1..4. */
  counts: number[];
  /** Hypothesis n-grams, n = 1..4. */
  totals: number[];
  /** Per-order precisions in percent (0 for orders past a break, as sacrebleu leaves them). */
  precisions: number[];
  /** Hypothesis length in tokens. */
  sysLen: number;
  /** Closest reference length in tokens (ties to the shorter). */
  refLen: number;
}

/** sacrebleu's `sentence_bleu(hyp, refs)` with its defaults (effective order on). */
export function sentenceBleu(hyp: string, refs: readonly string[]): BleuScore {
  return bleuFromStats(bleuStats(hyp, refs), true);
}

/**
 * The SAGO reference code's per-pair score: `corpus_bleu([hyp], [[ref]])`, no effective order.
 * Replies under four tokens score 0 even when identical to the reference.
 */
export function corpusBleuPerPair(hyp: string, ref: string): BleuScore {
  return bleuFromStats(bleuStats(hyp, [ref]), false);
}

/** Score one (variant response, baseline response) pair in the chosen mode. */
export function bleuPair(hyp: string, ref: string, mode: BleuMode = 'sentence'): BleuScore {
  return mode === 'sentence' ? sentenceBleu(hyp, [ref]) : corpusBleuPerPair(hyp, ref);
}

/** Sufficient statistics of one segment (sacrebleu's `[sys_len, ref_len, *correct, *total]`). */
export interface BleuStats {
  sysLen: number;
  refLen: number;
  counts: number[];
  totals: number[];
}

/** `BLEU._compute_segment_statistics` after 13a-tokenizing the hypothesis and references. */
export function bleuStats(hyp: string, refs: readonly string[]): BleuStats {
  if (refs.length === 0) throw new RangeError('BLEU needs at least one reference');
  // Reference n-grams: the max count of each n-gram over the references, one map per order.
  let refNgrams: Map<string, number>[] | undefined;
  const refLens: number[] = [];
  for (const ref of refs) {
    const tokens = tokens13a(ref);
    refLens.push(tokens.length);
    const these = countNgrams(tokens);
    if (!refNgrams) {
      refNgrams = these;
      continue;
    }
    these.forEach((counts, n) => {
      const merged = (refNgrams as Map<string, number>[])[n] as Map<string, number>;
      for (const [ngram, count] of counts) {
        if (count > (merged.get(ngram) ?? 0)) merged.set(ngram, count);
      }
    });
  }
  const hypTokens = tokens13a(hyp);
  const counts = new Array<number>(MAX_NGRAM_ORDER).fill(0);
  const totals = new Array<number>(MAX_NGRAM_ORDER).fill(0);
  countNgrams(hypTokens).forEach((hypCounts, n) => {
    const refCounts = (refNgrams as Map<string, number>[])[n] as Map<string, number>;
    for (const [ngram, count] of hypCounts) {
      totals[n] = (totals[n] as number) + count;
      const refCount = refCounts.get(ngram);
      if (refCount !== undefined) counts[n] = (counts[n] as number) + Math.min(count, refCount);
    }
  });
  const sysLen = hypTokens.length;
  return { sysLen, refLen: closestRefLen(sysLen, refLens), counts, totals };
}

/**
 * N-gram counts per order (index n-1). A space never occurs inside a token (tokens come from a
 * whitespace split), so it can join the tokens of an n-gram into one key; keys grow one token at
 * a time from each start position.
 */
function countNgrams(tokens: readonly string[]): Map<string, number>[] {
  const out = Array.from({ length: MAX_NGRAM_ORDER }, () => new Map<string, number>());
  for (let i = 0; i < tokens.length; i++) {
    let key = tokens[i] as string;
    for (let n = 0; n < MAX_NGRAM_ORDER && i + n < tokens.length; n++) {
      if (n > 0) key += ` ${tokens[i + n] as string}`;
      const map = out[n] as Map<string, number>;
      map.set(key, (map.get(key) ?? 0) + 1);
    }
  }
  return out;
}

/** `BLEU._get_closest_ref_len`: the reference length closest to the hypothesis, ties to the shorter. */
function closestRefLen(hypLen: number, refLens: readonly number[]): number {
  let closestDiff = -1;
  let closestLen = -1;
  for (const refLen of refLens) {
    const diff = Math.abs(hypLen - refLen);
    if (closestDiff === -1 || diff < closestDiff) {
      closestDiff = diff;
      closestLen = refLen;
    } else if (diff === closestDiff && refLen < closestLen) {
      closestLen = refLen;
    }
  }
  return closestLen;
}

/** sacrebleu's `my_log`: log floored to -9999999999 at zero (which drives the score to 0). */
function myLog(x: number): number {
  return x === 0 ? -9999999999 : Math.log(x);
}

/** `BLEU.compute_bleu` with smooth_method='exp', max order 4. */
export function bleuFromStats(stats: BleuStats, effectiveOrder: boolean): BleuScore {
  const { sysLen, refLen } = stats;
  const counts = stats.counts.slice();
  const totals = stats.totals.slice();
  let bp = 1.0;
  if (sysLen < refLen) bp = sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0.0;
  const precisions = new Array<number>(MAX_NGRAM_ORDER).fill(0);
  // sacrebleu returns early with 0 when nothing matches (its issue #141).
  if (!counts.some((c) => c !== 0)) return { score: 0, bp, counts, totals, precisions, sysLen, refLen };

  let smoothMteval = 1.0;
  let effOrder = MAX_NGRAM_ORDER;
  for (let n = 1; n <= MAX_NGRAM_ORDER; n++) {
    const total = totals[n - 1] as number;
    const correct = counts[n - 1] as number;
    if (total === 0) break;
    if (effectiveOrder) effOrder = n;
    if (correct === 0) {
      smoothMteval *= 2;
      precisions[n - 1] = 100 / (smoothMteval * total);
    } else {
      precisions[n - 1] = (100 * correct) / total;
    }
  }
  // Python's sum() adds left to right from 0; the same order keeps the rounding the same.
  let sum = 0;
  for (let i = 0; i < effOrder; i++) sum += myLog(precisions[i] as number);
  const score = bp * Math.exp(sum / effOrder);
  return { score, bp, counts, totals, precisions, sysLen, refLen };
}
