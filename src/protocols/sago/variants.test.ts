import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { createProvider } from '../../models/registry.js';
import { toModelSpec } from '../../models/spec.js';
import type { ModelProvider } from '../../models/types.js';
import { auxCount } from '../../run/aux-cache.js';
import { openStore, type Store } from '../../store/store.js';
import { tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { CONFIG } from '../index.js';
import type { SagoModelRecord } from './axes.js';
import { SagoConfig } from './config.js';
import { sutConfig } from './run.js';
import {
  checkStrengthSettings,
  filterMeaning,
  keyOf,
  type PromptVariants,
  ruleVariations,
  type SagoPrompt,
} from './variants.js';

const prompts: SagoPrompt[] = ['Why is the sky blue?', 'What causes tides?', 'Name a prime number.'].map(
  (text, i) => ({
    key: `builtin::q${i}`,
    prompt: { id: `q${i}`, dataset: 'builtin', text, source: { file: 'test' } },
  }),
);

describe('the rule-based variation set', () => {
  it('is the full set V by default: register 31, noise 45, structural 7', () => {
    const [first] = ruleVariations(prompts, SagoConfig.parse({}), 0);
    const byFamily = (f: string) => first?.variants.filter((v) => v.family === f).length;
    expect([byFamily('register'), byFamily('noise'), byFamily('structural')]).toEqual([31, 45, 7]);
    expect(new Set(first?.variants.map(keyOf)).size).toBe(83);
  });

  it('the closed-model subset, families and strengths narrow it', () => {
    const [closed] = ruleVariations(
      prompts,
      SagoConfig.parse({ closedModelSubset: true, families: ['register'] }),
      0,
    );
    expect([...new Set(closed?.variants.map((v) => v.strength))]).toEqual([-10, -6, -2, 0, 2, 6, 10]);
    const [some] = ruleVariations(
      prompts,
      SagoConfig.parse({ families: ['noise'], strengths: { spacing: [1, 5], casing: [100] } }),
      0,
    );
    const strengths = (subtype: string) => [
      ...new Set(some?.variants.filter((v) => v.subtype === subtype).map((v) => v.strength)),
    ];
    expect(strengths('spacing')).toEqual([1, 5]);
    expect(strengths('casing')).toEqual([100]);
    expect(strengths('punctuation')).toEqual([1, 3, 5, 10, 20]);
  });

  it('--variations N samples N keys once, shared by every prompt, reproducibly', () => {
    const settings = SagoConfig.parse({ variations: 5 });
    const sets = ruleVariations(prompts, settings, 3);
    const keys = sets.map((s) => s.variants.map(keyOf).join('|'));
    expect(sets[0]?.variants).toHaveLength(5);
    expect(new Set(keys).size).toBe(1);
    expect(ruleVariations(prompts, settings, 3).map((s) => s.variants.map(keyOf).join('|'))).toEqual(keys);
  });

  it('a strength outside a family range, or an unknown subtype, is an input error naming it', () => {
    expect(() => checkStrengthSettings({ strengths: { length: [4] } })).toThrow(
      /strength 4 is outside the structural family's length range \(allowed: 0.25, 0.5, 1.5, 2, 3\)/,
    );
    expect(() => checkStrengthSettings({ strengths: { politeness: [3] } })).toThrow(InputError);
    expect(() => checkStrengthSettings({ strengths: { shouting: [1] } })).toThrow(
      /unknown variation subtype "shouting"/,
    );
  });
});

describe('SUT params per capability', () => {
  const config = CONFIG.validate({
    models: ['openai:m@http://127.0.0.1:1/v1', 'anthropic:c', 'gguf:./x.gguf'],
  });
  const settings = SagoConfig.parse({});
  const caps = { chat: true, scoreContinuation: false, embeddings: false };
  const model = (label: string, extra: Partial<SagoModelRecord['capabilities']>): SagoModelRecord => ({
    label,
    identity: label,
    provider: label.split(':')[0] as SagoModelRecord['provider'],
    capabilities: { ...caps, tokenLogprobs: false, topLogprobs: 0, fullDistribution: false, ...extra },
  });
  it('asks for log-probs where the provider gives them, and top-k only without a full distribution', () => {
    const api = sutConfig(
      config,
      model('openai:m@http://127.0.0.1:1/v1', { tokenLogprobs: true, topLogprobs: 20 }),
      settings,
    );
    expect(api.params).toMatchObject({ logprobs: true, topLogprobs: 20 });
    expect(api.models).toHaveLength(1);
    expect(api.repeats).toBe(1);
    const local = sutConfig(
      config,
      model('gguf:./x.gguf', { tokenLogprobs: true, topLogprobs: 20, fullDistribution: true }),
      settings,
    );
    expect(local.params.logprobs).toBe(true);
    expect(local.params.topLogprobs).toBeUndefined();
    expect(sutConfig(config, model('anthropic:c', {}), settings).params.logprobs).toBe(false);
  });

  it("caps a call at sago.maxTokens, else the run's params.maxTokens, else 256 (the authors' 100 with reference: true)", () => {
    const m = model('anthropic:c', {});
    expect(sutConfig(config, m, settings).params.maxTokens).toBe(256);
    const params = { ...config, params: { ...config.params, maxTokens: 64 } };
    expect(sutConfig(params, m, settings).params.maxTokens).toBe(64);
    expect(sutConfig(params, m, SagoConfig.parse({ reference: true })).params.maxTokens).toBe(64);
    expect(sutConfig(config, m, SagoConfig.parse({ reference: true })).params.maxTokens).toBe(100);
    expect(sutConfig(config, m, SagoConfig.parse({ reference: true, maxTokens: 300 })).params.maxTokens).toBe(
      300,
    );
  });
});

const withModel = tinyModelPath ? describe : describe.skip;

withModel(`the meaning filter with the tiny GGUF as embedder ${tinyModelMissing ?? ''}`, () => {
  let embedder: ModelProvider;
  let store: Store;
  beforeAll(async () => {
    embedder = await createProvider(toModelSpec(`gguf:${tinyModelPath}`));
    store = openStore(':memory:');
  });
  afterAll(async () => {
    store.close();
    await embedder.close?.();
  });

  const sets = (): PromptVariants[] =>
    ruleVariations(
      prompts.slice(0, 2),
      SagoConfig.parse({
        families: ['register', 'noise'],
        strengths: { politeness: [0, -10, 10], spacing: [5], punctuation: [3], casing: [50] },
      }),
      0,
    );

  it('checks register variants by BERTScore of word-prefix states, keeps noise by construction, records every verdict', async () => {
    const s = sets();
    const settings = SagoConfig.parse({ meaningFilter: { bertscore: 0.85 } });
    await filterMeaning(s, settings, { store, embedder, embedderLabel: 'tiny', tokenLevel: true });
    for (const set of s) {
      for (const v of set.variants) {
        if (v.family === 'noise' || v.strength === 0)
          expect(v.meaningCheck).toEqual({ method: 'by-construction' });
        else
          expect(v.meaningCheck).toMatchObject({
            method: 'bertscore',
            embedder: 'tiny',
            threshold: 0.85,
            passed: true,
          });
      }
      for (const r of set.rejected) {
        expect(r.reason).toMatch(/^meaning filter: bertscore 0\.\d{4} <= 0\.85 \(tiny\)$/);
        expect(r.variation.meaningCheck).toMatchObject({ method: 'bertscore', passed: false });
      }
      // 6 register variants (+/-10 at three positions) were checked: kept + dropped.
      const checked =
        set.variants.filter((v) => v.meaningCheck?.method === 'bertscore').length + set.rejected.length;
      expect(checked).toBe(6);
    }
    expect(auxCount(store, { kind: 'embed' })).toBeGreaterThan(0);
  });

  it('pooled cosine has its own name and threshold; the prompt scope drops all checked variants of a failing prompt', async () => {
    const s = sets();
    // A threshold no variant can pass: every checked variant fails.
    await filterMeaning(s, SagoConfig.parse({ meaningFilter: { cosine: 1, scope: 'prompt' } }), {
      store,
      embedder,
      embedderLabel: 'tiny',
      tokenLevel: false,
    });
    for (const set of s) {
      expect(set.variants.every((v) => v.meaningCheck?.method === 'by-construction')).toBe(true);
      expect(set.rejected).toHaveLength(6);
      expect(set.rejected[0]?.variation.meaningCheck).toMatchObject({
        method: 'embedding-cosine',
        threshold: 1,
      });
    }
  });

  it('without an embedder the check is recorded as not run and the variant kept', async () => {
    const s = sets();
    await filterMeaning(s, SagoConfig.parse({}), { store, tokenLevel: false });
    const register = s[0]?.variants.filter((v) => v.family === 'register' && v.strength !== 0) ?? [];
    expect(register).toHaveLength(6);
    for (const v of register)
      expect(v.meaningCheck).toEqual({ method: 'unchecked', reason: 'no embedder configured' });
  });
});
