import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/load.js';
import { ProviderRegistry } from '../models/registry.js';
import { type ModelSpec, toModelSpec } from '../models/spec.js';
import type { ModelProvider } from '../models/types.js';
import { type Script, ScriptedProvider, steps } from '../test-support/scripted-provider.js';
import { createProviderPool } from './provider-pool.js';
import { runRole } from './roles.js';
import { runSuite } from './run-suite.js';
import { suiteOf } from './suite.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const defaults = { concurrency: 4, timeoutMs: 5000, maxRetries: 2 };

/** A factory of scripted providers (one per spec's model) that counts what it creates and closes. */
function countingFactory(script: Script = (p) => steps.ok(`echo: ${p}`)) {
  const created: string[] = [];
  const made: ScriptedProvider[] = [];
  let closed = 0;
  const create = async (spec: ModelSpec): Promise<ModelProvider> => {
    created.push(spec.model);
    const p = new ScriptedProvider(script, { identity: `scripted:${spec.model}`, modelId: spec.model });
    made.push(p);
    return Object.assign(p, {
      close: async () => {
        closed++;
      },
    });
  };
  return { create, created, made, closed: () => closed };
}

describe('ProviderPool', () => {
  it('creates each model once, however often and in whatever role it is asked for, and closes each once', async () => {
    const f = countingFactory();
    const pool = createProviderPool({ defaults, create: f.create });
    const sut = toModelSpec('replay:a.jsonl');
    const [one, two] = await Promise.all([pool.get(sut), pool.get(toModelSpec('replay:a.jsonl'))]);
    // The same model under another label (as a judge, say) is the same model.
    const judge = await pool.get(toModelSpec({ provider: 'replay', model: 'a.jsonl', label: 'judge' }));
    const other = await pool.get(toModelSpec('replay:b.jsonl'));
    expect(f.created).toEqual(['a.jsonl', 'b.jsonl']);
    expect(one).toBe(two);
    expect(judge).toBe(one);
    expect(other.identity).toBe('scripted:b.jsonl');
    // The pool owns its instances: the providers it gives out have no close of their own.
    expect(one.close).toBeUndefined();
    await pool.closeAll();
    expect(f.closed()).toBe(2);
    await expect(pool.get(sut)).rejects.toThrow(/closed/);
  });

  it('does not keep a failed creation: the next ask tries again', async () => {
    let tries = 0;
    const pool = createProviderPool({
      defaults,
      create: async () => {
        tries++;
        if (tries === 1) throw new Error('no such file');
        return new ScriptedProvider(echoScript);
      },
    });
    const spec = toModelSpec('replay:a.jsonl');
    await expect(pool.get(spec)).rejects.toThrow('no such file');
    expect((await pool.get(spec)).identity).toBe('scripted:scripted');
    await pool.closeAll();
  });

  it("calls through the model's call path: the spec's timeout and retries over the defaults", async () => {
    const f = countingFactory((_, nth) => (nth < 2 ? { hang: true } : steps.ok('late')));
    const pool = createProviderPool({ defaults, create: f.create, clock: { sleep: async () => {} } });
    const provider = await pool.get(
      toModelSpec({ provider: 'replay', model: 'a', timeoutMs: 20, maxRetries: 1 }),
    );
    await expect(provider.generate({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      kind: 'timeout',
    });
    expect(f.made[0]?.calls).toBe(2);
    await pool.closeAll();
  });

  it('shared by runSuite and runRole, a model used as SUT and judge in two suites is created once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-pool-'));
    dirs.push(dir);
    const f = countingFactory();
    const config = validateConfig({
      models: ['replay:m.jsonl'],
      judge: 'replay:m.jsonl',
      store: join(dir, 's.db'),
    });
    const pool = createProviderPool({ defaults: config, create: f.create });
    try {
      const r = await runSuite(config, suiteOf('sut', [{ id: 't', prompt: 'hello' }]), { pool });
      expect(r.complete).toBe(true);
      const judged = await runRole(
        config,
        'judge',
        'judge',
        [{ temperature: 0, maxTokens: 8, tests: [{ id: 'j', prompt: 'is it polite?' }] }],
        { pool },
      );
      expect(judged.answers.get('j')).toEqual({ ok: true, text: 'echo: is it polite?' });
      expect(f.created).toEqual(['m.jsonl']);
      expect(f.closed()).toBe(0); // the caller's pool stays open for its next stage
    } finally {
      await pool.closeAll();
    }
    expect(f.closed()).toBe(1);
  });
});

describe('a dry run', () => {
  it("makes its models (the spec checked) but lets none be called; runSuite refuses a dry run's config", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-pool-dry-'));
    dirs.push(dir);
    const f = countingFactory();
    const pool = createProviderPool({ defaults, create: f.create, dryRun: true });
    try {
      const model = await pool.get(toModelSpec('replay:m.jsonl'));
      expect(model.identity).toBe('scripted:m.jsonl');
      await expect(model.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
        'a dry run called scripted:m.jsonl: a dry run calls no model',
      );
      expect(f.made[0]?.calls).toBe(0);
      const config = validateConfig({ models: ['replay:m.jsonl'], store: join(dir, 's.db'), dryRun: true });
      await expect(
        runSuite(config, suiteOf('sut', [{ id: 't', prompt: 'hello' }]), { pool }),
      ).rejects.toThrow('dryRun: a dry run calls no model');
      expect(existsSync(join(dir, 's.db'))).toBe(false);
    } finally {
      await pool.closeAll();
    }
  });
});

const echoScript: Script = (p) => steps.ok(p);

describe('the registry a pool builds from', () => {
  it('is the one it is handed: a provider only that registry holds is made, and unknown to the process', async () => {
    const own = new ProviderRegistry([
      {
        name: 'mine',
        create: async (spec) =>
          new ScriptedProvider(() => ({ text: 'x' }) as never, { identity: `mine:${spec.model}` }),
      },
    ]);
    const defaults = { concurrency: 1, timeoutMs: 1000, maxRetries: 0 };
    const spec = { provider: 'mine', model: 'm', chatTemplate: 'auto' } as const;
    const pool = createProviderPool({ registry: own, defaults });
    const processPool = createProviderPool({ defaults });
    try {
      expect((await pool.get(spec)).identity).toBe('mine:m');
      await expect(processPool.get(spec)).rejects.toThrow(/unknown model provider 'mine'/);
    } finally {
      await pool.closeAll();
      await processPool.closeAll();
    }
  });
});
