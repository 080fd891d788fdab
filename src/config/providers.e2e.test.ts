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
    const { prompt, voice } = JSON.parse(seen.body) as { prompt: string; voice: string };
    const text = `echo: ${prompt}`;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ text: voice === 'loud' ? text.toUpperCase() : text, inputTokens: 3, outputTokens: 2 }),
    );
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

/** A waver.yaml naming `providers` and one model: a spec string, or the object form's YAML lines. */
function config(
  name: string,
  providers: string[],
  model: string | string[] = `httpecho:small@${service.origin}`,
): string {
  const file = join(dir, name);
  const list = providers.map((p) => `  - ${JSON.stringify(p)}\n`).join('');
  const entry = typeof model === 'string' ? model : model.join('\n    ');
  writeFileSync(
    file,
    `${providers.length ? `providers:\n${list}` : ''}models:\n  - ${entry}\nsuite: suite.jsonl\n`,
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
    expect(r.stderr).toMatch(
      /unknown model provider in 'httpecho:small@\S+': expected one of openai:, anthropic:, gguf:, replay:$/m,
    );
  });

  it('an unknown prefix beside it names the registered one too', async () => {
    const r = await run(config('typo.yaml', [descriptor], 'httpeco:small'), 'typo.db');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/expected one of openai:, anthropic:, gguf:, replay:, httpecho:$/m);
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

describe("a registered provider's own spec fields", () => {
  const voiced = (voice: string) => [
    'provider: httpecho',
    'model: loudly',
    `baseURL: ${service.origin}`,
    `voice: ${voice}`,
  ];

  it('its field (one no built-in has) is read from the object form and reaches its factory', async () => {
    const r = await run(config('voice.yaml', [descriptor], voiced('loud')), 'voice.db');
    expect(r.stderr).not.toMatch(/waver:/);
    expect(r.code).toBe(0);
    const posts = service.requests.filter(
      (s) => s.method === 'POST' && JSON.parse(s.body).model === 'loudly',
    );
    expect(posts.map((s) => JSON.parse(s.body).voice)).toEqual(['loud', 'loud']);
    const summary = JSON.parse(r.stdout) as { models: { coverage: { done: number } }[] };
    expect(summary.models[0]?.coverage.done).toBe(2);
  });

  it('a bad value is exit 2 naming the file, line and field, with nothing written', async () => {
    const file = config('shout.yaml', [descriptor], voiced('shout'));
    const r = await run(file, 'shout.db');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`waver: ${file}:7: models.0.voice: must be plain or loud`);
    expect(existsSync(join(dir, 'shout.db'))).toBe(false);
  });

  it("another provider's field is unknown to it, and its own to a built-in", async () => {
    const own = await run(
      config('ctx.yaml', [descriptor], ['provider: httpecho', 'model: m', 'contextSize: 4096']),
      'ctx.db',
    );
    expect(own.code).toBe(2);
    expect(own.stderr).toMatch(/ctx\.yaml:6: models\.0\.contextSize: unknown field/);
    const builtin = await run(
      config('openai-voice.yaml', [descriptor], ['provider: openai', 'model: m', 'voice: loud']),
      'openai-voice.db',
    );
    expect(builtin.code).toBe(2);
    expect(builtin.stderr).toMatch(/openai-voice\.yaml:6: models\.0\.voice: unknown field/);
  });
});
