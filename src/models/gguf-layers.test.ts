import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numpyLayerStates, numpyMissing } from '../test-support/models/gguf-forward.js';
import { cosine, layerStatesBuilt, layerStatesMissing } from '../test-support/models/layer-states.js';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';
import { createGgufProvider, type GgufProvider } from './gguf.js';

/**
 * Every layer's hidden state through the patched addon (scripts/gguf-native/layer-states.patch):
 * what SAGO's `activationLayers: mean` averages over (docs/sago.md#activation).
 */

const TEXTS = ['Once upon a time there was a cat.', 'Lily saw a big red ball in the park and she ran'];

describe.skipIf(!tinyModelPath || !layerStatesBuilt)(
  `every layer's hidden state on stories260K (5 layers) ${tinyModelMissing ?? layerStatesMissing}`,
  () => {
    let provider: GgufProvider;
    beforeAll(async () => {
      provider = await createGgufProvider({ modelPath: tinyModelPath as string, chatTemplate: 'raw' });
    });
    afterAll(async () => {
      await provider?.close();
    });

    it('gives L + 1 states per text, the last exactly the final-layer embedding the plain route gives', async () => {
      expect(provider.capabilities.hiddenLayers).toBe(true);
      const all = await provider.embed({ input: TEXTS, layers: 'all' });
      const plain = await provider.embed({ input: TEXTS });
      expect(plain.layerStates).toBeUndefined();
      expect(all.layerStates).toHaveLength(2);
      for (const [i, states] of (all.layerStates ?? []).entries()) {
        expect(states).toHaveLength(6);
        for (const s of states) expect(s).toHaveLength(64);
        // Capturing changes nothing: the same bits as without it.
        expect(states[5]).toEqual(plain.embeddings[i]);
        expect(all.embeddings[i]).toEqual(plain.embeddings[i]);
      }
      // A capture is its own text's: asked alone, the second text gives the same states.
      const alone = await provider.embed({ input: [TEXTS[1] as string], layers: 'all' });
      expect(alone.layerStates?.[0]).toEqual(all.layerStates?.[1]);
      // A text longer than node-llama-cpp's 512-token batch: the states are still its last token's.
      const long = 'The cat sat on the mat. '.repeat(120);
      expect((await provider.tokenize(long)).length).toBeGreaterThan(1000);
      const longAll = await provider.embed({ input: [long], layers: 'all' });
      expect(longAll.layerStates?.[0]).toHaveLength(6);
      expect(longAll.layerStates?.[0]?.[5]).toEqual((await provider.embed({ input: [long] })).embeddings[0]);
    });

    it.skipIf(numpyMissing !== undefined)(
      `each state is the one an independent numpy forward pass gives for that layer ${numpyMissing ?? ''}`,
      async () => {
        for (const text of TEXTS) {
          const states = (await provider.embed({ input: [text], layers: 'all' })).layerStates?.[0] ?? [];
          const expected = numpyLayerStates(tinyModelPath as string, await provider.tokenize(text));
          expect(expected).toHaveLength(states.length);
          for (const [k, state] of states.entries()) {
            const agreement = cosine(state, expected[k] as number[]);
            expect(agreement, `${text}: layer ${k}`).toBeGreaterThan(0.99999);
            // Nearer its own layer than any other: the order is right, not only the values.
            for (const [j, other] of expected.entries())
              if (j !== k)
                expect(cosine(state, other), `${text}: layer ${k} vs ${j}`).toBeLessThan(agreement);
            for (const [j, v] of state.entries())
              expect(Math.abs(v - (expected[k]?.[j] as number))).toBeLessThan(2e-2);
          }
        }
      },
    );
  },
);

describe.skipIf(!tinyModelPath || layerStatesBuilt)(
  `without the layer-states patch ${tinyModelMissing ?? (layerStatesBuilt ? '(skipped: it is built here)' : '')}`,
  () => {
    it('the provider says so, and a request for every layer is refused with the reason', async () => {
      const provider = await createGgufProvider({ modelPath: tinyModelPath as string, chatTemplate: 'raw' });
      try {
        expect(provider.capabilities.hiddenLayers).toBe(false);
        await expect(provider.embed({ input: ['Once upon a time'], layers: 'all' })).rejects.toThrow(
          /needs the patched addon \(npm run build:gguf-native\)/,
        );
        expect((await provider.embed({ input: ['Once upon a time'] })).embeddings[0]).toHaveLength(64);
      } finally {
        await provider.close();
      }
    });
  },
);
