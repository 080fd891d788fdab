import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../test-support/cli/cli.js';
import { tinyModelPath } from '../test-support/shared.js';

/**
 * Every protocol run ends with its next steps, one line each on stderr (issue 37 item 7): the
 * report of the store it wrote and a gate on it; a dry run, which writes nothing, does not.
 */

const env = cleanEnv();
const dir = mkdtempSync(join(tmpdir(), 'waver-next-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(assertBuilt);

describe.skipIf(tinyModelPath === undefined)('the end of a run', () => {
  it('names the report and check commands for the store it wrote, and the check passes', async () => {
    const store = join(dir, 'my store.db');
    const args = ['--models', `gguf:${tinyModelPath}`, '--limit', '2', '--repeats', '1', '--max-tokens', '4'];
    const r = await runCli(['paraphrase', ...args, '--store', store], { cwd: dir, env });
    expect(r.code).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.slice(-2)).toEqual([
      `next: waver report --store '${store}'   # the HTML report`,
      `next: waver check --store '${store}' --min-coverage 0.9   # a CI gate`,
    ]);
    // The gate it names runs on what the run wrote.
    const check = await runCli(['check', '--store', store, '--min-coverage', '0.9'], { cwd: dir, env });
    expect(check.code).toBe(0);
    const dry = await runCli(['paraphrase', ...args, '--store', store, '--dry-run'], { cwd: dir, env });
    expect(dry.code).toBe(0);
    expect(dry.stderr).not.toContain('next: ');
  }, 120_000);
});
