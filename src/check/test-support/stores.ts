import { validateConfig } from '../../config/load.js';
import type { GenerateResult } from '../../models/types.js';
import { ladderSuite } from '../../protocols/ladder/run.js';
import { ladderTestId } from '../../protocols/ladder/suite-file.js';
import type { Family, LadderTest, Level } from '../../protocols/ladder/types.js';
import { BUILTIN_MC_ITEMS } from '../../protocols/paraphrase/data/builtin-items.js';
import { buildParaphraseSuite, type ParaphraseTestMeta } from '../../protocols/paraphrase/suite.js';
import type { SagoModelRecord } from '../../protocols/sago/axes.js';
import { SagoConfig } from '../../protocols/sago/config.js';
import { type SagoManifest, saveManifest } from '../../protocols/sago/manifest.js';
import { responsesSuite } from '../../protocols/sago/run.js';
import { ruleVariations } from '../../protocols/sago/variants.js';
import { cacheKey } from '../../run/cache-key.js';
import { requestFor } from '../../run/plan.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import type { CellWrite, Store } from '../../store/store.js';

/**
 * Stores built through the Store API the way the protocols write them (suite names, test meta,
 * cells keyed by identity), with answers chosen by the test: the check gate's inputs without a
 * model. Replies are what a model would send (`#### 42`, a letter), scored by the real loaders.
 */

export interface FakeModel {
  label: string;
  identity: string;
  /** Whether this model answers the test right (a failed call when it returns 'fail'). */
  answer: (test: SuiteTest, repeat: number) => boolean | 'fail';
}

const PARAMS = validateConfig({}).params;

function result(text: string): GenerateResult {
  return { text, finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 3 } };
}

/** Writes one cell per (test, repeat) per model, as runSuite would. */
export function writeCells(
  store: Store,
  suite: Suite,
  models: readonly FakeModel[],
  reply: (test: SuiteTest, right: boolean) => string,
): void {
  store.saveSuite(suite);
  const runId = store.beginRun({
    suiteHash: suite.hash,
    config: { models: models.map((m) => m.label) },
    waverVersion: 'test',
  });
  const writes: CellWrite[] = [];
  for (const m of models)
    for (const test of suite.tests)
      for (let repeat = 0; repeat < (test.repeats ?? 1); repeat++) {
        const request = requestFor(test, PARAMS);
        const ref = {
          suiteHash: suite.hash,
          testId: test.id,
          model: m.label,
          modelIdentity: m.identity,
          repeat,
          runId,
          request,
          attempts: [],
        };
        const a = m.answer(test, repeat);
        if (a === 'fail')
          writes.push({ kind: 'failed', cell: { ...ref, error: { kind: 'server', message: 'HTTP 500' } } });
        else
          writes.push({
            kind: 'done',
            cell: { ...ref, key: cacheKey(m.identity, request, repeat), result: result(reply(test, a)) },
          });
      }
  store.saveBatch(writes);
  store.finishRun(runId, 'complete');
}

/** Ladder: `seeds` synthetic seeds; a baseline (3 repeats) and SV and CL at levels 1..3, magnitude 0.1 x level. */
export function ladderTests(seeds: number, families: readonly Family[] = ['SV', 'CL']): LadderTest[] {
  const tests: LadderTest[] = [];
  for (let s = 0; s < seeds; s++) {
    const seedId = `seed-${s}`;
    const gold = 10 + s;
    const original = `Ann has ${gold} apples. How many apples does Ann have?`;
    const make = (family: Family | 'baseline', level: Level | 0, text: string): LadderTest => {
      const base = { seedId, family, requestedLevel: level, text };
      const magnitude = 0.1 * level;
      return {
        id: ladderTestId(base),
        ...base,
        measuredLevel: level,
        ...(family !== 'baseline' && {
          severity: {
            sim: 1 - magnitude,
            magnitude,
            score: magnitude,
            level: level as Level,
            via: 'band' as const,
          },
        }),
        original,
        gold,
        gates: [],
      };
    };
    tests.push(make('baseline', 0, original));
    for (const family of families)
      for (const level of [1, 2, 3] as const)
        tests.push(make(family, level, `${original} (${family} level ${level})`));
  }
  return tests;
}

export function ladderMeta(test: SuiteTest): LadderTest {
  return test.meta as unknown as LadderTest;
}

/** Stores a ladder suite answered by the models; returns the suite. */
export function ladderStore(
  store: Store,
  models: readonly FakeModel[],
  seeds = 30,
  families?: readonly Family[],
): Suite {
  const suite = ladderSuite(ladderTests(seeds, families), validateConfig({}));
  writeCells(store, suite, models, (test, right) => {
    const gold = ladderMeta(test).gold as number;
    return `Working it out.\n#### ${right ? gold : gold + 1}`;
  });
  return suite;
}

/** Paraphrase: the first `items` built-in items in four phrasings (no rewording needed), 2 repeats. */
export function paraphraseStore(store: Store, models: readonly FakeModel[], items = 12): Suite {
  const suite = buildParaphraseSuite(BUILTIN_MC_ITEMS.slice(0, items), {
    phrasings: ['canonical', 'terse', 'verbose', 'options-shuffled'],
    repeats: 2,
    runSeed: 0,
    dataset: 'builtin',
    verified: new Set(),
  });
  writeCells(store, suite, models, (test, right) => {
    const meta = test.meta as unknown as ParaphraseTestMeta;
    const wrong = meta.options.find((o) => o.letter !== meta.key)?.letter as string;
    return `Answer: ${right ? meta.key : wrong}`;
  });
  return suite;
}

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
 */
export function sagoStore(store: Store): Suite {
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
    const variant = (test.meta as { role?: string }).role === 'variant';
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
  saveManifest(store, manifest);
  return suite;
}
