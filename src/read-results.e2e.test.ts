import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from './cli/test-support/cli.js';
import { openStore, RESULTS_SCHEMA_VERSION, readResults, WAVER_VERSION } from './index.js';
import { type ScriptedChatServer, startScriptedChatServer } from './test-support/scripted-chat-server.js';

/**
 * `readResults` reads what the CLI stored (docs/library.md#results-records): one typed, versioned
 * record per suite of the systems under test, its results rebuilt by its protocol, role suites
 * left to the records they serve.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-read-results-'));
const store = join(dir, 'store.db');
let server: ScriptedChatServer;

beforeAll(async () => {
  assertBuilt();
  // Always "B": two of the four first built-in items are keyed B.
  server = await startScriptedChatServer(() => ({
    body: {
      choices: [{ index: 0, message: { role: 'assistant', content: 'B' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 9, completion_tokens: 1 },
    },
  }));
  const model = `openai:always-b@${server.url}`;
  const env = cleanEnv({ OPENAI_API_KEY: 'k' });
  const para = await runCli(
    [
      'paraphrase',
      '--models',
      model,
      '--store',
      store,
      '--limit',
      '4',
      '--phrasings',
      'canonical,terse',
      '--repeats',
      '1',
    ],
    { env },
  );
  expect(para.code, para.stderr).toBe(0);
  const suite = join(dir, 'plain.jsonl');
  writeFileSync(suite, `${JSON.stringify({ id: 'q1', prompt: 'Say B.' })}\n`);
  const plain = await runCli(['run', '--suite', suite, '--models', model, '--store', store], { env });
  expect(plain.code, plain.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('readResults on a store a CLI run made', () => {
  it('gives one versioned record per suite of the systems under test, its results typed by its protocol', async () => {
    const records = await readResults(store);
    expect(records.map((r) => [r.protocol, r.suite.name])).toEqual([
      ['paraphrase', 'paraphrase/items'],
      ['run', join(dir, 'plain.jsonl')],
    ]);
    for (const r of records) {
      expect(r.schemaVersion).toBe(RESULTS_SCHEMA_VERSION);
      expect(r.waverVersion).toBe(WAVER_VERSION);
      expect(r.models).toEqual([`openai:always-b@${server.url}`]);
    }

    const [para] = await readResults(store, { protocol: 'paraphrase' });
    if (!para) throw new Error('no paraphrase record');
    expect(para.suite.tests).toBe(8);
    expect(para.config).toMatchObject({ paraphrase: { limit: 4, repeats: 1 } });
    // ParaphraseResults, typed by the protocol named: 4 items x 2 phrasings, "B" right on the 2 keyed B.
    const [model] = para.results.models;
    expect(model?.label).toBe(`openai:always-b@${server.url}`);
    expect(model?.metrics.saa).toMatchObject({ value: 0.5 });

    const [plain] = await readResults(store, { protocol: 'run' });
    expect(plain?.results).toBeUndefined();
    expect(plain?.suite.tests).toBe(1);
  });

  it('filters by suite (name or hash prefix) and model, and reads an open store the same as its path', async () => {
    const all = await readResults(store);
    const hash = all[0]?.suite.hash as string;
    expect((await readResults(store, { suite: hash.slice(0, 8) })).map((r) => r.suite.hash)).toEqual([hash]);
    expect((await readResults(store, { suite: join(dir, 'plain.jsonl') })).map((r) => r.protocol)).toEqual([
      'run',
    ]);
    expect(await readResults(store, { model: 'openai:other' })).toEqual([]);
    const missing = join(dir, 'missing.db');
    await expect(readResults(missing)).rejects.toMatchObject({ name: 'InputError', file: missing });
    const open = openStore(store, { readonly: true });
    try {
      expect(await readResults(open)).toEqual(all);
    } finally {
      open.close();
    }
  });
});
