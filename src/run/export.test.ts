import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions, GenerateRequest, GenerateResult } from '../models/types.js';
import { openStore } from '../store/store.js';
import { ScriptedProvider, steps } from '../test-support/scripted-provider.js';
import { hashOf } from '../util/hash.js';
import { assertNoSecrets } from '../util/secrets.js';
import { runCells } from './engine.js';
import { exportTranscripts } from './export.js';
import type { Suite } from './types.js';

const SENTINEL = 'sk-SENTINEL-5f3a9c0e-never-stored';

/** A provider that holds an API key the way real ones do: privately, never in its identity. */
class KeyedProvider extends ScriptedProvider {
  readonly #apiKey = SENTINEL;
  override async generate(request: GenerateRequest, options?: CallOptions): Promise<GenerateResult> {
    if (!this.#apiKey) throw new Error('no key');
    return super.generate(request, options);
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('exportTranscripts', () => {
  it('writes one object per cell with test, model, request, response or error, and every attempt; no secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-export-'));
    dirs.push(dir);
    const store = openStore(join(dir, 'store.db'));
    const tests = [
      { id: 'q1', prompt: 'Is the sky blue?', system: 'Answer yes or no.', meta: { family: 'SV', level: 1 } },
      { id: 'q2', prompt: 'broken' },
    ];
    const suite: Suite = { name: 'export.jsonl', hash: hashOf(tests), tests };
    const provider = new KeyedProvider(
      (p, nth) =>
        p === 'broken' ? steps.fail('client', 400) : nth === 0 ? steps.fail('server', 502) : steps.ok('yes'),
      { identity: 'openai:m@http://127.0.0.1:9/v1' },
    );
    const runId = store.runs.begin({
      suiteHash: suite.hash,
      config: { models: [{ spec: 'openai:m', apiKey: SENTINEL }] },
      waverVersion: 'test',
    });
    await runCells({
      store,
      runId,
      suite,
      cells: tests.map((t) => ({
        testId: t.id,
        model: 'm',
        repeat: 0,
        request: {
          messages: [
            ...(t.system ? [{ role: 'system' as const, content: t.system }] : []),
            { role: 'user' as const, content: t.prompt },
          ],
          temperature: 0,
          maxTokens: 8,
        },
      })),
      providers: new Map([['m', { provider }]]),
      defaults: { concurrency: 2, timeoutMs: 1000, maxRetries: 2 },
      sleep: async () => {},
    });
    store.runs.finish(runId, 'incomplete');

    const lines = [...exportTranscripts(store)];
    expect(lines).toHaveLength(2);
    const [done, failed] = lines;
    expect(done).toMatchObject({
      suite: { name: 'export.jsonl', hash: suite.hash },
      test: {
        id: 'q1',
        prompt: 'Is the sky blue?',
        system: 'Answer yes or no.',
        meta: { family: 'SV', level: 1 },
      },
      model: { label: 'm', identity: 'openai:m@http://127.0.0.1:9/v1' },
      repeat: 0,
      status: 'done',
      request: { temperature: 0, maxTokens: 8 },
      response: { text: 'yes', finishReason: 'stop', usage: { inputTokens: 4, outputTokens: 1 } },
      calls: 2,
      runId,
    });
    expect(done?.response?.latencyMs).toBeTypeOf('number');
    expect(done?.attempts.map((a) => a.outcome)).toEqual(['server', 'ok']);
    expect(failed).toMatchObject({
      test: { id: 'q2', prompt: 'broken' },
      status: 'failed',
      request: { messages: [{ role: 'user', content: 'broken' }] },
      error: { kind: 'client', status: 400 },
    });
    expect(failed?.response).toBeUndefined();
    expect([...exportTranscripts(store, { status: 'failed' })].map((t) => t.test.id)).toEqual(['q2']);

    const jsonl = lines.map((l) => JSON.stringify(l)).join('\n');
    expect(jsonl).not.toContain(SENTINEL);
    store.close();
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes(SENTINEL)).toBe(false);
  });

  it('assertNoSecrets refuses secret-named members anywhere', () => {
    expect(() => assertNoSecrets({ a: [{ b: { apiKey: 'x' } }] }, 't')).toThrow(
      'refusing to write a secret: t.a[0].b.apiKey',
    );
    expect(() => assertNoSecrets({ headers: { Authorization: 'Bearer x' } })).toThrow(/Authorization/);
    expect(() => assertNoSecrets({ maxTokens: 3, apiKeyEnv: 'OPENAI_API_KEY', tokens: [] })).not.toThrow();
  });
});
