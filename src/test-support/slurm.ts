import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real single-node Slurm for the tests, as root: munged, slurmctld and slurmd from Debian's
 * `munge` and `slurm-wlm`, each with its files in one temporary directory (a generated munge key,
 * slurm.conf, state, spool, logs) and its own ports, so nothing system-wide is read or written.
 * `SLURM_CONF` in `env` points the client commands (sbatch, squeue) at it.
 */
export interface SlurmCluster {
  dir: string;
  /** The environment every client command and the jobs it submits need. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

const DAEMONS = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'sinfo'] as const;

/** Why a Slurm cannot be started here, or undefined when the binaries and root are there. */
export function slurmMissing(): string | undefined {
  if (process.platform !== 'linux') return `(skipped: Slurm runs on Linux, this is ${process.platform})`;
  if (process.getuid?.() !== 0) return '(skipped: slurmd runs jobs as root; run the tests as root)';
  const absent = DAEMONS.filter((b) => !['/usr/sbin', '/usr/bin'].some((d) => existsSync(join(d, b))));
  if (absent.length > 0)
    return `(skipped: ${absent.join(', ')} not installed: apt-get install slurm-wlm munge)`;
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

function slurmConf(dir: string, ports: [number, number]): string {
  return [
    'ClusterName=waver-test',
    'SlurmctldHost=localhost(127.0.0.1)',
    `SlurmctldPort=${ports[0]}`,
    `SlurmdPort=${ports[1]}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${dir}/munge/socket`,
    `StateSaveLocation=${dir}/state`,
    `SlurmdSpoolDir=${dir}/spool`,
    `SlurmctldPidFile=${dir}/slurmctld.pid`,
    `SlurmdPidFile=${dir}/slurmd.pid`,
    `SlurmctldLogFile=${dir}/log/slurmctld.log`,
    `SlurmdLogFile=${dir}/log/slurmd.log`,
    // No cgroups in a container: processes tracked by parentage, no task binding.
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'MpiDefault=none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'JobCompType=jobcomp/none',
    'ReturnToService=2',
    'NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN',
    'PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP',
    '',
  ].join('\n');
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The node's state as sinfo reports it ('idle' once slurmd registered), or the error. */
function nodeState(env: Record<string, string>): string {
  try {
    return execFileSync('sinfo', ['-h', '-o', '%t'], { env, encoding: 'utf8', timeout: 5_000 }).trim();
  } catch (e) {
    return `sinfo failed: ${(e as Error).message.split('\n')[0]}`;
  }
}

function logTail(dir: string): string {
  return ['slurmctld.log', 'slurmd.log', 'munged.log']
    .map((f) => join(dir, 'log', f))
    .filter(existsSync)
    .map((f) => `${f}: ${readFileSync(f, 'utf8').trim().split('\n').slice(-3).join(' | ')}`)
    .join('\n');
}

/**
 * Starts the three daemons and waits until the node is idle (20 s at most). Resolves to the
 * cluster, or to why it did not start, the daemons stopped again.
 */
export async function startSlurm(): Promise<SlurmCluster | { failed: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'waver-slurm-'));
  for (const sub of ['munge', 'state', 'spool', 'log']) mkdirSync(join(dir, sub));
  chmodSync(join(dir, 'munge'), 0o755);
  writeFileSync(join(dir, 'munge', 'munge.key'), randomBytes(1024), { mode: 0o400 });
  writeFileSync(join(dir, 'slurm.conf'), slurmConf(dir, [await freePort(), await freePort()]));
  const env = { PATH: `/usr/sbin:/usr/bin:${process.env.PATH ?? ''}`, SLURM_CONF: join(dir, 'slurm.conf') };
  const daemons: ChildProcess[] = [];
  const start = (cmd: string, args: string[]) => daemons.push(spawn(cmd, args, { env, stdio: 'ignore' }));
  const stop = async () => {
    for (const d of daemons.reverse()) if (d.exitCode === null) d.kill('SIGTERM');
    await sleep(500);
    for (const d of daemons) if (d.exitCode === null) d.kill('SIGKILL');
  };
  const m = join(dir, 'munge');
  start('munged', [
    '-F',
    '--force',
    `--socket=${m}/socket`,
    `--key-file=${m}/munge.key`,
    `--pid-file=${m}/munged.pid`,
    `--seed-file=${m}/munged.seed`,
    `--log-file=${dir}/log/munged.log`,
  ]);
  await sleep(500);
  start('slurmctld', ['-D', '-i']);
  await sleep(1_000);
  start('slurmd', ['-D', '-N', 'localhost']);
  for (let waited = 0; waited < 20_000; waited += 500) {
    if (nodeState(env) === 'idle') return { dir, env, stop };
    await sleep(500);
  }
  const why = `node not idle after 20 s (${nodeState(env)})\n${logTail(dir)}`;
  await stop();
  return { failed: why };
}
