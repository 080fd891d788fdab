/**
 * Next-token distribution arithmetic for the gguf provider: log-probs, entropy and top-k read from
 * the full distribution llama.cpp returns, and a seeded sampler for temperature > 0.
 *
 * llama.cpp hands back float32 probabilities (softmax of the raw logits when sampling greedily),
 * sorted from most to least likely. Sums are taken in float64 and renormalised.
 */
import type { LlamaModel, Token } from 'node-llama-cpp';
import type { TokenLogprob } from './types.js';

/** ln of the smallest positive float32: a probability that underflowed to 0 is reported as at most this likely. */
export const LOGPROB_FLOOR = Math.log(1.401298464324817e-45);

export interface DistributionSummary {
  /** Sum of the probabilities as returned (≈ 1; used to renormalise). */
  total: number;
  /** Shannon entropy in nats. */
  entropy: number;
}

/** Entropy of the full next-token distribution, in one pass: H = ln S - (1/S) Σ p ln p. */
export function summarize(probabilities: ReadonlyMap<number, number>): DistributionSummary {
  let total = 0;
  let plogp = 0;
  for (const p of probabilities.values()) {
    if (p > 0) {
      total += p;
      plogp += p * Math.log(p);
    }
  }
  if (total <= 0) return { total: 0, entropy: 0 };
  // Clamp the tiny negative values float rounding can leave for a one-hot distribution.
  return { total, entropy: Math.max(0, Math.log(total) - plogp / total) };
}

export function logprobOf(probabilities: ReadonlyMap<number, number>, token: number, total: number): number {
  const p = probabilities.get(token) ?? 0;
  if (p <= 0 || total <= 0) return LOGPROB_FLOOR;
  return Math.max(LOGPROB_FLOOR, Math.log(p / total));
}

/** The k most likely tokens with their log-probs (the map is already sorted by probability). */
export function topTokens(
  probabilities: ReadonlyMap<number, number>,
  k: number,
  total: number,
): { token: number; logprob: number }[] {
  const out: { token: number; logprob: number }[] = [];
  if (k <= 0) return out;
  for (const [token, p] of probabilities) {
    out.push({
      token,
      logprob: p > 0 && total > 0 ? Math.max(LOGPROB_FLOOR, Math.log(p / total)) : LOGPROB_FLOOR,
    });
    if (out.length >= k) break;
  }
  return out;
}

/** What a log-prob entry needs from one next-token distribution, however it was read. */
export interface DistributionRead {
  /** Shannon entropy in nats. */
  entropy: number;
  /** Log-prob of the token generated or scored. */
  logprob: number;
  /** The most likely tokens, most likely first. */
  top: { token: number; logprob: number }[];
}

/**
 * Reads node-llama-cpp's distribution (a Map sorted by probability): the token's log-prob is a
 * lookup, the entropy one pass, the top k its first entries.
 */
export function readDistribution(
  probabilities: ReadonlyMap<number, number>,
  token: number,
  topK: number,
): DistributionRead {
  const { total, entropy } = summarize(probabilities);
  return {
    entropy,
    logprob: logprobOf(probabilities, token, total),
    top: topTokens(probabilities, topK, total),
  };
}

/** The log-prob entry of a token, generated or scored, with the texts of it and of its top alternatives. */
export function logprobEntry(
  model: LlamaModel,
  read: DistributionRead,
  token: Token,
  context: Token[],
): TokenLogprob {
  const entry: TokenLogprob = {
    token: model.detokenize([token], false, context),
    logprob: read.logprob,
    entropy: read.entropy,
  };
  if (read.top.length > 0) {
    entry.top = read.top.map((t) => ({
      token: t.token === token ? entry.token : model.detokenize([t.token as Token], false, context),
      logprob: t.logprob,
    }));
  }
  return entry;
}

/** mulberry32: a small, fast, well-mixed 32-bit PRNG; the same seed gives the same draws on every platform. */
export function seededRandom(seed: number): () => number {
  // Fold seeds wider than 32 bits so that e.g. 2**32 and 0 differ.
  let state = (Math.floor(seed) ^ Math.floor(seed / 2 ** 32)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Draws a token from the model's distribution reshaped by temperature (p^(1/T)) and nucleus (top-p)
 * truncation, in the order llama.cpp applies them to sorted candidates. Done here rather than in
 * llama.cpp so that the log-probs reported stay those of the untempered model and the draw depends
 * only on the seed.
 */
export function sampleToken(
  probabilities: ReadonlyMap<number, number>,
  temperature: number,
  topP: number,
  random: () => number,
): number {
  const tokens: number[] = [];
  const weights: number[] = [];
  let maxLog = Number.NEGATIVE_INFINITY;
  for (const [token, p] of probabilities) {
    if (p <= 0) continue;
    const logp = Math.log(p);
    if (logp > maxLog) maxLog = logp;
    tokens.push(token);
    weights.push(logp);
  }
  if (tokens.length === 0) throw new Error('the next-token distribution is empty');
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = Math.exp(((weights[i] as number) - maxLog) / temperature);
    weights[i] = w;
    sum += w;
  }
  // Nucleus: the smallest most-likely prefix whose mass reaches topP (the map is sorted by probability).
  let kept = weights.length;
  if (topP < 1) {
    let cumulative = 0;
    for (let i = 0; i < weights.length; i++) {
      cumulative += (weights[i] as number) / sum;
      if (cumulative >= topP) {
        kept = i + 1;
        break;
      }
    }
  }
  let keptSum = 0;
  for (let i = 0; i < kept; i++) keptSum += weights[i] as number;
  let u = random() * keptSum;
  for (let i = 0; i < kept; i++) {
    u -= weights[i] as number;
    if (u < 0) return tokens[i] as number;
  }
  return tokens[kept - 1] as number;
}
