import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv } from './test-support/cli/cli.js';

/**
 * waver as a dependency, the way a user gets it: `npm pack`, the tarball unpacked into a fresh
 * project's node_modules (offline: its dependencies are linked from this checkout's node_modules,
 * only those package.json lists), then docs/protocols.md's library example run as written, the
 * same example compiled as TypeScript with `strict: true`, and a TypeScript consumer type-checked
 * against the published .d.ts without skipLibCheck.
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const tar = spawnSync('tar', ['--version'], { encoding: 'utf8' });
const missing = npm.status !== 0 ? 'npm' : tar.status !== 0 ? 'tar' : undefined;
const why = missing ? ` (skipped: no ${missing} on PATH to pack and unpack the tarball)` : '';

/** The code block after `<!-- library-example: NAME -->` in docs/protocols.md. */
function libraryExample(): { name: string; code: string } {
  const doc = readFileSync(join(repo, 'docs/protocols.md'), 'utf8');
  const m = /<!-- library-example: (\S+) -->\n```js\n([\s\S]*?)\n```/.exec(doc);
  if (!m) throw new Error('docs/protocols.md has no library example');
  return { name: m[1] as string, code: m[2] as string };
}

let project = '';

/** tsc on one file of the consumer project: strict, Node's ES modules, the packed .d.ts read whole. */
function tsc(file: string): SpawnSyncReturns<string> {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(repo, 'node_modules/@types')],
      },
      files: [file],
    }),
  );
  return spawnSync(join(repo, 'node_modules/.bin/tsc'), ['-p', project], { cwd: project, encoding: 'utf8' });
}

beforeAll(() => {
  if (missing) return;
  assertBuilt();
  project = mkdtempSync(join(tmpdir(), 'waver-consumer-'));
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', project, '--json'], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  const modules = join(project, 'node_modules');
  mkdirSync(modules);
  const untar = spawnSync('tar', ['-xzf', join(project, filename), '-C', modules]);
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  renameSync(join(modules, 'package'), join(modules, 'waver'));
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const dep of Object.keys(manifest.dependencies)) {
    mkdirSync(dirname(join(modules, dep)), { recursive: true });
    symlinkSync(join(repo, 'node_modules', dep), join(modules, dep), 'dir');
  }
  writeFileSync(join(project, 'package.json'), '{"name": "consumer", "private": true, "type": "module"}\n');
}, 60_000);

describe(`waver installed from its packed tarball${why}`, () => {
  it.skipIf(missing !== undefined)(
    "runs docs/protocols.md's library example as written",
    () => {
      const { name, code } = libraryExample();
      writeFileSync(join(project, name), `${code}\n`);
      const r = spawnSync(process.execPath, [name], { cwd: project, env: cleanEnv(), encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe('calls: 8');
      expect(lines[1]).toMatch(
        /^openai:always-b@http:\/\/127\.0\.0\.1:\d+\/v1: SAA 0\.\d\d \[0\.\d\d, \d\.\d\d\] over 4 items/,
      );
      expect(lines[2]).toBe('complete: true');
      // summary() is awaited: the tables, not a Promise.
      expect(lines[3]).toMatch(/^summary: \d{2,} lines of Markdown$/);
      expect(lines[4]).toMatch(/^rejected: models\.0\.rpm: \S/);
    },
    60_000,
  );

  it.skipIf(missing !== undefined)(
    "compiles docs/protocols.md's library example as TypeScript with strict: true (issue 37.8)",
    () => {
      const { code } = libraryExample();
      writeFileSync(join(project, 'example.ts'), `${code}\n`);
      const r = tsc('example.ts');
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    },
    60_000,
  );

  it.skipIf(missing !== undefined)(
    'carries the default ladder suite: a plain suite build from the installed package is the reviewed dataset',
    () => {
      const cli = join(project, 'node_modules', 'waver', 'dist', 'cli', 'main.js');
      const out = join(project, 'default-suite.jsonl');
      const args = [cli, 'suite', 'build', '--protocol', 'ladder', '--seeds', '2', '--out', out];
      const r = spawnSync(process.execPath, args, { cwd: project, env: cleanEnv(), encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/generator: reviewed dataset ladder-default v2/);
      const tests = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(tests.filter((t) => t.generator?.kind === 'reviewed').length).toBeGreaterThan(20);
    },
    60_000,
  );

  it.skipIf(missing !== undefined)(
    'type-checks a TypeScript consumer against the published .d.ts, skipLibCheck off (no TS7016)',
    () => {
      writeFileSync(
        join(project, 'consumer.ts'),
        [
          "import { InputError, openStore, paraphraseProtocol, validateConfig, type WaverConfig } from 'waver';",
          "const config: WaverConfig = validateConfig({ models: ['openai:gpt-4o-mini'] });",
          'const store = openStore(config.store, { readonly: true });',
          'store.close();',
          'export const plan = paraphraseProtocol.build(config);',
          "export const field: string | undefined = new InputError('x', { field: 'f' }).field;",
          '// @ts-expect-error the CLI commands are not part of the library',
          'export const commands = paraphraseProtocol.commands;',
          '',
        ].join('\n'),
      );
      const r = tsc('consumer.ts');
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    },
    60_000,
  );
});
