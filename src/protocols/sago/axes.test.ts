import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { axisStatuses, checkRequestedAxes, type SagoModelRecord } from './axes.js';
import { SagoConfig } from './config.js';

/** The activation axis' availability by `activationLayers` and what the model gives (docs/sago.md#activation). */
describe('the activation axis', () => {
  const gguf = (hiddenLayers: boolean | undefined): SagoModelRecord => ({
    label: 'gguf:tiny.gguf',
    identity: 'gguf:tiny.gguf#x',
    provider: 'gguf',
    capabilities: {
      chat: true,
      tokenLogprobs: true,
      topLogprobs: 20,
      fullDistribution: true,
      scoreContinuation: true,
      embeddings: true,
      ...(hiddenLayers !== undefined && { hiddenLayers }),
    },
  });
  const ctx = (activationLayers?: 'final' | 'mean') => ({
    settings: SagoConfig.parse(activationLayers ? { activationLayers } : {}),
  });

  it('is the final layer by default, also under reference: true, without the patched addon', () => {
    expect(SagoConfig.parse({}).activationLayers).toBe('final');
    expect(SagoConfig.parse({ reference: true }).activationLayers).toBe('final');
    const a = axisStatuses(gguf(undefined), ctx()).activation;
    expect(a).toMatchObject({ available: true });
    expect(a.method).toMatch(/final-layer hidden state/);
  });

  it('mean: available where the model gives every layer, else unavailable saying why, never 0', () => {
    expect(axisStatuses(gguf(true), ctx('mean')).activation.method).toMatch(
      /mean over the L \+ 1 hidden states/,
    );
    for (const caps of [false, undefined]) {
      const a = axisStatuses(gguf(caps), ctx('mean')).activation;
      expect(a.available).toBe(false);
      expect(a.reason).toMatch(/only the patched gguf addon gives \(npm run build:gguf-native\)/);
    }
    // Asked for explicitly, a model that cannot give it is an input error before any call.
    expect(() =>
      checkRequestedAxes([gguf(false)], {
        settings: SagoConfig.parse({ activationLayers: 'mean', axes: ['activation'] }),
      }),
    ).toThrow(InputError);
  });
});
