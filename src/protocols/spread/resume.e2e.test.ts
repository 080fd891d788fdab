import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli, startCli } from '../../test-support/cli/cli.js';
import { type Loopback, sendJson, startLoopback } from '../../test-support/models/loopback.js';
import { scratchDir } from '../../test-support/scratch.js';

beforeAll(assertBuilt);

/** A chat API that answers after 40 ms, so a run can be killed with calls done and calls left. */
let server: Loopback;
let calls = 0;
beforeAll(async () => {
  server = await startLoopback(async (_req, res, seen) => {
    if (!seen.url.endsWith('/chat/completions')) return sendJson(res, 404, {});
    calls++;
    await new Promise((r) => setTimeout(r, 40));
    sendJson(res, 200, {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'A' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1 },
    });
  });
});
afterAll(() => server.close());

describe('a spread run killed with SIGKILL', () => {
  it('resumes with the same command: every planned cell once, none lost', async () => {
    const dir = scratchDir('spread-kill');
    const lines = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify({ id: `q${i}`, question: `Question ${i}?`, choices: ['a', 'b', 'c'], answer: 'A' }),
    );
    writeFileSync(join(dir, 'items.jsonl'), `${lines.join('\n')}\n`);
    const args = [
      'spread',
      '--models',
      `openai:m@${server.origin}/v1`,
      '--dataset',
      'items.jsonl',
      '--templates',
      '8',
      '--budget',
      '0.5',
      '--concurrency',
      '2',
      '--format',
      'json',
    ];
    const env = cleanEnv({ OPENAI_API_KEY: 'sk-test' });
    const first = startCli(args, { cwd: dir, env });
    while (calls < 12) await new Promise((r) => setTimeout(r, 10));
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const killedAt = calls;
    expect(killedAt).toBeLessThan(40);
    const again = await runCli(args, { cwd: dir, env });
    expect(again.code).toBe(0);
    const out = JSON.parse(again.stdout) as {
      suite: { planned: number };
      models: { calls: number; done: number }[];
    };
    expect(out.suite.planned).toBe(40);
    expect(out.models[0]).toMatchObject({ calls: 40, done: 40 });
    // The cells stored before the kill are not asked again: at most those on the wire or answered
    // and not yet committed (twice the concurrency) are, as for every protocol's run.
    expect(calls).toBeLessThanOrEqual(40 + 4);
    expect(calls).toBeGreaterThanOrEqual(40);
  }, 120_000);
});
