import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/load.js';
import type { WaverConfig } from '../config/schema.js';
import { registerProvider } from '../models/registry.js';
import { toModelSpec } from '../models/spec.js';
import type { ModelProvider } from '../models/types.js';
import { CHAT_ONLY_CAPABILITIES } from '../test-support/scripted-provider.js';
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
});
