import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { repoRoot, tinyModelMissing } from '../test-support/shared.js';

/**
 * The openai Python SDK against `waver serve` over the tiny model: bench/clients/openai-python.py
 * makes some 65 calls (models, chat with n, log-probs, streams, `parse`, tools under every
 * `tool_choice`, completions with prompt lists and token ids, echo, embeddings, responses with
 * `parse` and tools, the tokenizer routes) and checks each answer. Skips with the reason where
 * `openai` is not importable (`pip install openai`; WAVER_PYTHON names the interpreter).
 */
const PYTHON = process.env.WAVER_PYTHON ?? 'python3';
const sdkMissing =
  spawnSync(PYTHON, ['-c', 'import openai, pydantic'], { encoding: 'utf8' }).status === 0
    ? undefined
    : `skipped: the openai Python package is not importable by ${PYTHON} (pip install openai, or set WAVER_PYTHON)`;
const missing = tinyModelMissing ?? sdkMissing;

describe.skipIf(missing !== undefined)(`the openai Python SDK against waver serve ${missing ?? ''}`, () => {
  const tiny = servedTinyModel(512);

  it('every call answered as the SDK expects', async () => {
    const script = join(repoRoot, 'bench', 'clients', 'openai-python.py');
    const run = spawn(PYTHON, [script, tiny.server.url, 'tiny'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    run.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    run.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
    const summary = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(summary.failed, stderr.slice(-2000)).toEqual([]);
    expect(code).toBe(0);
    expect(summary.calls).toBeGreaterThanOrEqual(60);
  }, 240_000);
});
