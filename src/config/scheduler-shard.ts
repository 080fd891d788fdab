import type { Shard } from '../domain/suites.js';

/**
 * `--shard auto` (docs/decisions.md#e48-shard-auto-reads-the-schedulers-index): the shard a Slurm
 * job array task or a Kubernetes Indexed Job pod is, from the variables the scheduler sets. The
 * result, or why there is none, naming the variable.
 */
export type SchedulerShard = { shard: Shard; from: string } | { error: string };

type Env = Readonly<Record<string, string | undefined>>;

/** The pod cannot see its Job's `.spec.completions`, so the manifest hands the count over. */
export const SHARD_COUNT_VAR = 'WAVER_SHARD_COUNT';

const NONE =
  'auto: found neither SLURM_ARRAY_TASK_ID (a Slurm job array task) nor JOB_COMPLETION_INDEX ' +
  '(a Kubernetes Indexed Job pod); outside those, give --shard K/N';

export function schedulerShard(env: Env): SchedulerShard {
  const slurm = env.SLURM_ARRAY_TASK_ID === undefined ? undefined : slurmShard(env);
  const k8s = env.JOB_COMPLETION_INDEX === undefined ? undefined : indexedJobShard(env);
  if (!slurm && !k8s) return { error: NONE };
  if (!slurm || !k8s) return (slurm ?? k8s) as SchedulerShard;
  if ('error' in slurm) return slurm;
  if ('error' in k8s) return k8s;
  if (slurm.shard.index !== k8s.shard.index || slurm.shard.count !== k8s.shard.count)
    return {
      error: `auto: ${slurm.from} says shard ${show(slurm.shard)} but ${k8s.from} says ${show(k8s.shard)}`,
    };
  return slurm;
}

const show = (s: Shard) => `${s.index}/${s.count}`;

/** A variable's value as a whole number at least `min`, or why not. */
function whole(env: Env, name: string, min: number): number | string {
  const text = env[name];
  if (text === undefined) return `auto: ${name} is not set`;
  if (!/^\d+$/.test(text) || Number(text) < min)
    return `auto: ${name} is '${text}', expected a whole number >= ${min}`;
  return Number(text);
}

/**
 * An array `--array=MIN-MAX[:STEP]`: task ID is shard (ID - MIN) / STEP + 1 of COUNT. An array of
 * listed IDs (`--array=1,3,7`) is not evenly spaced, and its tasks could not tell their place.
 */
function slurmShard(env: Env): SchedulerShard {
  const id = whole(env, 'SLURM_ARRAY_TASK_ID', 0);
  const min = whole(env, 'SLURM_ARRAY_TASK_MIN', 0);
  const count = whole(env, 'SLURM_ARRAY_TASK_COUNT', 1);
  const step = env.SLURM_ARRAY_TASK_STEP === undefined ? 1 : whole(env, 'SLURM_ARRAY_TASK_STEP', 1);
  for (const v of [id, min, count, step]) if (typeof v === 'string') return { error: v };
  const [i, lo, n, s] = [id, min, count, step] as number[] as [number, number, number, number];
  const vars = `SLURM_ARRAY_TASK_ID=${i}, _MIN=${lo}, _STEP=${s}, _COUNT=${n}`;
  const max = env.SLURM_ARRAY_TASK_MAX;
  const spaced = (i - lo) % s === 0 && i >= lo && (i - lo) / s < n;
  if (!spaced || (max !== undefined && Number(max) !== lo + (n - 1) * s))
    return {
      error: `auto: the job array is not one evenly spaced range (${vars}, _MAX=${max}); submit it as --array=A-B or --array=A-B:S`,
    };
  const own = env[SHARD_COUNT_VAR];
  if (own !== undefined && own !== String(n))
    return { error: `auto: ${SHARD_COUNT_VAR} is '${own}' but SLURM_ARRAY_TASK_COUNT is ${n}` };
  return { shard: { index: (i - lo) / s + 1, count: n }, from: `Slurm (${vars})` };
}

/** An Indexed Job's pod: JOB_COMPLETION_INDEX from 0, the count from WAVER_SHARD_COUNT. */
function indexedJobShard(env: Env): SchedulerShard {
  const index = whole(env, 'JOB_COMPLETION_INDEX', 0);
  if (typeof index === 'string') return { error: index };
  const count = whole(env, SHARD_COUNT_VAR, 1);
  if (typeof count === 'string')
    return {
      error: `${count} (JOB_COMPLETION_INDEX is; set ${SHARD_COUNT_VAR} to the Job's completions)`,
    };
  if (index >= count)
    return { error: `auto: JOB_COMPLETION_INDEX is ${index}, not below ${SHARD_COUNT_VAR}=${count}` };
  return {
    shard: { index: index + 1, count },
    from: `an Indexed Job (JOB_COMPLETION_INDEX=${index}, ${SHARD_COUNT_VAR}=${count})`,
  };
}
