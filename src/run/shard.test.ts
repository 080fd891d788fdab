import { afterEach, describe, expect, it, vi } from 'vitest';
import { BaseConfig } from '../config/schema.js';
import { shardOf } from './shard.js';
import type { Suite } from './types.js';

const suite: Suite = {
  name: 's',
  hash: 'c'.repeat(64),
  tests: Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, prompt: `p${i}` })),
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('shards', () => {
  it('deal the tests round-robin: every test in exactly one shard, sizes one apart, hash and name kept', () => {
    const parts = [1, 2, 3].map((index) => shardOf(suite, { index, count: 3 }));
    expect(parts.map((p) => p.tests.map((t) => t.id))).toEqual([
      ['t0', 't3', 't6', 't9'],
      ['t1', 't4', 't7'],
      ['t2', 't5', 't8'],
    ]);
    expect(parts.every((p) => p.hash === suite.hash && p.name === suite.name)).toBe(true);
    expect(shardOf(suite, undefined)).toBe(suite);
  });

  it('are written K/N in the config, 1 <= K <= N', () => {
    expect(BaseConfig.parse({ shard: '2/3' }).shard).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', '2', 'a/b', ' 1/2'])
      expect(BaseConfig.safeParse({ shard: bad }).error?.issues[0]?.message).toBe(
        `expected K/N with 1 <= K <= N (the K-th of N shards, e.g. 2/3) or auto, got '${bad}'`,
      );
  });

  it("are auto in the config: the scheduler's shard, or its error naming the variable", () => {
    vi.stubEnv('SLURM_ARRAY_TASK_ID', '4');
    vi.stubEnv('SLURM_ARRAY_TASK_MIN', '3');
    vi.stubEnv('SLURM_ARRAY_TASK_COUNT', '3');
    expect(BaseConfig.parse({ shard: 'auto' }).shard).toEqual({ index: 2, count: 3 });
    vi.stubEnv('SLURM_ARRAY_TASK_COUNT', undefined);
    expect(BaseConfig.safeParse({ shard: 'auto' }).error?.issues[0]?.message).toBe(
      'auto: SLURM_ARRAY_TASK_COUNT is not set',
    );
  });
});
