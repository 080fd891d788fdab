import type { SagoModelRecord } from '../../../protocols/sago/axes.js';
import { SagoConfig } from '../../../protocols/sago/config.js';
import { type SagoManifest, saveManifest } from '../../../protocols/sago/manifest.js';
import { responsesSuite } from '../../../protocols/sago/run.js';
import { ruleVariations } from '../../../protocols/sago/variants.js';
import type { Suite } from '../../../run/types.js';
import type { Store } from '../../../store/store.js';
import { type FakeModel, writeCells } from '../../check/stores.js';

/** The two sago models of sagoStore, as its manifest records them. */
export const SAGO_MODELS: SagoModelRecord[] = [
  {
    label: 'steady',
    identity: 'replay:steady',
    provider: 'replay',
    capabilities: {
      chat: true,
      tokenLogprobs: false,
      topLogprobs: 0,
      fullDistribution: false,
      scoreContinuation: false,
      embeddings: false,
    },
  },
  {
    label: 'fragile',
    identity: 'replay:fragile',
    provider: 'replay',
    capabilities: {
      chat: true,
      tokenLogprobs: false,
      topLogprobs: 0,
      fullDistribution: false,
      scoreContinuation: false,
      embeddings: false,
    },
  },
];

/**
 * Sago: three prompts with rule variations and a manifest. `steady` answers every variant as its
 * baseline (BLEU delta 0); `fragile` changes its answer on every variant (a large BLEU delta).
 * `manifest: false` leaves the manifest out, as a run stopped before writing it would.
 */
export function sagoStore(store: Store, opts: { manifest?: boolean } = {}): Suite {
  const settings = SagoConfig.parse({
    families: ['noise'],
    strengths: { spacing: [5], punctuation: [3], casing: [50] },
  });
  const prompts = ['Why is the sky blue?', 'What is fog?', 'How do tides form?'].map((text, i) => ({
    key: `builtin::q${i}`,
    prompt: { id: `q${i}`, dataset: 'builtin', text, source: { file: 'test' } },
  }));
  const suite = responsesSuite(ruleVariations(prompts, settings, 0));
  const models: FakeModel[] = SAGO_MODELS.map((m) => ({
    label: m.label,
    identity: m.identity,
    answer: () => m.label === 'steady',
  }));
  writeCells(store, suite, models, (test, right) => {
    const variant = test.meta.role === 'variant';
    return variant && !right
      ? 'tides come from the moon pulling water'
      : 'the answer is that air scatters blue light';
  });
  const manifest: SagoManifest = {
    version: 1,
    responsesSuite: suite.hash,
    models: SAGO_MODELS,
    seed: 0,
    minCoverage: 0.9,
    settings: { ...settings, structural: 'rules', axes: ['bleu'] },
    datasets: [{ name: 'builtin', available: 32, n: 3 }],
    rejected: [],
  };
  if (opts.manifest !== false) saveManifest(store, manifest);
  return suite;
}
