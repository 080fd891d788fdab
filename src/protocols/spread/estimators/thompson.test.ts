import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test-support/shared.js';
import { createThompsonSearch, formatSpreadPrior, type ThompsonSearch } from './thompson.js';

/**
 * FormatSpread's search against a port of the authors' code (src/test-support/spread/python/
 * thompson_port.py; fixture thompson.json): the same prior, the same Beta parameters at every draw,
 * the same pulls, the same best and worst. Draws are injected in one case, and in the others are
 * `random.Random(seed).betavariate`, which waver's default draw reproduces (to 1e-12).
 */
interface LogEntry {
  arm?: number;
  a?: number;
  b?: number;
  draw?: number;
  pull?: number;
  objective?: string;
}
interface Case {
  name: string;
  rewards: number[][];
  batchSize: number;
  budget: number;
  draws?: number[];
  seed?: number;
  expected: {
    prior: [number, number];
    log: LogEntry[];
    best: number;
    worst: number;
    successes: number[];
    trials: number[];
  };
}

const fixture = JSON.parse(
  readFileSync(resolve(repoRoot, 'src/test-support/spread/thompson.json'), 'utf8'),
) as {
  cases: Case[];
};

/** Their `main`, driven through `createThompsonSearch` as waver's runner drives it. */
function runFormatSpread(c: Case): {
  log: LogEntry[];
  best?: number;
  worst?: number;
  prior: { alpha: number; beta: number };
  last: ThompsonSearch;
} {
  const nArms = c.rewards.length;
  const nItems = (c.rewards[0] as number[]).length;
  const original = (c.rewards[0] as number[]).reduce((a, b) => a + b, 0);
  const prior = formatSpreadPrior(original / nItems);
  const log: LogEntry[] = [];
  const draws = c.draws ? [...c.draws] : undefined;
  const steps = c.budget / c.batchSize / 2;
  let counts = {
    successes: [original, ...new Array(nArms - 1).fill(0)],
    trials: [nItems, ...new Array(nArms - 1).fill(0)],
  };
  const answers: Array<number | undefined> = [];
  let last: ThompsonSearch | undefined;
  for (const target of ['best', 'worst'] as const) {
    const search: ThompsonSearch = createThompsonSearch({
      nArms,
      seed: (c.seed ?? 0) + (target === 'best' ? 0 : 1),
      target,
      prior,
      capacity: nItems,
      initial: counts,
      ...(draws
        ? {
            drawBeta: (a: number, b: number) => {
              const x = draws.shift() as number;
              log.push({ a, b, draw: x });
              return x;
            },
          }
        : {}),
    });
    let answer = search.chosen();
    for (let s = 0; s < steps; s++) {
      const arm = search.next();
      if (arm < 0) break;
      const start = search.trials(arm);
      for (const r of (c.rewards[arm] as number[]).slice(start, start + c.batchSize)) search.update(arm, r);
      log.push({ pull: arm, objective: target === 'best' ? 'highest' : 'lowest' });
      answer = search.chosen();
    }
    answers.push(answer);
    counts = {
      successes: Array.from({ length: nArms }, (_, a) => search.successes(a)),
      trials: Array.from({ length: nArms }, (_, a) => search.trials(a)),
    };
    last = search;
  }
  return { log, best: answers[0], worst: answers[1], prior, last: last as ThompsonSearch };
}

describe('FormatSpread Thompson sampling vs the port of the authors’ code', () => {
  for (const c of fixture.cases) {
    it(c.name, () => {
      const run = runFormatSpread(c);
      expect([run.prior.alpha, run.prior.beta]).toEqual(c.expected.prior.map((v) => expect.closeTo(v, 12)));
      const pulls = (log: LogEntry[]) =>
        log.filter((e) => e.pull !== undefined).map((e) => [e.pull, e.objective]);
      expect(pulls(run.log)).toEqual(pulls(c.expected.log));
      if (c.draws) {
        const params = (log: LogEntry[]) =>
          log.filter((e) => e.a !== undefined).map((e) => [e.a, e.b, e.draw]);
        expect(params(run.log)).toEqual(params(c.expected.log));
      }
      expect(run.best).toBe(c.expected.best);
      expect(run.worst).toBe(c.expected.worst);
      expect(Array.from({ length: c.rewards.length }, (_, a) => run.last.trials(a))).toEqual(
        c.expected.trials,
      );
      expect(Array.from({ length: c.rewards.length }, (_, a) => run.last.successes(a))).toEqual(
        c.expected.successes,
      );
    });
  }
});

describe('createThompsonSearch', () => {
  it('is reproducible in its seed and finds the extreme arm of clearly separated arms', () => {
    const accs = [0.2, 0.5, 0.8, 0.45];
    const play = (target: 'best' | 'worst', seed: number) => {
      const s = createThompsonSearch({ nArms: 4, seed, target });
      const pulls: number[] = [];
      for (let k = 0; k < 300; k++) {
        const arm = s.next();
        pulls.push(arm);
        s.update(arm, (k * 0.6180339887 + arm * 0.37) % 1 < (accs[arm] as number) ? 1 : 0);
      }
      return { pulls, chosen: s.chosen(), mean: s.posteriorMean(2) };
    };
    expect(play('best', 5)).toEqual(play('best', 5));
    expect(play('best', 5).pulls).not.toEqual(play('best', 6).pulls);
    expect(play('best', 5).chosen).toBe(2);
    expect(play('worst', 5).chosen).toBe(0);
    expect(play('best', 5).pulls.filter((a) => a === 2).length).toBeGreaterThan(200);
  });

  it('stops drawing an arm at its capacity and returns -1 when none is left', () => {
    const s = createThompsonSearch({ nArms: 2, seed: 1, target: 'best', capacity: 1 });
    const first = s.next();
    s.update(first, 1);
    const second = s.next();
    expect(second).toBe(1 - first);
    s.update(second, 0);
    expect(s.next()).toBe(-1);
  });

  it('refuses a reward outside [0, 1] or an unknown arm', () => {
    const s = createThompsonSearch({ nArms: 2, seed: 1, target: 'worst' });
    expect(() => s.update(0, 2)).toThrow(/reward 2/);
    expect(() => s.update(3, 1)).toThrow(/arm 3/);
  });
});
