import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { assertBuilt, cliPath } from '../test-support/cli/cli.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';
import { repoRoot } from '../test-support/shared.js';

/**
 * docs/scaling.md's Slurm scripts and Kubernetes manifests, run as they are written (the shards in
 * parallel with their array index or completion index, then the merge) with `waver` on PATH as the
 * built CLI, against a loopback server that counts the requests per prompt.
 */

beforeAll(assertBuilt);

const doc = readFileSync(resolve(repoRoot, 'docs/scaling.md'), 'utf8');

/** The code block of docs/scaling.md titled `name` (```bash shards.sbatch). */
function block(name: string): string {
  const m = new RegExp(`\`\`\`\\w+ ${name.replace('.', '\\.')}\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  if (!m?.[1]) throw new Error(`docs/scaling.md has no block ${name}`);
  return m[1];
}

let server: FaultServer;
beforeEach(async () => {
  server = await startFaultServer({ faultRate: 0, seed: 5 });
});
afterEach(() => server.close());

/** A directory with the suite the docs name, and a `waver` that is the built CLI. */
function jobDir(tests: number): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'waver-scaling-'));
  const lines = Array.from({ length: tests }, (_, i) =>
    JSON.stringify({ id: `q${i}`, prompt: `question ${i}` }),
  );
  writeFileSync(join(dir, 'suite.jsonl'), `${lines.join('\n')}\n`);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'waver'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`);
  chmodSync(join(bin, 'waver'), 0o755);
  return { dir, path: `${bin}:${process.env.PATH}` };
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd,
      env: { HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code) => done({ code, stderr }));
  });
}

function expectEveryCellOnce(store: string, cells: number, repeats: number): void {
  const db = new Database(store, { readonly: true });
  try {
    expect(db.prepare(`SELECT count(*) FROM cells WHERE status = 'done'`).pluck().get()).toBe(cells);
  } finally {
    db.close();
  }
  expect(server.requests()).toBe(cells);
  expect(new Set(server.requestsByPrompt().values())).toEqual(new Set([repeats]));
}

describe('docs/scaling.md', () => {
  it('the Slurm array script run for each array task, then the merge script, stores every cell once', async () => {
    const { dir, path } = jobDir(100);
    const shards = block('shards.sbatch');
    const last = Number(/^#SBATCH --array=0-(\d+)$/m.exec(shards)?.[1]);
    const tasks = Array.from({ length: last + 1 }, (_, i) => i);
    expect(tasks).toHaveLength(3);
    const models = `openai:m@${server.url}`;
    const results = await Promise.all(
      tasks.map((i) =>
        run('bash', ['-c', shards], dir, {
          PATH: path,
          MODELS: models,
          // What Slurm sets in each task of --array=0-2 (--shard auto reads them).
          SLURM_ARRAY_TASK_ID: String(i),
          SLURM_ARRAY_TASK_MIN: '0',
          SLURM_ARRAY_TASK_MAX: String(last),
          SLURM_ARRAY_TASK_STEP: '1',
          SLURM_ARRAY_TASK_COUNT: String(tasks.length),
        }),
      ),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const merged = await run('bash', ['-c', block('merge.sbatch')], dir, { PATH: path });
    expect(merged.code, merged.stderr).toBe(0);
    expectEveryCellOnce(join(dir, 'store.db'), 300, 3);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
    expect(block('submit.sh')).toMatch(/--dependency=afterok:"\$jobid" merge\.sbatch/);
  }, 180_000);

  it('the Kubernetes Indexed Job run for each completion index, then the merge Job, stores every cell once', async () => {
    const { dir, path } = jobDir(100);
    type Container = { command: string[]; args: string[]; env?: { name: string; value: string }[] };
    const jobs = parseAllDocuments(block('shards-job.yaml')).map(
      (d) =>
        d.toJS() as {
          spec: {
            completionMode?: string;
            completions?: number;
            template: { spec: { containers: Container[] } };
          };
        },
    );
    const [shards, merge] = jobs as [(typeof jobs)[0], (typeof jobs)[0]];
    expect(shards.spec.completionMode).toBe('Indexed');
    const podEnv = (c: Container) => Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));
    const exec = (c: Container, env: Record<string, string>) =>
      run(c.command[0] as string, [...c.command.slice(1), ...c.args], dir, {
        PATH: path,
        ...podEnv(c),
        ...env,
      });
    const pod = shards.spec.template.spec.containers[0] as Container;
    const indexes = Array.from({ length: shards.spec.completions ?? 1 }, (_, i) => i);
    expect(indexes).toHaveLength(3);
    // --shard auto's count: the pod cannot read completions, so the manifest repeats it.
    expect(podEnv(pod).WAVER_SHARD_COUNT).toBe(String(indexes.length));
    // The manifest's MODELS names the cluster's endpoint; here it is the loopback server.
    const results = await Promise.all(
      indexes.map((i) => exec(pod, { JOB_COMPLETION_INDEX: String(i), MODELS: `openai:m@${server.url}` })),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const merged = await exec(merge.spec.template.spec.containers[0] as Container, {});
    expect(merged.code, merged.stderr).toBe(0);
    expectEveryCellOnce(join(dir, 'store.db'), 300, 3);
  }, 180_000);
});
