import { describe, expect, it } from 'vitest';
import { getSharedLlama } from '../models/llama.js';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import { bertScoreF1, pooledCosine, tokenEmbeddingsByPrefix } from './bertscore.js';

describe('bertScoreF1 by greedy matching (hand-computed)', () => {
  it('matches the hand computation on a 3 x 2 similarity matrix', () => {
    // Candidate c1=(1,0) c2=(0,1) c3=(1,1); reference r1=(1,0) r2=(3,4).
    // cos: c1.r1 = 1, c1.r2 = 3/5; c2.r1 = 0, c2.r2 = 4/5; c3.r1 = 1/sqrt2, c3.r2 = 7/(5 sqrt2).
    // Row maxima (precision): 1, 4/5, 7/(5 sqrt2)            -> P = (1.8 + 7/(5 sqrt2)) / 3
    // Column maxima (recall): 1, 7/(5 sqrt2)                 -> R = (1 + 7/(5 sqrt2)) / 2
    const k = 7 / (5 * Math.SQRT2);
    const P = (1.8 + k) / 3;
    const R = (1 + k) / 2;
    const got = bertScoreF1(
      [
        [1, 0],
        [0, 1],
        [1, 1],
      ],
      [new Float32Array([1, 0]), new Float32Array([3, 4])],
    );
    expect(got.precision).toBeCloseTo(P, 12);
    expect(got.recall).toBeCloseTo(R, 12);
    expect(got.f1).toBeCloseTo((2 * P * R) / (P + R), 12);
    expect(got.precision).toBeCloseTo(0.92998316, 7);
    expect(got.recall).toBeCloseTo(0.99497475, 7);
  });

  it('swapping candidate and reference swaps precision and recall', () => {
    const a = [
      [1, 2, 0],
      [0, 1, 1],
    ];
    const b = [
      [2, 1, 0],
      [0, 0, 1],
      [1, 1, 1],
    ];
    const ab = bertScoreF1(a, b);
    const ba = bertScoreF1(b, a);
    expect(ab.precision).toBeCloseTo(ba.recall, 14);
    expect(ab.recall).toBeCloseTo(ba.precision, 14);
    expect(ab.f1).toBeCloseTo(ba.f1, 14);
  });

  it('scores identical token sets 1 and is invariant to vector scale', () => {
    const a = [
      [0.3, -0.2, 0.9],
      [1, 1, -1],
    ];
    expect(bertScoreF1(a, a).f1).toBeCloseTo(1, 14);
    const scaled = a.map((v) => v.map((x) => x * 7));
    expect(bertScoreF1(scaled, a).f1).toBeCloseTo(1, 14);
  });

  it('uses the best match, not the aligned position (greedy matching)', () => {
    // Reversed order of the same tokens still matches perfectly.
    const a = [
      [1, 0],
      [0, 1],
    ];
    expect(bertScoreF1(a, [...a].reverse()).f1).toBeCloseTo(1, 14);
  });

  it('anti-aligned tokens give negative precision and recall; P + R = 0 gives F1 0', () => {
    const got = bertScoreF1([[1, 0]], [[-1, 0]]);
    expect(got.precision).toBe(-1);
    expect(got.recall).toBe(-1);
    expect(got.f1).toBe(-1); // 2 * 1 / -2
    const zero = bertScoreF1([[1, 0]], [[0, 1]]);
    expect(zero).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('scores an empty side 0 (as bert_score does) and refuses mixed dimensions', () => {
    expect(bertScoreF1([], [[1, 0]])).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(bertScoreF1([[1, 0]], [])).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(() => bertScoreF1([[1, 0]], [[1, 0, 0]])).toThrow(RangeError);
  });
});

describe('pooledCosine ("embedding cosine", not BERTScore)', () => {
  it('is the cosine of the two vectors', () => {
    expect(pooledCosine([1, 0], [3, 4])).toBeCloseTo(0.6, 14);
    expect(pooledCosine(new Float32Array([1, 2, 3]), [1, 2, 3])).toBeCloseTo(1, 7);
    expect(pooledCosine([1, 0], [-2, 0])).toBe(-1);
  });

  it('is undefined (unavailable, not 0) for a zero vector and refuses mixed dimensions', () => {
    expect(pooledCosine([0, 0], [1, 2])).toBeUndefined();
    expect(() => pooledCosine([1], [1, 2])).toThrow(RangeError);
  });
});

describe.skipIf(!tinyModelPath)(
  `per-token embeddings from node-llama-cpp's embedding context by prefixes${tinyModelMissing ? ` (${tinyModelMissing})` : ''}`,
  () => {
    it('gives one contextual vector per token of the tiny GGUF, the last equal to the whole-text embedding', async () => {
      const llama = await getSharedLlama();
      const model = await llama.loadModel({ modelPath: tinyModelPath as string });
      const context = await model.createEmbeddingContext({ contextSize: 128, threads: 1 });
      try {
        // The prefix trick needs a causal model whose embedding is its last input token's state:
        // stories260K is llama (causal), no pooling metadata, and its tokenizer appends no EOS.
        expect(model.tokens.shouldAppendEosToken).toBe(false);
        const tokens = model.tokenize('Once upon a time there was a little girl');
        const perToken = await tokenEmbeddingsByPrefix(
          tokens,
          async (prefix) => (await context.getEmbeddingFor([...prefix])).vector,
        );
        expect(perToken).toHaveLength(tokens.length);
        const whole = (await context.getEmbeddingFor(tokens)).vector;
        expect(Array.from(perToken.at(-1) as readonly number[])).toEqual(Array.from(whole));
        // Token states differ from one another, and the text matches itself exactly.
        expect(pooledCosine(perToken[0] as readonly number[], perToken[1] as readonly number[])).toBeLessThan(
          0.999,
        );
        expect(bertScoreF1(perToken, perToken).f1).toBeCloseTo(1, 12);
        const other = model.tokenize('The dog ran to the park');
        const otherTokens = await tokenEmbeddingsByPrefix(
          other,
          async (p) => (await context.getEmbeddingFor([...p])).vector,
        );
        const cross = bertScoreF1(otherTokens, perToken);
        expect(cross.f1).toBeLessThan(1);
        expect(Number.isFinite(cross.f1)).toBe(true);
      } finally {
        await context.dispose();
        await model.dispose();
      }
    });
  },
);
