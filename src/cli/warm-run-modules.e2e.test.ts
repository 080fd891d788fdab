import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';

/**
 * A run loads what it runs and no more (docs/decisions.md#e41-a-warm-run-loads-what-it-runs): the
 * charts' vega, the local runtime and the providers' SDKs cost a warm run (every cell cached) more
 * CPU than its work. A module hook in the CLI's process writes down every package it loads.
 */

// charting.mjs: vega and vega-lite as the CLI imports them, one prebuilt file beside its bundle.
const HEAVY = [
  'charting.mjs',
  'vega',
  'vega-lite',
  'node-llama-cpp',
  'openai',
  '@anthropic-ai/sdk',
  'hyparquet',
];

let server: FaultServer;
const dir = mkdtempSync(join(tmpdir(), 'waver-modules-'));

beforeAll(async () => {
  assertBuilt();
  server = await startFaultServer({ faultRate: 0, seed: 1 });
});
afterAll(() => server.close());

/** The packages (bare specifiers) the CLI imported or required while running `args`, and how many requests in all. */
async function packagesLoaded(
  args: string[],
): Promise<{ code: number | null; packages: Set<string>; modules: number }> {
  const log = join(dir, `imports-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  // The CLI's bundle is CommonJS: its packages come through require(), and the ES-module packages
  // (node-llama-cpp; vega as dist/bin/charting.mjs) through import(); a preload logs the first, a
  // module hook the second.
  const preload = join(dir, 'preload.cjs');
  writeFileSync(
    preload,
    `const M = require('node:module'); const { appendFileSync } = require('node:fs');
const resolve = M._resolveFilename;
M._resolveFilename = function (request, ...rest) {
  if (!/^node:|^[./]/.test(request) && !M.isBuiltin(request)) appendFileSync(${JSON.stringify(log)}, request + '\\n');
  return resolve.call(this, request, ...rest);
};`,
  );
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
export async function resolve(specifier, context, next) {
  if (/\\/charting\\.mjs$/.test(specifier)) appendFileSync(${JSON.stringify(log)}, 'charting.mjs\\n');
  else if (!/^node:|^file:|^data:|^[./]/.test(specifier) && !isBuiltin(specifier)) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
  return next(specifier, context);
}`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const r = await runCli(args, {
    env: cleanEnv({ NODE_OPTIONS: `--require ${preload} --import ${pathToFileURL(register).href}` }),
  });
  const specifiers = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(
    specifiers.map((s) =>
      s
        .split('/')
        .slice(0, s.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
  );
  return { code: r.code, packages, modules: specifiers.length };
}

it('a warm run of a plain suite loads none of the charts, the local runtime or the SDKs', async () => {
  const suite = join(dir, 'suite.jsonl');
  writeFileSync(suite, ['a', 'b', 'c'].map((p, i) => JSON.stringify({ id: `t${i}`, prompt: p })).join('\n'));
  const args = ['run', '--suite', suite, '--models', `openai:m@${server.url}`, '--store', join(dir, 's.db')];
  expect((await runCli(args)).code).toBe(0);
  const before = server.requests();
  const warm = await packagesLoaded(args);
  expect(warm.code).toBe(0);
  expect(server.requests()).toBe(before);
  // The hook sees the CLI's own packages: an empty list would mean it saw nothing.
  expect(warm.packages).toContain('better-sqlite3');
  expect(HEAVY.filter((p) => warm.packages.has(p))).toEqual([]);
  // ... and it sees the charts where a command draws them: an HTML report of the same store.
  const report = await packagesLoaded(['report', '--store', join(dir, 's.db'), '--out', join(dir, 'r.html')]);
  expect(report.code).toBe(0);
  expect(report.packages).toContain('charting.mjs');
}, 120_000);

it('--version loads no command (it printed in 0.74 s when it loaded them all)', async () => {
  const version = await packagesLoaded(['--version']);
  const help = await packagesLoaded(['--help']);
  expect([version.code, help.code]).toEqual([0, 0]);
  // Help loads every command's module and their packages; the version is a constant.
  expect(version.modules).toBeLessThan(help.modules / 2);
  expect(help.packages.has('better-sqlite3') && !version.packages.has('better-sqlite3')).toBe(true);
}, 60_000);

it("a warm run loads none of Node's built-in modules it does not use (E84)", async () => {
  const suite = join(dir, 'builtins.jsonl');
  writeFileSync(suite, JSON.stringify({ id: 't0', prompt: 'a' }));
  const args = ['run', '--suite', suite, '--models', `openai:m@${server.url}`, '--store', join(dir, 'b.db')];
  expect((await runCli(args)).code).toBe(0);
  const list = join(dir, 'builtins.txt');
  const preload = join(dir, 'builtins.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));`,
  );
  const warm = await runCli(args, { env: cleanEnv({ NODE_OPTIONS: `--require ${preload}` }) });
  expect(warm.code).toBe(0);
  const loaded = new Set(readFileSync(list, 'utf8').split('\n'));
  // The modules' own names: an empty list would pass any "not loaded".
  expect(loaded).toContain('NativeModule vm');
  // commander's executable subcommands (child_process, with dgram), the global `performance`
  // (perf_hooks) and an ES-module entry (the ES-module loader's jobs): each costs milliseconds at
  // every start.
  const unused = ['child_process', 'dgram', 'perf_hooks', 'internal/modules/esm/module_job'];
  expect(unused.filter((m) => loaded.has(`NativeModule ${m}`))).toEqual([]);
}, 60_000);
