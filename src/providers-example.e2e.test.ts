import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv } from './test-support/cli/cli.js';
import { startLoopback } from './test-support/models/loopback.js';
import { scratchDir } from './test-support/scratch.js';
import { repoRoot } from './test-support/shared.js';

/**
 * docs/providers.md's example, run as a library user runs it: its code block, with `'waver'` read
 * as the built package, in a process of its own, against a service on loopback. A user-supplied
 * provider runs a plain suite and a protocol through the library API.
 */

const dir = scratchDir('waver-providers-example-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function exampleModule(): string {
  const doc = readFileSync(resolve(repoRoot, 'docs/providers.md'), 'utf8');
  const block = /```js\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/providers.md has no js example');
  const waver = pathToFileURL(resolve(repoRoot, 'dist/index.js')).href;
  const file = join(dir, 'example.mjs');
  writeFileSync(file, block.replace("from 'waver'", `from '${waver}'`));
  return file;
}

function runNode(
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [file], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe("docs/providers.md's example", () => {
  it('runs a plain suite and the paraphrase protocol on a registered provider, stored and cached by its identity', async () => {
    assertBuilt();
    const service = await startLoopback((_req, res, seen) => {
      const asked = JSON.parse(seen.body) as { model: string; messages: { content: string }[] };
      expect(asked.model).toBe('small');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'A', inputTokens: 7, outputTokens: 1 }));
    });
    try {
      const file = exampleModule();
      const env = cleanEnv({ MYSERVICE_URL: service.origin, WAVER_STORE: join(dir, 'store.db') });
      const first = await runNode(file, env);
      expect(first.code, first.stderr).toBe(0);
      const [plain, paraphrase] = first.stdout.trim().split('\n');
      expect(plain).toBe('myservice:small: 2 of 2 cells done');
      expect(paraphrase).toMatch(/^paraphrase: complete true, SAA \{"value":[0-9.]+,/);
      // 2 plain cells, then 2 items x 5 phrasings x 2 repeats.
      expect(service.requests.filter((r) => r.url === '/generate')).toHaveLength(2 + 20);

      // The same again: every answer is in the store under the provider's identity, so none is asked.
      const again = await runNode(file, env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toBe(first.stdout);
      expect(service.requests).toHaveLength(22);
    } finally {
      await service.close();
    }
  }, 120_000);
});
