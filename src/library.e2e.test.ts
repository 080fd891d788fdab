import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv } from './cli/test-support/cli.js';
import { repoRoot } from './test-support/shared.js';

/**
 * What a library user's process loads (docs/library.md): the built library imported and a
 * protocol run through it, every module Node resolves recorded by a loader hook. The adapters
 * (commands, report sections, checks) are behind an `import()` only the CLI's entry points call.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-library-loads-'));
beforeAll(assertBuilt);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOOK = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  port.postMessage(r.url);
  return r;
}`;

const script = (waver: string) => `
import { register } from 'node:module';
import { createServer } from 'node:http';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
const loaded = new Set();
port1.on('message', (url) => loaded.add(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}), { data: { port: port2 }, transferList: [port2] });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'b',
      choices: [{ index: 0, message: { role: 'assistant', content: 'B' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }));
  });
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const { paraphraseProtocol, readResults, validateConfig } = await import(${JSON.stringify(waver)});
const config = validateConfig({
  models: [{ provider: 'openai', model: 'b', baseURL: 'http://127.0.0.1:' + server.address().port + '/v1', apiKeyEnv: 'K' }],
  store: ${JSON.stringify(join(dir, 'store.db'))},
  paraphrase: { limit: 2, phrasings: ['canonical'], repeats: 1 },
});
const plan = await paraphraseProtocol.build(config, { env: { K: 'k' } });
const outcome = await paraphraseProtocol.run(config, plan, { env: { K: 'k' } });
const records = await readResults(config.store);
server.close();
await new Promise((ok) => setTimeout(ok, 100));
process.stderr.write(JSON.stringify({ complete: outcome.complete, records: records.length, loaded: [...loaded] }));
`;

describe('a library user process', () => {
  it('importing waver and running a protocol loads no commander, no command, no adapter, no CLI file', () => {
    const file = join(dir, 'user.mjs');
    writeFileSync(file, script(pathToFileURL(resolve(repoRoot, 'dist/index.js')).href));
    const r = spawnSync(process.execPath, [file], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const { complete, records, loaded } = JSON.parse(r.stderr) as {
      complete: boolean;
      records: number;
      loaded: string[];
    };
    expect({ complete, records }).toEqual({ complete: true, records: 1 });
    // The run's own code was loaded (the check that the hook saw it), and nothing of the CLI's.
    expect(loaded.some((u) => u.endsWith('/dist/protocols/paraphrase/protocol.js'))).toBe(true);
    expect(
      loaded.filter((u) =>
        /\/node_modules\/commander\/|\/dist\/(cli|command-kit)\/|\/(command|adapters|execute)\.js$/.test(u),
      ),
    ).toEqual([]);
  }, 60_000);
});
