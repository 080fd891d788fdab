/**
 * What node-llama-cpp's addon rebuilt with waver's patches (`npm run build:gguf-native`) reads in
 * place. The fast read of the next-token distribution (logit-summary.patch, docs/decisions.md E30)
 * summarises the logits of the last decode, entropy, the token's log-prob and the top k, into one
 * Float64Array; the public route hands the whole distribution to JS one number at a time (E23).
 * Every layer's hidden state (layer-states.patch, docs/sago.md#activation) is what SAGO's activation
 * axis averages over; node-llama-cpp itself gives the final layer's only. Present only where the
 * patched addon was built; without it the provider reads log-probs the public way and has no
 * layer states.
 */
import type { LlamaContext, LlamaEmbeddingContext, Token } from 'node-llama-cpp';
import { type DistributionRead, LOGPROB_FLOOR } from './gguf-sampling.js';

/** The methods the patches add to node-llama-cpp's native context (scripts/gguf-native/*.patch). */
interface PatchedNativeContext {
  logitSummary(token: number, out: Float64Array, index?: number): number;
  /** layer-states.patch, on an embedding context: capture the hidden states of the decodes that follow. */
  setLayerCapture?(on: boolean): void;
  /** The last decode's last-token states in Hugging Face's order, or null when one was not seen. */
  takeLayerStates?(): Float64Array[] | null;
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

/**
 * The hidden states of a text's last token after every layer, as Hugging Face's
 * `output_hidden_states` lists them for a decoder of L layers: the token embedding, the output of
 * layers 1..L-1, and the last layer's output after the final norm (the state the embedding context
 * returns), L + 1 vectors (scripts/gguf-native/layer-states.patch). `evaluate` runs one evaluation
 * of the embedding context; nothing else may evaluate in it meanwhile.
 */
export type LayerStatesReader = (evaluate: () => Promise<unknown>) => Promise<number[][] | undefined>;

/** A reader over an embedding context's evaluations, or undefined without the layer-states patch. */
export function layerStatesReader(embedding: LlamaEmbeddingContext): LayerStatesReader | undefined {
  // `_llamaContext` is node-llama-cpp's context under its embedding context (internal, stable across 3.x).
  const context = (embedding as unknown as { _llamaContext?: LlamaContext })._llamaContext;
  const native = context && nativeContext(context);
  const capture = native?.setLayerCapture?.bind(native);
  const take = native?.takeLayerStates?.bind(native);
  if (!capture || !take) return undefined;
  return async (evaluate) => {
    capture(true);
    try {
      await evaluate();
      return take()?.map((state) => Array.from(state));
    } finally {
      capture(false);
    }
  };
}

/** Whether the loaded binding has the layer-states patch (any context of it tells). */
export function hasLayerStates(context: LlamaContext): boolean {
  return typeof nativeContext(context)?.setLayerCapture === 'function';
}

function nativeContext(context: LlamaContext): PatchedNativeContext | undefined {
  // `_ctx` is node-llama-cpp's handle on the native context (internal, stable across 3.x).
  const native = (context as unknown as { _ctx?: Partial<PatchedNativeContext> })._ctx;
  return typeof native?.logitSummary === 'function' ? (native as PatchedNativeContext) : undefined;
}
