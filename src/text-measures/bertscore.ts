/**
 * BERTScore (Zhang et al., 2020) by greedy matching of contextual token embeddings, as
 * `bert_score` computes it without idf weighting and without baseline rescaling:
 * sim[i][j] = cos(candidate_i, reference_j); precision = mean_i max_j sim; recall = mean_j max_i sim;
 * F1 = 2PR / (P + R). In SAGO the candidate is the variant response, the reference the baseline
 * response (docs/method.md#sago). See docs/sago-measures.md#bertscore.
 *
 * The token embeddings must be contextual (one vector per token of the response, computed with
 * the whole response in view). A single pooled vector per text is not BERTScore; compare those
 * with `pooledCosine`, which is reported under its own name, "embedding cosine".
 */

export type Vector = Float32Array | Float64Array | readonly number[];

export interface BertScore {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Greedy-matching BERTScore of a candidate against a reference, each given as its token
 * embeddings. An empty side scores 0 on every figure (bert_score does the same and warns), and
 * F1 is 0 when P + R = 0. A zero token vector has cosine 0 with everything.
 */
export function bertScoreF1(
  candidateTokens: readonly Vector[],
  referenceTokens: readonly Vector[],
): BertScore {
  if (candidateTokens.length === 0 || referenceTokens.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const dim = checkDims(candidateTokens, referenceTokens);
  const cand = candidateTokens.map((v) => normalised(v, dim));
  const ref = referenceTokens.map((v) => normalised(v, dim));
  const rowMax = new Float64Array(cand.length).fill(-Infinity);
  const colMax = new Float64Array(ref.length).fill(-Infinity);
  for (let i = 0; i < cand.length; i++) {
    const a = cand[i] as Float64Array;
    for (let j = 0; j < ref.length; j++) {
      const b = ref[j] as Float64Array;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += (a[k] as number) * (b[k] as number);
      if (dot > (rowMax[i] as number)) rowMax[i] = dot;
      if (dot > (colMax[j] as number)) colMax[j] = dot;
    }
  }
  const precision = mean(rowMax);
  const recall = mean(colMax);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1: Number.isNaN(f1) ? 0 : f1 };
}

/**
 * Cosine of two pooled (one-per-text) embeddings: the "embedding cosine" axis, never called
 * BERTScore. `undefined` when either vector has zero length (the cosine is not defined; a
 * caller shows the value as unavailable rather than 0).
 */
export function pooledCosine(a: Vector, b: Vector): number | undefined {
  if (a.length !== b.length)
    throw new RangeError(`pooledCosine: dimensions differ (${a.length} vs ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < a.length; k++) {
    const x = a[k] as number;
    const y = b[k] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return undefined;
  return dot / Math.sqrt(na * nb);
}

/**
 * Contextual token embeddings from an embedder that only returns the hidden state of the LAST
 * token of its input (a causal decoder with no pooling, e.g. a llama-family GGUF in
 * node-llama-cpp's embedding context): with causal attention the state of token i given the
 * prefix [0..i] is its state in the whole sequence, so one call per prefix gives every token's
 * vector. n calls of growing length (O(n^2) token evaluations); see docs/sago-measures.md#token-embeddings.
 */
export async function tokenEmbeddingsByPrefix<T>(
  tokens: readonly T[],
  embedLastToken: (prefix: readonly T[]) => Promise<Vector>,
): Promise<Vector[]> {
  const out: Vector[] = [];
  for (let i = 1; i <= tokens.length; i++) out.push(await embedLastToken(tokens.slice(0, i)));
  return out;
}

function checkDims(a: readonly Vector[], b: readonly Vector[]): number {
  const dim = (a[0] as Vector).length;
  for (const v of [...a, ...b]) {
    if (v.length !== dim)
      throw new RangeError(`bertScoreF1: token vectors differ in dimension (${v.length} vs ${dim})`);
  }
  return dim;
}

function normalised(v: Vector, dim: number): Float64Array {
  let norm = 0;
  for (let k = 0; k < dim; k++) norm += (v[k] as number) ** 2;
  const out = new Float64Array(dim);
  if (norm === 0) return out;
  const inv = 1 / Math.sqrt(norm);
  for (let k = 0; k < dim; k++) out[k] = (v[k] as number) * inv;
  return out;
}

function mean(xs: Float64Array): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}
