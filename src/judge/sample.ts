import type { LabellingItemRecord, PopulationCount } from '../store/store.js';
import { PyRandom } from '../util/random.js';
import type { JudgedItem } from './types.js';

/**
 * A stratified sample of judged items (docs/judges.md#sample). A stratum is the task, the item's
 * strata (family, boundary type) and the first judge's verdict, so rare verdicts and rare boundary
 * types are labelled too. n is shared out in proportion to the strata's sizes, at least one item
 * each while n allows (largest remainders for the rest); within a stratum items are drawn by a
 * seeded shuffle of their ids. Each sampled item carries its weight, the stratum's size over its
 * sample size, so estimates over the sample stand for the whole population.
 */

export function stratumOf(item: Pick<JudgedItem, 'task' | 'strata' | 'verdicts'>): string {
  const parts = Object.entries(item.strata)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  const verdict = item.verdicts[0]?.label ?? 'none';
  return [item.task, ...parts, `verdict=${verdict}`].join(' ');
}

export function sampleJudged(items: readonly JudgedItem[], n: number, seed: number): LabellingItemRecord[] {
  const strata = new Map<string, JudgedItem[]>();
  for (const item of [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const key = stratumOf(item);
    strata.set(key, [...(strata.get(key) ?? []), item]);
  }
  const keys = [...strata.keys()].sort();
  const sizes = keys.map((k) => (strata.get(k) as JudgedItem[]).length);
  const total = sizes.reduce((s, v) => s + v, 0);
  const take = Math.min(n, total);
  const alloc = allocate(sizes, take);
  const rng = new PyRandom(seed);
  const out: LabellingItemRecord[] = [];
  keys.forEach((key, s) => {
    const pool = [...(strata.get(key) as JudgedItem[])];
    const k = alloc[s] as number;
    // Partial Fisher-Yates: the first k of a seeded shuffle.
    for (let i = 0; i < k; i++) {
      const j = i + rng.randbelow(pool.length - i);
      [pool[i], pool[j]] = [pool[j] as JudgedItem, pool[i] as JudgedItem];
    }
    for (const item of pool.slice(0, k)) out.push(recordOf(item, (sizes[s] as number) / k));
  });
  // Shown in a seeded order, so a labeller does not meet one stratum after another.
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.randbelow(i + 1);
    [out[i], out[j]] = [out[j] as LabellingItemRecord, out[i] as LabellingItemRecord];
  }
  return out;
}

/** n shared out over strata of these sizes: at least one each while n allows, else by size. */
export function allocate(sizes: readonly number[], n: number): number[] {
  const alloc = sizes.map(() => 0);
  let left = n;
  if (n >= sizes.filter((s) => s > 0).length)
    sizes.forEach((s, i) => {
      if (s > 0) {
        alloc[i] = 1;
        left--;
      }
    });
  while (left > 0) {
    const room = sizes.map((s, i) => s - (alloc[i] as number));
    const spare = room.reduce((t, r) => t + r, 0);
    if (spare === 0) break;
    // Largest remainder of the proportional share of what is left, among strata with room.
    const share = room.map((r) => (left * r) / spare);
    const whole = share.map((v, i) => Math.min(Math.floor(v), room[i] as number));
    let given = whole.reduce((t, v) => t + v, 0);
    whole.forEach((v, i) => {
      alloc[i] = (alloc[i] as number) + v;
    });
    const order = share.map((v, i) => ({ i, r: v - Math.floor(v) })).sort((a, b) => b.r - a.r || a.i - b.i);
    for (const { i } of order) {
      if (given >= left) break;
      if ((alloc[i] as number) < (sizes[i] as number)) {
        alloc[i] = (alloc[i] as number) + 1;
        given++;
      }
    }
    left -= given;
    if (given === 0) break;
  }
  return alloc;
}

function recordOf(item: JudgedItem, weight: number): LabellingItemRecord {
  return {
    id: item.id,
    task: item.task,
    strata: { ...item.strata },
    item: item.item,
    response: item.response,
    rubric: item.rubric as unknown as Record<string, unknown>,
    verdicts: item.verdicts.map((v) => ({ ...v })),
    ...(item.group !== undefined && { group: item.group }),
    weight,
  };
}

/** The verdict counts of the population a sample is drawn from, for the corrected estimates. */
export function populationOf(items: readonly JudgedItem[]): PopulationCount[] {
  const counts = new Map<string, PopulationCount>();
  for (const item of items)
    for (const v of item.verdicts) {
      const key = [item.task, item.group ?? '', v.judge, v.label ?? ''].join('\u0000');
      const c = counts.get(key) ?? {
        task: item.task,
        ...(item.group !== undefined && { group: item.group }),
        judge: v.judge,
        ...(v.label !== undefined && { label: v.label }),
        count: 0,
      };
      c.count++;
      counts.set(key, c);
    }
  return [...counts.values()];
}
