import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../cli/test-support/cli.js';
import { type Loopback, startLoopback } from '../models/test-support/loopback.js';
import { scratchDir } from '../test-support/scratch.js';
import { repoRoot } from '../test-support/shared.js';

/**
 * A provider added from a test folder and nothing else: its descriptor module
 * (models/test-support/http-echo-provider.mjs), named in waver.yaml's `providers:` relative to the
 * file, runs a suite through the CLI against a service on loopback (docs/providers.md#from-waveryaml).
 */

const dir = scratchDir('waver-config-providers-');
const descriptor = resolve(repoRoot, 'src/models/test-support/http-echo-provider.mjs');
let service: Loopback;

beforeAll(async () => {
  assertBuilt();
  service = await startLoopback((req, res, seen) => {
    if (req.method !== 'POST') return void res.end('up'); // the run's reachability check
    const { prompt } = JSON.parse(seen.body) as { prompt: string };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ text: `echo: ${prompt}`, inputTokens: 3, outputTokens: 2 }));
  });
  writeFileSync(
    join(dir, 'suite.jsonl'),
    '{"id":"a","prompt":"first question"}\n{"id":"b","prompt":"second question"}\n',
  );
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

function config(name: string, providers: string[], model = `httpecho:small@${service.origin}`): string {
  const file = join(dir, name);
  const list = providers.map((p) => `  - ${JSON.stringify(p)}\n`).join('');
  writeFileSync(
    file,
    `${providers.length ? `providers:\n${list}` : ''}models:\n  - ${model}\nsuite: suite.jsonl\n`,
  );
  return file;
}

const run = (file: string, store: string, ...extra: string[]) =>
  runCli(['run', '--config', file, '--store', join(dir, store), '--format', 'json', ...extra], { cwd: dir });

describe("waver.yaml's providers:", () => {
  it('registers the module it names, relative to the file, and the run calls its models', async () => {
    const r = await run(config('waver.yaml', [relative(dir, descriptor)]), 'ok.db');
    expect(r.stderr).not.toMatch(/waver:/);
    expect(r.code).toBe(0);
    const posts = service.requests.filter((s) => s.method === 'POST');
    expect(posts.map((s) => [s.url, JSON.parse(s.body).prompt]).sort()).toEqual([
      ['/generate', 'first question'],
      ['/generate', 'second question'],
    ]);
    const summary = JSON.parse(r.stdout) as { models: { label: string; coverage: { done: number } }[] };
    expect(summary.models[0]?.coverage.done).toBe(2);
  });

  it("its descriptor is what the dry run prices by: the module's list price", async () => {
    const file = config('priced.yaml', [descriptor], `httpecho:priced@${service.origin}`);
    const r = await run(file, 'dry.db', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/list prices/);
    expect(existsSync(join(dir, 'dry.db'))).toBe(false);
  });

  it('without it, the same model is an unknown provider', async () => {
    const file = config('none.yaml', []);
    const r = await run(file, 'none.db');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown model provider in 'httpecho:small@/);
  });

  it('a module that is not there: exit 2 naming the file, line and field, nothing written', async () => {
    const file = config('missing.yaml', ['./no-such-provider.mjs']);
    const r = await run(file, 'missing.db');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `waver: ${file}:2: providers.0: provider module not found: ${join(dir, 'no-such-provider.mjs')}`,
    );
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
  });

  it('a module whose default export is no descriptor: exit 2 naming the file, line and field', async () => {
    writeFileSync(join(dir, 'not-a-provider.mjs'), 'export default { name: "Bad Name" };\n');
    const file = config('bad.yaml', [descriptor, './not-a-provider.mjs']);
    const r = await run(file, 'bad.db');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^waver: ${file}:3: providers\\.1: .*not-a-provider\\.mjs: its default export must be a provider descriptor`,
      ),
    );
    expect(existsSync(join(dir, 'bad.db'))).toBe(false);
  });
});
