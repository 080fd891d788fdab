import { describe, expect, it, vi } from 'vitest';
import { validateConfig } from '../config/load.js';
import type { WaverConfig } from '../config/schema.js';
import { registerProvider } from '../models/registry.js';
import { toModelSpec } from '../models/spec.js';
import type { ModelProvider } from '../models/types.js';
import type { SectionModule } from '../report/report-data.js';
import { BudgetReached } from '../run/budget.js';
import { CHAT_ONLY_CAPABILITIES } from '../test-support/scripted-provider.js';
import { defineProtocol } from './define.js';
import { executeProtocol, runView } from './execute.js';
import type { ProtocolOptions, RunOutcome } from './types.js';

const poolOf = (opts: ProtocolOptions) => {
  if (!opts.pool) throw new Error('no pool handed to the protocol');
  return opts.pool;
};

describe('executeProtocol', () => {
  it('gives the build and the run one pool: a model both call is one instance, closed once at the end', async () => {
    let created = 0;
    let closed = 0;
    const unregister = registerProvider('counted', async (spec) => {
      created++;
      return {
        provider: spec.provider,
        modelId: spec.model,
        identity: `counted:${spec.model}`,
        capabilities: CHAT_ONLY_CAPABILITIES,
        generate: async () => ({
          text: 'ok',
          finishReason: 'stop',
          usage: { inputTokens: 1, outputTokens: 1 },
        }),
        close: async () => {
          closed++;
        },
      };
    });
    try {
      const spec = toModelSpec('counted:m');
      const seen: ModelProvider[] = [];
      // A protocol whose build asks the model (as a generator would) and whose run asks it again.
      const protocol = {
        build: async (_config: WaverConfig, opts: ProtocolOptions = {}) => {
          seen.push(await poolOf(opts).get(spec));
          return 'plan';
        },
        estimate: async () => [],
        run: async (_config: WaverConfig, _plan: string, opts: ProtocolOptions = {}) => {
          seen.push(await poolOf(opts).get(spec));
          return { runs: [], aborted: false, complete: true } satisfies RunOutcome;
        },
        summary: async () => undefined,
      };
      const code = await executeProtocol(protocol, validateConfig({ models: ['counted:m'] }), {
        run: runView({ line: () => undefined }),
      });
      expect(code).toBe(0);
      expect(seen).toHaveLength(2);
      expect(seen[0]).toBe(seen[1]);
      expect(created).toBe(1);
      expect(closed).toBe(1);
    } finally {
      unregister();
    }
  });

  it('a budget reached in a stage that is no suite run ends the command with exit 5 and one line, and the stage sees the stop', async () => {
    const unregister = registerProvider('metered', async (spec) => ({
      provider: spec.provider,
      modelId: spec.model,
      identity: `metered:${spec.model}`,
      capabilities: CHAT_ONLY_CAPABILITIES,
      generate: async () => ({
        text: 'ok',
        finishReason: 'stop',
        usage: { inputTokens: 1, outputTokens: 1 },
      }),
    }));
    const spec = toModelSpec('metered:m');
    const ask = { messages: [{ role: 'user' as const, content: 'x' }] };
    const seen: { stage: string; aborted: boolean | undefined }[] = [];
    // A build that asks once, and a run that asks until refused, as sago's embeddings stage does.
    const protocol = defineProtocol<string, undefined, RunOutcome>({
      name: 'metered',
      title: 'Metered',
      code: async () => ({
        build: async (_config, opts) => {
          await (await opts.pool.get(spec)).generate(ask, { signal: opts.signal });
          return 'plan';
        },
        estimate: async () => [],
        run: async (_config, _plan, opts) => {
          const model = await opts.pool.get(spec);
          try {
            for (;;) await model.generate(ask, { signal: opts.signal });
          } finally {
            seen.push({ stage: 'run', aborted: opts.signal?.aborted });
          }
        },
        summary: () => undefined,
        section: {} as SectionModule<undefined>,
      }),
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const config = validateConfig({ models: ['metered:m'], maxCalls: 3 });
      const code = await executeProtocol(protocol, config, { run: runView({ line: () => undefined }) });
      expect(code).toBe(5);
      expect(seen).toEqual([{ stage: 'run', aborted: true }]);
      const lines = stderr.mock.calls.map(([text]) => String(text)).filter((t) => t.startsWith('waver:'));
      expect(lines).toEqual([
        'waver: stopped by the budget (--max-calls 3): 3 calls made, cost unknown (no price for metered:m); re-run the same command to resume\n',
      ]);
      // The build alone past the budget is a stop too, not an internal error.
      const small = validateConfig({ models: ['metered:m'], maxCalls: 1 });
      const refusing = defineProtocol<string, undefined, RunOutcome>({
        name: 'refusing',
        title: 'Refusing',
        code: async () => ({
          build: async (_config, opts) => {
            const model = await opts.pool.get(spec);
            await model.generate(ask);
            await model.generate(ask);
            return 'plan';
          },
          estimate: async () => [],
          run: async () => ({ runs: [], aborted: false, complete: true }),
          summary: () => undefined,
          section: {} as SectionModule<undefined>,
        }),
      });
      await expect(refusing.build(small)).rejects.toBeInstanceOf(BudgetReached);
      expect(await executeProtocol(refusing, small, { run: runView({ line: () => undefined }) })).toBe(5);
    } finally {
      stderr.mockRestore();
      unregister();
    }
  });
});
