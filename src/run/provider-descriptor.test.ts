import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/load.js';
import type { ProviderDescriptor } from '../models/descriptor.js';
import { registerProvider } from '../models/registry.js';
import { parseModelSpec } from '../models/spec.js';
import { axisStatuses, type SagoModelRecord } from '../protocols/sago/axes.js';
import { SagoConfig } from '../protocols/sago/config.js';
import { tokenLevelEmbedder } from '../protocols/sago/embeddings.js';
import { type Loopback, startLoopback } from '../test-support/models/loopback.js';
import { CHAT_ONLY_CAPABILITIES } from '../test-support/scripted-provider.js';
import { estimateRun } from './estimate.js';
import { planCells, plannedModels } from './plan.js';
import { checkReachable } from './reachability.js';
import { suiteOf } from './suite.js';

/**
 * What the run, the dry run and sago know of a provider comes from its descriptor, so a registered
 * provider is treated as a built-in one with the same traits would be (docs/providers.md#descriptors).
 */
describe('a registered provider descriptor', () => {
  let server: Loopback;
  const unregister: (() => void)[] = [];
  const create: ProviderDescriptor['create'] = async () => {
    throw new Error('not called: nothing here generates');
  };
  beforeAll(async () => {
    server = await startLoopback((_req, res) => {
      res.end('ok');
    });
    unregister.push(
      registerProvider({
        name: 'hosted',
        create,
        endpoint: { defaultBaseURL: `${server.origin}/default`, baseURLEnv: 'HOSTED_BASE_URL' },
        batch: true,
        listPrice: (model) => (model === 'big' ? { input: 1, output: 2 } : undefined),
      }),
      registerProvider({ name: 'inproc', create, local: true, inProcess: true }),
    );
  });
  afterAll(async () => {
    for (const u of unregister) u();
    await server.close();
  });

  it('reachability: its default endpoint, or the one its env variable names; none for a local one', async () => {
    await checkReachable(parseModelSpec('hosted:big'), { env: {} });
    await checkReachable(parseModelSpec('hosted:big'), { env: { HOSTED_BASE_URL: `${server.origin}/env` } });
    await checkReachable(parseModelSpec('inproc:m'), { env: {} });
    expect(server.requests.map((r) => r.url)).toEqual(['/default', '/env']);
  });

  it('dry run: its list price, its batch API at half price, and a local one at 0', () => {
    const config = validateConfig({ models: ['hosted:big', 'hosted:unlisted', 'inproc:m'], batch: true });
    const models = plannedModels(config);
    const suite = suiteOf('s', [{ id: 'a', prompt: 'a question' }]);
    const [big, unlisted, local] = estimateRun(planCells(suite, models, config), models, config, () => 0);
    const tokens = (big?.inputTokens ?? 0) * 1 + (big?.maxOutputTokens ?? 0) * 2;
    expect(big?.maxCostUsd).toBeCloseTo(tokens / 1e6 / 2, 15);
    expect(big?.priceSource).toBe('list prices 2026-11, batch: half price');
    expect(unlisted?.batch).toBe(true);
    expect(unlisted?.maxCostUsd).toBeUndefined();
    expect(local).toMatchObject({ maxCostUsd: 0, priceSource: 'local' });
    expect(local?.batch).toBeUndefined();
  });

  it('sago: an in-process model gives word-prefix embeddings and its activations; a hosted one neither', () => {
    expect(tokenLevelEmbedder({ provider: 'inproc' }, 'auto')).toBe(true);
    expect(tokenLevelEmbedder({ provider: 'hosted' }, 'auto')).toBe(false);
    const record = (provider: string): SagoModelRecord =>
      ({
        label: provider,
        provider,
        capabilities: { ...CHAT_ONLY_CAPABILITIES, embeddings: true },
      }) as SagoModelRecord;
    const ctx = { settings: SagoConfig.parse({}) } as Parameters<typeof axisStatuses>[1];
    expect(axisStatuses(record('inproc'), ctx).activation.available).toBe(true);
    expect(axisStatuses(record('hosted'), ctx).activation).toMatchObject({
      available: false,
      reason: expect.stringMatching(/^hosted: the model's hidden states are not exposed/),
    });
  });
});
