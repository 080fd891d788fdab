import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';
import { validate } from '../test-support/json-schema.js';
import { repoRoot } from '../test-support/shared.js';

/**
 * `waver export --format inspect` through the CLI on a ladder run against a loopback server: one
 * inspect_ai eval log per suite x model, each valid against inspect_ai's published schema, its
 * samples carrying the protocol's fields (docs/report.md#inspect).
 */

const SCHEMA = JSON.parse(
  readFileSync(join(repoRoot, 'src/test-support/run/inspect/log-schema.json'), 'utf8'),
) as Record<string, unknown>;

/** Why inspect_ai's own reader cannot be run here, or undefined when python3 imports it. */
function inspectMissing(): string | undefined {
  try {
    execFileSync('python3', ['-c', 'import inspect_ai.log'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return '(skipped: python3 cannot import inspect_ai: pip install inspect_ai)';
  }
}
const noInspect = inspectMissing();

/** What the test reads of a log. */
interface InspectLog {
  status: string;
  eval: { task: string; model: string };
  results: { total_samples: number; scores: unknown[] };
  samples: { epoch: number; metadata: Record<string, unknown>; output: { completion: string } }[];
}

let server: FaultServer;
let dir: string;
let logs: string;
beforeAll(async () => {
  assertBuilt();
  server = await startFaultServer({ faultRate: 0, seed: 3 });
  dir = mkdtempSync(join(tmpdir(), 'waver-inspect-e2e-'));
  logs = join(dir, 'logs');
  const models = [`openai:a@${server.url}`, `openai:b@${server.url}`].join(',');
  const run = await runCli(['ladder', '--models', models, '--seeds', '1', '--store', 'store.db'], {
    cwd: dir,
  });
  expect(run.code, run.stderr).toBe(0);
}, 120_000);
afterAll(() => server?.close());

describe('waver export --format inspect', () => {
  it("writes one log per suite x model into --out, each valid against inspect_ai's schema, samples with the protocol's fields", async () => {
    const r = await runCli(['export', '--store', 'store.db', '--format', 'inspect', '--out', logs], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const files = readdirSync(logs).sort();
    expect(r.stderr).toContain(`wrote ${files.length} inspect log(s) to ${logs}`);
    const read = files.map((f) => JSON.parse(readFileSync(join(logs, f), 'utf8')) as InspectLog);
    for (const log of read) expect(validate(SCHEMA, log)).toEqual([]);
    const models = read.map((l) => `${l.eval.task} ${l.eval.model}`);
    // Each suite of the run, once per model it holds.
    expect(new Set(models).size).toBe(models.length);
    const sut = read.filter(
      (l) => /^openai:[ab]@/.test(l.eval.model) && l.samples.some((s) => s.metadata.family),
    );
    expect(sut.map((l) => l.eval.model.split('@')[0]).sort()).toEqual(['openai:a', 'openai:b']);
    const a = sut[0] as InspectLog;
    const sample = a.samples[0] as InspectLog['samples'][0];
    expect(a.status).toBe('success');
    expect(a.results.total_samples).toBe(a.samples.length);
    // The test's meta as the protocol stored it (the ladder's family and levels), with the repeat.
    expect(sample.metadata).toMatchObject({
      family: 'baseline',
      requestedLevel: 0,
      measuredLevel: 0,
      repeat: 0,
    });
    // The ladder grades number answers: the echo is wrong, so accuracy is a real 0 of graded cells.
    expect(a.results.scores[0]).toMatchObject({ name: 'ladder', metrics: { accuracy: { value: 0 } } });
    expect(sample.output.completion).toMatch(/^echo: /);
    expect(sample.epoch).toBe(1);
  }, 60_000);

  it('refuses an unknown format and an inspect export without --out (exit 2), writing nothing', async () => {
    const bad = await runCli(['export', '--store', 'store.db', '--format', 'csv'], { cwd: dir });
    expect([bad.code, bad.stderr.trim()]).toEqual([
      2,
      "waver: --format: unknown format 'csv' (expected jsonl or inspect)",
    ]);
    const noOut = await runCli(['export', '--store', 'store.db', '--format', 'inspect'], { cwd: dir });
    expect([noOut.code, noOut.stderr.trim()]).toEqual([
      2,
      'waver: --out: --format inspect writes one file per eval: name their directory with --out',
    ]);
    expect(noOut.stdout).toBe('');
  }, 60_000);

  it.skipIf(noInspect)(
    `is read by inspect_ai's own read_eval_log ${noInspect ?? ''}`,
    async () => {
      const out = join(dir, 'read');
      expect(
        (await runCli(['export', '--store', 'store.db', '--format', 'inspect', '--out', out], { cwd: dir }))
          .code,
      ).toBe(0);
      const script = [
        'import sys, os',
        'from inspect_ai.log import read_eval_log',
        'for f in sorted(os.listdir(sys.argv[1])):',
        '    log = read_eval_log(os.path.join(sys.argv[1], f))',
        '    print(log.eval.model, log.status, len(log.samples))',
      ].join('\n');
      const printed = execFileSync('python3', ['-c', script, out], { encoding: 'utf8' });
      expect(printed.trim().split('\n')).toHaveLength(readdirSync(out).length);
      expect(printed).toMatch(/openai:a@\S+ success \d+/);
    },
    60_000,
  );
});
