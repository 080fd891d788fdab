import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/load.js';
import { formatEstimate } from '../report/run-summary.js';
import { estimateRun } from './estimate.js';
import { planCells, plannedModels } from './plan.js';
import { suiteOf } from './suite.js';

describe('--dry-run with --batch', () => {
  const suite = suiteOf(
    'priced',
    Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, prompt: `question ${i} about something` })),
  );
  const estimate = (batch: boolean) => {
    const config = validateConfig({
      models: ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5', 'replay:answers.jsonl'],
      batch,
    });
    const models = plannedModels(config);
    return estimateRun(planCells(suite, models, config), models, config, () => 0);
  };

  it('prices openai: and anthropic: batches at half the listed price; other models as before', () => {
    const listed = estimate(false);
    const batched = estimate(true);
    for (const i of [0, 1]) {
      expect(batched[i]?.batch).toBe(true);
      expect(batched[i]?.maxCostUsd).toBeCloseTo((listed[i]?.maxCostUsd as number) / 2, 12);
      expect(batched[i]?.calls).toBe(listed[i]?.calls);
      expect(batched[i]?.priceSource).toMatch(/batch: half price$/);
    }
    expect(listed[0]?.batch).toBeUndefined();
    expect(batched[2]).toEqual(listed[2]);
    expect(formatEstimate(batched, 'md')).toContain('batch: half price');
  });
});

describe('--dry-run with a billion repeats', () => {
  it('counts the repeats instead of reading each', async () => {
    const { estimateSuite } = await import('./run-suite.js');
    const suite = suiteOf('many', [
      { id: 'a', prompt: 'one question' },
      { id: 'b', prompt: 'another', repeats: 2 },
    ]);
    const config = validateConfig({
      models: ['replay:answers.jsonl'],
      repeats: 1_000_000_000,
      // Above the default limit of 1,000 (docs/decisions.md E38): raised, as a user would.
      maxRepeats: 1_000_000_000,
      store: '/nonexistent/s.db',
    });
    const t0 = performance.now();
    const [e] = await estimateSuite(config, suite, {
      pool: { get: async () => ({ identity: 'r' }) } as never,
    });
    expect(e?.cells).toBe(1_000_000_002);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('--dry-run reads each cell’s own request', () => {
  it('bounds the output by the cap each cell is sent (a test’s own, a model’s own), not the config’s', () => {
    const suite = suiteOf('capped', [
      { id: 'a', prompt: 'one', maxTokens: 768, repeats: 3 },
      { id: 'b', prompt: 'two', maxTokens: 768, byModel: { 'openai:gpt-4o': { maxTokens: 900 } } },
      { id: 'c', prompt: 'three' },
    ]);
    const config = validateConfig({
      models: ['openai:gpt-4o-mini', 'openai:gpt-4o'],
      params: { maxTokens: 64 },
    });
    const models = plannedModels(config);
    const repeats = new Map(suite.tests.map((t) => [t.id, t.repeats ?? config.repeats]));
    const [mini, big] = estimateRun(
      planCells(suite, models, config),
      models,
      config,
      () => 0,
      (id) => repeats.get(id) ?? 1,
    );
    expect(mini).toMatchObject({ role: 'model', calls: 5, maxOutputTokens: 3 * 768 + 768 + 64 });
    expect(big).toMatchObject({ calls: 5, maxOutputTokens: 3 * 768 + 900 + 64 });
  });
});

describe('--dry-run with a budget', () => {
  const row = (role: 'generator' | 'model', calls: number, maxCostUsd: number) => ({
    label: role === 'model' ? 'm' : 'g',
    role,
    stage: `s/${role}`,
    cells: calls,
    stored: 0,
    calls,
    inputTokens: calls,
    maxOutputTokens: calls,
    maxCostUsd,
  });
  const rows = [row('generator', 10, 0.1), row('model', 16, 5)];
  const budgetOf = (limits: { maxCalls?: number; maxCost?: number }) =>
    (JSON.parse(formatEstimate(rows, 'json', limits)) as { budget?: Record<string, unknown> }).budget;

  it('names the stage the limit is passed in, with what is spent before and through it', () => {
    expect(budgetOf({ maxCalls: 20 })).toEqual({
      limit: 'maxCalls',
      value: 20,
      stage: 'model (s/model)',
      before: 10,
      through: 26,
      bound: false,
    });
    // Not reached: no stage is named.
    expect(budgetOf({ maxCalls: 30 })).toEqual({
      limit: 'maxCalls',
      value: 30,
      before: 26,
      through: 26,
      bound: false,
    });
    expect(budgetOf({})).toBeUndefined();
  });

  it('with both limits, the one the run meets first', () => {
    expect(budgetOf({ maxCalls: 20, maxCost: 0.05 })).toMatchObject({
      limit: 'maxCost',
      stage: 'generator (s/generator)',
    });
    expect(budgetOf({ maxCalls: 20, maxCost: 100 })).toMatchObject({
      limit: 'maxCalls',
      stage: 'model (s/model)',
    });
  });
});
