import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { type LoopbackHub, parquetOf, startLoopbackHub } from '../../test-support/hub/loopback-hub.js';
import { sharedHubMissing, sharedHubRepos } from '../../test-support/hub/shared-hub.js';
import { closedPort } from '../../test-support/models/loopback.js';

beforeAll(assertBuilt);

/** The dry run needs a model to estimate for; the fake key is never sent anywhere. */
const DRY = ['--models', 'openai:gpt-4o-mini', '--seeds', '5', '--families', 'SV', '--dry-run'];

describe.skipIf(sharedHubMissing)(
  `waver ladder --dataset hf:... against a loopback Hub ${sharedHubMissing ? `(skipped: ${sharedHubMissing} missing)` : ''}`,
  () => {
    let hub: LoopbackHub;
    beforeAll(async () => {
      hub = await startLoopbackHub(await sharedHubRepos(['openai/gsm8k']));
    });
    afterAll(() => hub.close());

    it('HF_ENDPOINT at the hub: hf:openai/gsm8k --seeds 5 --dry-run resolves 5 seeds, downloading once', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-hub-e2e-'));
      const env = cleanEnv({
        HF_ENDPOINT: hub.origin,
        WAVER_CACHE_DIR: join(dir, 'cache'),
        OPENAI_API_KEY: 'sk-test',
      });
      const r = await runCli(['ladder', '--dataset', 'hf:openai/gsm8k', ...DRY], { cwd: dir, env });
      expect(r.stderr).toContain('ladder: building the suite from 5 seeds (rules generator)');
      expect(r.stderr).toMatch(/downloading hf:openai\/gsm8k\/main\/test-00000-of-00001\.parquet: 100%/);
      expect(r.code).toBe(0);
      expect(hub.requests.map((q) => q.url.split('?')[0])).toEqual([
        '/api/datasets/openai/gsm8k/revision/main',
        `/api/datasets/openai/gsm8k/tree/${hub.commitOf('openai/gsm8k')}`,
        `/datasets/openai/gsm8k/resolve/${hub.commitOf('openai/gsm8k')}/main/test-00000-of-00001.parquet`,
        expect.stringMatching(/^\/cdn\/openai\/gsm8k\/[0-9a-f]{64}$/),
      ]);
      hub.requests.length = 0;
      const again = await runCli(['ladder', '--dataset', 'gsm8k', ...DRY], { cwd: dir, env });
      expect(again.stderr).toContain('ladder: building the suite from 5 seeds (rules generator)');
      expect(again.code).toBe(0);
      expect(hub.requests).toHaveLength(1); // the revision; the file is in the cache
    });
  },
);

describe('waver ladder with a local Parquet file and offline', () => {
  it('a local Parquet file with GSM8K columns works as --dataset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-pq-e2e-'));
    const rows = Array.from({ length: 6 }, (_, i) => ({
      question: `Sam has ${i + 2} marbles and finds 3 more. How many marbles does Sam have?`,
      answer: `${i + 2}+3=${i + 5}\n#### ${i + 5}`,
    }));
    writeFileSync(join(dir, 'test-00000-of-00001.parquet'), await parquetOf(rows));
    const r = await runCli(['ladder', '--dataset', 'test-00000-of-00001.parquet', ...DRY], {
      cwd: dir,
      env: cleanEnv({ OPENAI_API_KEY: 'sk-test' }),
    });
    expect(r.stderr).toContain('ladder: building the suite from 5 seeds (rules generator)');
    expect(r.code).toBe(0);
  });

  it('no WAVER_DATA_DIR and no reachable hub: --dataset gsm-symbolic exits 2 naming apple/GSM-Symbolic', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-offline-e2e-'));
    const port = await closedPort();
    const r = await runCli(['ladder', '--dataset', 'gsm-symbolic', ...DRY], {
      cwd: dir,
      env: cleanEnv({
        HF_ENDPOINT: `http://127.0.0.1:${port}`,
        WAVER_CACHE_DIR: join(dir, 'cache'),
        OPENAI_API_KEY: 'sk-test',
      }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/apple\/GSM-Symbolic/);
    expect(r.stderr).toMatch(/--dataset FILE/);
    expect(r.stderr).not.toMatch(/shared/);
    expect(existsSync(join(dir, '.waver'))).toBe(false);
  });
});
