import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../test-support/cli/cli.js';

beforeAll(assertBuilt);

describe('waver demo offline', () => {
  it('says where its model comes from: WAVER_MODEL or --model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-demo-offline-'));
    // Port 9 (discard) on loopback: nothing answers, as offline.
    const env = cleanEnv({ HF_ENDPOINT: 'http://127.0.0.1:9', WAVER_CACHE_DIR: join(dir, 'cache') });
    const r = await runCli(['demo', '--store', join(dir, 'store.db')], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^waver: could not download hf:Qwen\//);
    expect(r.stderr).toContain(
      'for the demo, set WAVER_MODEL=gguf:/path/to/file.gguf or pass --models gguf:/path/to/file.gguf',
    );
    expect(r.stderr).not.toMatch(/internal error/);
  }, 60_000);
});
