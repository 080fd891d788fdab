import { describe, expect, it } from 'vitest';
import { schedulerShard } from './scheduler-shard.js';

/** What `sbatch --array=...` set in each task, as read there (Slurm 22.05: ID, COUNT, MIN, MAX, STEP). */
const slurm = (id: number, min: number, max: number, step: number, count: number) => ({
  SLURM_ARRAY_TASK_ID: String(id),
  SLURM_ARRAY_TASK_MIN: String(min),
  SLURM_ARRAY_TASK_MAX: String(max),
  SLURM_ARRAY_TASK_STEP: String(step),
  SLURM_ARRAY_TASK_COUNT: String(count),
});

describe('--shard auto', () => {
  it('is a Slurm array task: (ID - MIN) / STEP + 1 of COUNT, for arrays from 0, from 1 and stepped', () => {
    expect([0, 1, 2].map((id) => schedulerShard(slurm(id, 0, 2, 1, 3)))).toMatchObject([
      { shard: { index: 1, count: 3 } },
      { shard: { index: 2, count: 3 } },
      { shard: { index: 3, count: 3 } },
    ]);
    expect(schedulerShard(slurm(1, 1, 3, 1, 3))).toMatchObject({ shard: { index: 1, count: 3 } });
    expect(schedulerShard(slurm(3, 1, 3, 1, 3))).toMatchObject({ shard: { index: 3, count: 3 } });
    // --array=1-5:2 gives tasks 1, 3, 5 (read off a real Slurm 22.05).
    expect(schedulerShard(slurm(5, 1, 5, 2, 3))).toMatchObject({ shard: { index: 3, count: 3 } });
    // Before MAX and STEP were exported: ID, MIN and COUNT suffice.
    expect(
      schedulerShard({ SLURM_ARRAY_TASK_ID: '7', SLURM_ARRAY_TASK_MIN: '5', SLURM_ARRAY_TASK_COUNT: '4' }),
    ).toMatchObject({ shard: { index: 3, count: 4 } });
  });

  it('is an Indexed Job pod: JOB_COMPLETION_INDEX + 1 of WAVER_SHARD_COUNT', () => {
    expect(schedulerShard({ JOB_COMPLETION_INDEX: '0', WAVER_SHARD_COUNT: '3' })).toEqual({
      shard: { index: 1, count: 3 },
      from: 'an Indexed Job (JOB_COMPLETION_INDEX=0, WAVER_SHARD_COUNT=3)',
    });
    expect(schedulerShard({ JOB_COMPLETION_INDEX: '2', WAVER_SHARD_COUNT: '3' })).toMatchObject({
      shard: { index: 3, count: 3 },
    });
  });

  it('refuses, naming the variable, when it finds neither, a part is missing or wrong, or they disagree', () => {
    const error = (env: Record<string, string>) => (schedulerShard(env) as { error?: string }).error;
    expect(error({})).toBe(
      'auto: found neither SLURM_ARRAY_TASK_ID (a Slurm job array task) nor JOB_COMPLETION_INDEX ' +
        '(a Kubernetes Indexed Job pod); outside those, give --shard K/N',
    );
    // A plain Slurm job (not an array) has SLURM_JOB_ID only.
    expect(error({ SLURM_JOB_ID: '12' })).toMatch(/^auto: found neither/);
    expect(error({ SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0' })).toBe(
      'auto: SLURM_ARRAY_TASK_COUNT is not set',
    );
    expect(error({ SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '3' })).toBe(
      'auto: SLURM_ARRAY_TASK_MIN is not set',
    );
    expect(error({ ...slurm(1, 0, 2, 1, 3), SLURM_ARRAY_TASK_ID: 'x' })).toBe(
      "auto: SLURM_ARRAY_TASK_ID is 'x', expected a whole number >= 0",
    );
    // --array=1,3,7: COUNT 3, MIN 1, MAX 7, STEP 1 (read off a real Slurm): task 3 would say 3/3 like task 7.
    expect(error(slurm(3, 1, 7, 1, 3))).toBe(
      'auto: the job array is not one evenly spaced range (SLURM_ARRAY_TASK_ID=3, _MIN=1, _STEP=1, _COUNT=3, _MAX=7); submit it as --array=A-B or --array=A-B:S',
    );
    expect(error(slurm(2, 1, 5, 2, 3))).toMatch(/not one evenly spaced range/);
    expect(error({ JOB_COMPLETION_INDEX: '1' })).toBe(
      "auto: WAVER_SHARD_COUNT is not set (JOB_COMPLETION_INDEX is; set WAVER_SHARD_COUNT to the Job's completions)",
    );
    expect(error({ JOB_COMPLETION_INDEX: '3', WAVER_SHARD_COUNT: '3' })).toBe(
      'auto: JOB_COMPLETION_INDEX is 3, not below WAVER_SHARD_COUNT=3',
    );
    expect(error({ JOB_COMPLETION_INDEX: '0', WAVER_SHARD_COUNT: '0' })).toBe(
      "auto: WAVER_SHARD_COUNT is '0', expected a whole number >= 1 (JOB_COMPLETION_INDEX is; set WAVER_SHARD_COUNT to the Job's completions)",
    );
    expect(error({ ...slurm(1, 0, 2, 1, 3), WAVER_SHARD_COUNT: '4' })).toBe(
      "auto: WAVER_SHARD_COUNT is '4' but SLURM_ARRAY_TASK_COUNT is 3",
    );
    expect(error({ ...slurm(1, 0, 2, 1, 3), JOB_COMPLETION_INDEX: '0', WAVER_SHARD_COUNT: '3' })).toBe(
      'auto: Slurm (SLURM_ARRAY_TASK_ID=1, _MIN=0, _STEP=1, _COUNT=3) says shard 2/3 but an Indexed Job (JOB_COMPLETION_INDEX=0, WAVER_SHARD_COUNT=3) says 1/3',
    );
    // Both, agreeing: one shard.
    expect(
      schedulerShard({ ...slurm(0, 0, 2, 1, 3), JOB_COMPLETION_INDEX: '0', WAVER_SHARD_COUNT: '3' }),
    ).toMatchObject({ shard: { index: 1, count: 3 } });
  });
});
