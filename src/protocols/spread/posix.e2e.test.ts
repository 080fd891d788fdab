import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, queryStore, runCli } from '../../test-support/cli/cli.js';
import { scratchDir } from '../../test-support/scratch.js';
import { completion, startScriptedChatServer } from '../../test-support/scripted-chat-server.js';
import { sharedDataEnv, tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { posixIndex } from './estimators/index.js';

beforeAll(assertBuilt);

type Posix =
  | { value: number; lo: number; hi: number; items: number; variant: string }
  | { unavailable: string };
interface Json {
  models: { label: string; posix: Posix }[];
}

/**
 * POSIX recomputed from the store alone, independently of the code under test: the cells' prompts
 * and replies grouped by item, and each teacher-forced score found by its (prompt, reply).
 */
function posixFromTables(store: string): { value: number; items: number } {
  const tests = queryStore<{ test_id: string; json: string }>(store, 'SELECT test_id, json FROM tests');
  const meta = new Map(
    tests.map((t) => {
      const j = JSON.parse(t.json) as { prompt: string; meta: { item: { index: number } } };
      return [t.test_id, { prompt: j.prompt, item: j.meta.item.index }];
    }),
  );
  const replies = queryStore<{ test_id: string; text: string }>(
    store,
    "SELECT c.test_id, r.text FROM cells c JOIN responses r ON r.key = c.response_key WHERE c.status = 'done'",
  );
  const scores = new Map<string, { logprob: number; tokens: unknown[] }>();
  for (const row of queryStore<{ request_json: string; result_json: string }>(
    store,
    "SELECT request_json, result_json FROM aux_results WHERE kind = 'score'",
  )) {
    const q = JSON.parse(row.request_json) as { messages: { content: string }[]; continuation: string };
    scores.set(`${q.messages[0]?.content}\u0000${q.continuation}`, JSON.parse(row.result_json));
  }
  const byItem = new Map<number, { prompt: string; reply: string }[]>();
  for (const r of replies) {
    const m = meta.get(r.test_id);
    if (!m || r.text === '') continue;
    byItem.set(m.item, [...(byItem.get(m.item) ?? []), { prompt: m.prompt, reply: r.text }]);
  }
  const perItem: number[] = [];
  for (const group of byItem.values()) {
    if (group.length < 2) continue;
    const at = (j: number, k: number) => {
      const s = scores.get(`${group[j]?.prompt}\u0000${group[k]?.reply}`);
      if (!s) throw new Error(`no stored score for pair ${j},${k}`);
      return s;
    };
    perItem.push(
      posixIndex({
        logprob: group.map((_, j) => group.map((_, k) => at(j, k).logprob)),
        responseTokens: group.map((_, k) => at(k, k).tokens.length),
      }),
    );
  }
  return { value: perItem.reduce((a, b) => a + b, 0) / perItem.length, items: perItem.length };
}

describe.skipIf(tinyModelMissing)('waver spread --posix with the tiny gguf model', () => {
  it('gives the paper index over items, equal to posixIndex recomputed from the stored log-likelihoods', async () => {
    const dir = scratchDir('spread-posix');
    const args = (extra: string[]) => [
      'spread',
      '--models',
      `gguf:${tinyModelPath}`,
      '--dataset',
      'arc-challenge',
      '--templates',
      '4',
      '--limit',
      '3',
      '--max-tokens',
      '4',
      '--posix',
      '--store',
      'posix.db',
      ...extra,
    ];
    const env = cleanEnv(sharedDataEnv);
    const dry = await runCli(args(['--dry-run']), { cwd: dir, env });
    expect(dry.code).toBe(0);
    // 3 items x 4 templates x 4 replies: 48 score calls, at most (an empty reply is skipped).
    expect(dry.stdout).toMatch(/\| model \(spread\/posix\) \| ≤ 48 \|/);
    const r = await runCli(args(['--format', 'json']), { cwd: dir, env });
    expect(r.code).toBe(0);
    const posix = (JSON.parse(r.stdout) as Json).models[0]?.posix;
    if (!posix || 'unavailable' in posix) throw new Error(`POSIX unavailable: ${JSON.stringify(posix)}`);
    const expected = posixFromTables(join(dir, 'posix.db'));
    expect(posix.items).toBe(expected.items);
    expect(posix.items).toBeGreaterThanOrEqual(2);
    expect(posix.variant).toBe('paper');
    expect(posix.value).toBeGreaterThan(0);
    expect(posix.value).toBeCloseTo(expected.value, 12);
    expect(posix.lo).toBeLessThanOrEqual(posix.value);
    expect(posix.hi).toBeGreaterThanOrEqual(posix.value);
    const report = await runCli(['report', '--store', 'posix.db', '--out', 'r.md'], { cwd: dir, env });
    expect(report.code).toBe(0);
    const md = (await import('node:fs')).readFileSync(join(dir, 'r.md'), 'utf8');
    expect(md).toContain(`POSIX (prompt sensitivity, paper's Definition 3): ${posix.value.toFixed(4)}`);
    expect(md).toContain(`n = ${posix.items} items`);
  }, 300_000);
});

describe('waver spread --posix against a chat-only loopback API', () => {
  const server = startScriptedChatServer(() => completion({ content: 'A' }, 'stop'));
  afterAll(async () => (await server).close());

  it('reports POSIX unavailable with its reason, never 0', async () => {
    const dir = scratchDir('spread-posix-chat');
    const lines = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({ id: `q${i}`, question: `Pick one (${i})`, choices: ['x', 'y', 'z'], answer: 'A' }),
    );
    writeFileSync(join(dir, 'items.jsonl'), `${lines.join('\n')}\n`);
    const url = (await server).url;
    const r = await runCli(
      [
        'spread',
        '--models',
        `openai:chat@${url}`,
        '--dataset',
        'items.jsonl',
        '--templates',
        '3',
        '--posix',
        '--format',
        'json',
      ],
      { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: 'sk-test' }) },
    );
    expect(r.code).toBe(0);
    const posix = (JSON.parse(r.stdout) as Json).models[0]?.posix;
    expect(posix).toEqual({ unavailable: expect.stringMatching(/cannot score text \(a chat-only API\)/) });
    expect(posix).not.toHaveProperty('value');
  });
});
