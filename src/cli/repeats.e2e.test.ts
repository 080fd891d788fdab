import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';
import { scratchDir, writeSuite } from '../test-support/scratch.js';

/**
 * A suite line's `repeats` and `--repeats` are bounded, and a line's own wins
 * (docs/decisions.md#e38-repeats-are-bounded-a-lines-own-wins): a billion repeats is bad input,
 * not a run that calls until it is killed. The loopback server counts what reached it.
 */

beforeAll(assertBuilt);

/** A test's directory with its waver.yaml. */
function workdir(yaml = ''): string {
  const dir = scratchDir('waver-repeats-');
  writeFileSync(join(dir, 'waver.yaml'), yaml);
  return dir;
}

describe('repeats are bounded', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer({ faultRate: 0, seed: 1 });
  });
  afterAll(() => server.close());

  it('a suite line asking a billion repeats is bad input naming file, line and field; nothing called', async () => {
    const dir = workdir();
    const suite = writeSuite(dir, [
      { id: 'a', prompt: 'x' },
      { id: 'b', prompt: 'y', repeats: 1_000_000_000 },
    ]);
    const store = join(dir, 'store.db');
    const r = await runCli(
      ['run', '--suite', suite, '--models', `openai:fault@${server.url}`, '--store', store],
      {
        cwd: dir,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `waver: ${suite}:2: repeats: 1000000000 is above the limit of 1000 (maxRepeats in waver.yaml raises it)`,
    );
    expect(server.requests()).toBe(0);
    expect(existsSync(store)).toBe(false);
  });

  it('--repeats above the limit is bad input too', async () => {
    const dir = workdir();
    const suite = writeSuite(dir, [{ id: 't0', prompt: 'q0' }]);
    const r = await runCli(
      ['run', '--suite', suite, '--models', `openai:fault@${server.url}`, '--repeats', '1001'],
      { cwd: dir },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'waver: repeats: 1001 is above the limit of 1000 (maxRepeats in waver.yaml raises it)',
    );
  });

  it("a protocol's own repeats setting is bounded too, its line in waver.yaml named", async () => {
    const dir = workdir('paraphrase:\n  limit: 2\n  repeats: 5000\n');
    const r = await runCli(['paraphrase', '--models', `openai:fault@${server.url}`], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'waver: waver.yaml:3: paraphrase.repeats: 5000 is above the limit of 1000 (maxRepeats in waver.yaml raises it)',
    );
    expect(server.requests()).toBe(0);
    expect(existsSync(join(dir, '.waver'))).toBe(false);
  });

  it('maxRepeats raises the limit; a line’s own repeats wins over --repeats', async () => {
    const dir = workdir('maxRepeats: 2000\n');
    const suite = writeSuite(dir, [
      { id: 'many', prompt: 'x', repeats: 1500 },
      { id: 'own', prompt: 'y', repeats: 3 },
      { id: 'flag', prompt: 'z' },
    ]);
    const r = await runCli(
      [
        ...['run', '--suite', suite, '--models', `openai:fault@${server.url}`],
        ...['--repeats', '2', '--dry-run', '--format', 'json'],
      ],
      { cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { models } = JSON.parse(r.stdout) as { models: { cells: number }[] };
    expect(models[0]?.cells).toBe(1500 + 3 + 2);
  });
});
