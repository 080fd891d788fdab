import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { repoRoot, tinyModelMissing } from '../test-support/shared.js';

/**
 * LangChain JS and the Vercel AI SDK against `waver serve` over the tiny model:
 * bench/clients/langchain.mjs and ai-sdk.mjs make each call their clients offer (chat, streams,
 * structured output, a tool loop that must end, embeddings, completions; the AI SDK's default
 * `openai()` through /v1/responses) and check each result. Skips with the reason where the clients
 * are not installed (they live apart from waver's own dependencies).
 */
const clients = join(repoRoot, 'bench', 'clients');
const installed = (pkg: string) =>
  existsSync(join(clients, 'node_modules', ...pkg.split('/'), 'package.json'));
const INSTALL = 'npm --prefix bench/clients ci';

function skipReason(packages: string[]): string | undefined {
  const absent = packages.filter((p) => !installed(p));
  return (
    tinyModelMissing ??
    (absent.length ? `skipped: ${absent.join(', ')} not installed (${INSTALL})` : undefined)
  );
}

async function runScript(script: string, url: string) {
  const run = spawn(process.execPath, [join(clients, script), url, 'tiny'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  run.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  run.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
  return { code, stdout, stderr, summary: JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') };
}

const cases = [
  { script: 'langchain.mjs', packages: ['@langchain/openai', '@langchain/core'], calls: 12 },
  { script: 'ai-sdk.mjs', packages: ['ai', '@ai-sdk/openai'], calls: 18 },
];

for (const { script, packages, calls } of cases) {
  const missing = skipReason(packages);
  describe.skipIf(missing !== undefined)(`${script} against waver serve ${missing ?? ''}`, () => {
    const tiny = servedTinyModel(512);

    it('every call answered and checked', async () => {
      const { code, stdout, stderr, summary } = await runScript(script, tiny.server.url);
      expect(summary.failed, `${stdout}\n${stderr.slice(-2000)}`).toEqual([]);
      expect(summary.calls).toBe(calls);
      expect(summary.passed).toBe(calls);
      expect(code).toBe(0);
    }, 240_000);
  });
}
