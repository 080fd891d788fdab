import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../models/openai.js';
import { runCells } from '../run/engine.js';
import type { Suite } from '../run/types.js';
import { openStore } from '../store/store.js';
import { hashOf } from '../util/hash.js';
import { echoReply, type FaultServer, startFaultServer } from './fault-server.js';

const servers: FaultServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(opts: Parameters<typeof startFaultServer>[0]) {
  const server = await startFaultServer(opts);
  servers.push(server);
  return server;
}

function chat(url: string, prompt: string, signal?: AbortSignal) {
  return fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: prompt }] }),
    signal,
  });
}

describe('startFaultServer', () => {
  it('answers like OpenAI with an echo of the last user message when no fault is drawn', async () => {
    const server = await start({ faultRate: 0, seed: 1 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await chat(server.url, 'hello there');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number };
    };
    expect(body.choices[0]?.message.content).toBe(echoReply('hello there'));
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(server.requests()).toBe(1);
    expect(server.requestsByPrompt().get('hello there')).toBe(1);
  });

  // A hang is told from a slow answer by a 500 ms client timeout: a loaded machine can take 100 ms to answer.
  it('injects every kind of fault at about the rate asked, the same way for the same seed', async () => {
    const server = await start({ faultRate: 0.5, seed: 7, hangMs: 1500 });
    const outcomes: string[] = [];
    for (let i = 0; i < 120; i++) {
      try {
        const res = await chat(server.url, `p${i}`, AbortSignal.timeout(500));
        const text = await res.text();
        if (res.status === 429) outcomes.push(`429:${res.headers.get('retry-after')}`);
        else if (res.status !== 200) outcomes.push(String(res.status));
        else {
          try {
            JSON.parse(text);
            outcomes.push('ok');
          } catch {
            outcomes.push('malformed');
          }
        }
      } catch (e) {
        outcomes.push((e as Error).name === 'TimeoutError' ? 'hang' : 'reset');
      }
    }
    const count = (o: string) => outcomes.filter((x) => x === o).length;
    const faulted = outcomes.length - count('ok');
    expect(faulted).toBeGreaterThan(40);
    expect(faulted).toBeLessThan(80);
    for (const kind of ['500', 'malformed', 'hang', 'reset']) expect(count(kind)).toBeGreaterThan(0);
    expect(outcomes.some((o) => o === '429:0' || o === '429:1')).toBe(true);
    expect(server.faults().hang).toBe(count('hang'));
    expect(server.requests()).toBe(120);

    // Same seed, same prompts: the same faults, whatever the order of arrival.
    const again = await start({ faultRate: 0.5, seed: 7, hangMs: 1500 });
    await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        chat(again.url, `p${119 - i}`).then(
          (r) => r.text(),
          () => '',
        ),
      ),
    );
    expect(again.requests()).toBe(120);
    expect(again.faults()).toEqual(server.faults());
  });
});

describe('run engine through the openai provider against faults', () => {
  it('finishes every cell done or failed with its reason, and makes no request for a stored cell', async () => {
    const server = await start({ faultRate: 0.2, seed: 42, hangMs: 5000 });
    const dir = mkdtempSync(join(tmpdir(), 'waver-faults-'));
    dirs.push(dir);
    const store = openStore(join(dir, 'store.db'));
    const provider = createOpenAIProvider({
      model: 'fault',
      baseURL: server.url,
      apiKey: 'sk-test-not-a-secret',
    });
    const tests = Array.from({ length: 150 }, (_, i) => ({ id: `t${i}`, prompt: `question ${i}` }));
    const suite: Suite = { name: 'faults', hash: hashOf(tests), tests };
    const cells = tests.map((t) => ({
      testId: t.id,
      model: 'fault',
      repeat: 0,
      request: { messages: [{ role: 'user' as const, content: t.prompt }], temperature: 0 },
    }));
    const go = async () => {
      const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
      return runCells({
        store,
        runId,
        suite,
        cells,
        providers: new Map([['fault', { provider }]]),
        defaults: { concurrency: 8, timeoutMs: 300, maxRetries: 1 },
        retry: { baseMs: 5, capMs: 20, maxRetryAfterMs: 50 },
      });
    };
    const first = await go();
    const cov = first.coverage;
    expect(cov.done + cov.failed).toBe(150);
    expect(cov.pending).toBe(0);
    expect(cov.failed).toBeGreaterThan(0); // with one retry, some cells meet two faults
    expect(first.retries).toBeGreaterThan(10);
    const attempts = [...store.cells.all()].reduce((n, c) => n + store.attempts.of(c.id).length, 0);
    expect(server.requests()).toBe(attempts); // every request the server saw is recorded
    for (const c of store.cells.all({ status: 'failed' })) {
      expect(['rate_limit', 'server', 'timeout', 'network', 'bad_response']).toContain(c.error?.kind);
      expect(c.error?.message).toBeTruthy();
    }
    for (const c of store.cells.all({ status: 'done' }))
      expect(c.response?.text).toBe(echoReply(tests[Number(c.testId.slice(1))]?.prompt ?? ''));

    // Second run: only the failed cells are asked again.
    const before = server.requestsByPrompt();
    const failedPrompts = new Set(
      [...store.cells.all({ status: 'failed' })].map((c) => c.request.messages[0]?.content),
    );
    const second = await go();
    expect(second.coverage.cached).toBe(cov.done);
    for (const [prompt, n] of server.requestsByPrompt()) {
      if (!failedPrompts.has(prompt)) expect(n).toBe(before.get(prompt));
    }
    store.close();
  });
});
