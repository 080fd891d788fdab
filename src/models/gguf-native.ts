/**
 * The fast read of the next-token distribution: node-llama-cpp's addon rebuilt with waver's
 * logit-summary patch (`npm run build:gguf-native`, docs/decisions.md E30) summarises the logits of
 * the last decode in place, entropy, the token's log-prob and the top k, into one Float64Array. The
 * public route hands the whole distribution to JS one number at a time (E23). Present only where
 * the patched addon was built; the provider falls back to the public route without it.
 */
import type { LlamaContext, Token } from 'node-llama-cpp';
import { type DistributionRead, LOGPROB_FLOOR } from './gguf-sampling.js';

/** The method the patch adds to node-llama-cpp's native context (scripts/gguf-native/logit-summary.patch). */
interface PatchedNativeContext {
  logitSummary(token: number, out: Float64Array, index?: number): number;
}

/**
 * Reads a distribution the last decode left in the context, for `token` and the top `topK`: at
 * batch position `index`, by default the last output.
 */
export type LogitSummaryReader = (token: Token, topK: number, index?: number) => DistributionRead;

/**
 * A reader over the context's last decode, or undefined on node-llama-cpp's own binary. The batch
 * is node-llama-cpp's: the last output is the request's only where one sequence decodes, and a
 * position is the token's only where the whole input went in one batch.
 */
export function logitSummaryReader(context: LlamaContext): LogitSummaryReader | undefined {
  const native = nativeContext(context);
  if (!native) return undefined;
  const buffers = new Map<number, Float64Array>();
  return (token, topK, index = -1) => {
    let out = buffers.get(topK);
    if (!out) {
      out = new Float64Array(2 + 2 * topK);
      buffers.set(topK, out);
    }
    const filled = native.logitSummary(token, out, index);
    const top: DistributionRead['top'] = [];
    for (let j = 0; j < filled; j++)
      top.push({ token: out[2 + j] as number, logprob: floored(out[2 + topK + j] as number) });
    // As readDistribution: no negative entropy from rounding, no log-prob below float32's smallest.
    return { entropy: Math.max(0, out[0] as number), logprob: floored(out[1] as number), top };
  };
}

function floored(logprob: number): number {
  return Math.max(LOGPROB_FLOOR, logprob);
}

function nativeContext(context: LlamaContext): PatchedNativeContext | undefined {
  // `_ctx` is node-llama-cpp's handle on the native context (internal, stable across 3.x).
  const native = (context as unknown as { _ctx?: Partial<PatchedNativeContext> })._ctx;
  return typeof native?.logitSummary === 'function' ? (native as PatchedNativeContext) : undefined;
}
