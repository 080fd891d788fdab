import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, cliPath, queryStore, runCli } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';
import { repoRoot } from '../test-support/shared.js';
import { type SlurmCluster, slurmMissing, startSlurm } from '../test-support/slurm.js';

/**
 * docs/scaling.md's Slurm scripts on a real single-node Slurm started here (munged, slurmctld,
 * slurmd as root, every file in a temporary directory): the shards as a 3-task array with
 * `--shard auto`, the merge as a job depending on it, against a loopback server. The merged store
 * holds the cells and answers of one unsharded run (docs/decisions.md E48, E19, E20).
 */

const missing = slurmMissing();
const cluster: SlurmCluster | { failed: string } = missing ? { failed: missing } : await startSlurm();
const skipped = 'failed' in cluster ? cluster.failed : undefined;
if (skipped && !missing) console.warn(`slurm-shards: Slurm did not start: ${skipped}`);
const exec = promisify(execFile);

const doc = readFileSync(resolve(repoRoot, 'docs/scaling.md'), 'utf8');
const block = (name: string) =>
  new RegExp(`\`\`\`\\w+ ${name.replace('.', '\\.')}\\n([\\s\\S]*?)\\n\`\`\``).exec(doc)?.[1] ?? '';

let server: FaultServer;
beforeAll(async () => {
  assertBuilt();
  server = await startFaultServer({ faultRate: 0, seed: 7 });
});
afterAll(async () => {
  await server?.close();
  if (!('failed' in cluster)) await cluster.stop();
});

/** Every cell with its answer, in a stable order: what one run and the merged shards must share. */
function cellsOf(store: string) {
  return queryStore(
    store,
    `SELECT c.suite_hash, c.model_identity, c.test_id, c.repeat, c.status, r.text
     FROM cells c LEFT JOIN responses r ON r.key = c.response_key ORDER BY 1, 2, 3, 4`,
  );
}

/**
 * Waits until Slurm holds none of `jobs` (120 s at most); what it still holds, a job whose
 * dependency failed (`DependencyNeverSatisfied`: a shard exited non-zero) at once.
 */
async function jobsLeft(env: Record<string, string>, jobs: string[]): Promise<string[]> {
  let rows: string[] = [];
  for (let waited = 0; waited < 120_000; waited += 1_000) {
    const q = await exec('squeue', ['-h', '-j', jobs.join(','), '-o', '%i %T %r'], { env });
    rows = q.stdout.trim().split('\n').filter(Boolean);
    if (rows.length === 0 || rows.some((r) => r.includes('DependencyNeverSatisfied'))) return rows;
    await new Promise((done) => setTimeout(done, 1_000));
  }
  return rows;
}

describe.skipIf(skipped)(`waver on a real Slurm ${skipped ?? ''}`, () => {
  it('a 3-task array of --shard auto (--array=1-3) and a dependent merge job equal one unsharded run', async () => {
    const { env } = cluster as SlurmCluster;
    const dir = mkdtempSync(join(tmpdir(), 'waver-slurm-job-'));
    const lines = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({ id: `q${i}`, prompt: `question ${i}` }),
    );
    writeFileSync(join(dir, 'suite.jsonl'), `${lines.join('\n')}\n`);
    for (const f of ['shards.sbatch', 'merge.sbatch']) writeFileSync(join(dir, f), `${block(f)}\n`);
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'waver'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`);
    chmodSync(join(dir, 'bin', 'waver'), 0o755);
    const models = `openai:m@${server.url}`;
    // sbatch hands the submitter's environment to the jobs: the waver on PATH, MODELS, SLURM_CONF.
    const jobEnv = { ...env, PATH: `${join(dir, 'bin')}:${env.PATH}`, HOME: dir, MODELS: models };
    const sbatch = (args: string[]) => exec('sbatch', args, { cwd: dir, env: jobEnv });

    // docs/scaling.md's submit.sh, the array from 1 (SLURM_ARRAY_TASK_MIN 1).
    const shards = (await sbatch(['--parsable', '--array=1-3', 'shards.sbatch'])).stdout.trim();
    const merge = (
      await sbatch(['--parsable', `--dependency=afterok:${shards}`, 'merge.sbatch'])
    ).stdout.trim();
    const left = await jobsLeft(env, [shards, merge]);
    const outputs = readdirSync(dir)
      .filter((f) => f.startsWith('slurm-'))
      .sort();
    const said = outputs.map((f) => `${f}: ${readFileSync(join(dir, f), 'utf8').trim()}`).join('\n');
    console.log(
      `sbatch --array=1-3 shards.sbatch (job ${shards}), then merge.sbatch (job ${merge}):\n${said}`,
    );
    expect(left, said).toEqual([]);
    // Each task ran the shard its array index says, its summary naming it.
    for (const [task, k, tests] of [
      [1, 1, 10],
      [2, 2, 10],
      [3, 3, 10],
    ] as const)
      expect(readFileSync(join(dir, `slurm-${shards}_${task}.out`), 'utf8')).toContain(
        `shard ${k}/3: ${tests} tests`,
      );
    expect(readdirSync(join(dir, 'stores')).sort()).toEqual(['shard-1.db', 'shard-2.db', 'shard-3.db']);
    expect(server.requests()).toBe(90);

    const whole = join(dir, 'whole.db');
    const one = await runCli(
      ['run', '--suite', 'suite.jsonl', '--models', models, '--repeats', '3', '--store', whole],
      { cwd: dir },
    );
    expect(one.code, one.stderr).toBe(0);
    const merged = cellsOf(join(dir, 'store.db'));
    expect(merged).toHaveLength(90);
    expect(merged).toEqual(cellsOf(whole));
    // Each shard asked each of its cells once: every prompt 3 times there and 3 times in the single run.
    expect(new Set(server.requestsByPrompt().values())).toEqual(new Set([6]));
  }, 180_000);
});

describe('--shard auto outside a scheduler', () => {
  it('is refused, exit 2, naming the variable, with nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-shard-auto-'));
    writeFileSync(join(dir, 'suite.jsonl'), `${JSON.stringify({ id: 'q', prompt: 'question' })}\n`);
    const args = ['run', '--suite', 'suite.jsonl', '--models', `openai:m@${server.url}`, '--shard', 'auto'];
    const none = await runCli(args, { cwd: dir });
    expect([none.code, none.stderr.trim()]).toEqual([
      2,
      'waver: --shard: auto: found neither SLURM_ARRAY_TASK_ID (a Slurm job array task) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job pod); outside those, give --shard K/N',
    ]);
    const pod = await runCli(args, { cwd: dir, env: cleanEnv({ JOB_COMPLETION_INDEX: '1' }) });
    expect([pod.code, pod.stderr.trim()]).toEqual([
      2,
      "waver: --shard: auto: WAVER_SHARD_COUNT is not set (JOB_COMPLETION_INDEX is; set WAVER_SHARD_COUNT to the Job's completions)",
    ]);
    expect(readdirSync(dir)).toEqual(['suite.jsonl']);
    const ok = await runCli(args, {
      cwd: dir,
      env: cleanEnv({ JOB_COMPLETION_INDEX: '0', WAVER_SHARD_COUNT: '2' }),
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('shard 1/2: 1 tests');
  }, 60_000);
});
