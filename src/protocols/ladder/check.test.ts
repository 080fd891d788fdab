import { describe, expect, it } from 'vitest';
import { compareModels } from '../../check/compare.js';
import { checkConfigSchema } from '../../check/config.js';
import { evaluateThresholds } from '../../check/evaluate.js';
import { chooseSuites } from '../../check/suites.js';
import { MIN_COVERAGE } from '../../check/threshold-spec.js';
import { parseRuleFlag, rulesFromConfig } from '../../check/thresholds.js';
import { validateConfig } from '../../config/load.js';
import { openStore, type Store } from '../../store/store.js';
import { flagRules, inputError } from '../../test-support/check/rules.js';
import type { FakeModel } from '../../test-support/check/stores.js';
import { ladderMeta, ladderStore } from '../../test-support/protocols/ladder/store.js';
import { ladderCheck } from './check.js';

/**
 * The ladder's part of the gate, on stores written as `waver ladder` writes them: Stability and
 * the Collapse Point per family with CI and n, and the paired comparison test by test. The CLI's
 * exit codes are proven in src/cli/commands/check.e2e.test.ts.
 */

const config = validateConfig({ ladder: { resamples: 200 } });
const protocols = [ladderCheck];
const rules = (metric: string, ...values: string[]) => flagRules(ladderCheck, metric, ...values);

/** Right on everything. */
const steady: FakeModel = { label: 'steady', identity: 'replay:steady', answer: () => true };
/** Right at L0 and L1; wrong on half the seeds at L2 (collapse at L2) and on every L3. */
const fragile: FakeModel = {
  label: 'fragile',
  identity: 'replay:fragile',
  answer: (t) => {
    const m = ladderMeta(t);
    const level = m.family === 'baseline' ? 0 : (m.measuredLevel as number);
    const seed = Number(m.seedId.slice(5));
    return level <= 1 || (level === 2 && seed % 2 === 1);
  },
};

function store(): Store {
  return openStore(':memory:');
}

describe('ladder threshold rules', () => {
  it('parses flags: plain, per family (either case), several per flag, L-levels', () => {
    expect(rules('min-stability', '0.8')).toEqual([{ metric: 'min-stability', scope: '*', value: 0.8 }]);
    expect(rules('min-stability', 'sv=0.8,CL=0.7', 'all=0.5')).toEqual([
      { metric: 'min-stability', scope: 'SV', value: 0.8 },
      { metric: 'min-stability', scope: 'CL', value: 0.7 },
      { metric: 'min-stability', scope: '*', value: 0.5 },
    ]);
    expect(rules('no-collapse-at-or-below', 'L2')).toEqual([
      { metric: 'no-collapse-at-or-below', scope: '*', value: 2 },
    ]);
  });

  it('refuses bad values with the flag named', () => {
    expect(inputError(() => rules('min-stability', 'XX=0.8'))).toMatch(
      /^--min-stability: unknown family 'XX'/,
    );
    expect(inputError(() => rules('no-collapse-at-or-below', '6'))).toMatch(/expected a level 1\.\.5/);
  });

  it('reads its keys of the check: section, and refuses an unknown family', () => {
    const schema = checkConfigSchema(protocols);
    const specs = [...ladderCheck.thresholds, MIN_COVERAGE];
    expect(
      rulesFromConfig(schema.parse({ minStability: { SV: 0.8 }, noCollapseAtOrBelow: 2 }), specs),
    ).toEqual([
      { metric: 'min-stability', scope: 'SV', value: 0.8 },
      { metric: 'no-collapse-at-or-below', scope: '*', value: 2 },
    ]);
    expect(() => schema.parse({ minStability: { XX: 0.8 } })).toThrow();
  });
});

describe('ladder thresholds', () => {
  const s = store();
  ladderStore(s, [steady, fragile]);
  const suites = chooseSuites(s, protocols);

  it('finds the latest ladder suite', () => {
    expect(Object.keys(suites)).toEqual(['ladder']);
  });

  it('Stability per family: value, bootstrap CI and n per model; the fragile model fails', () => {
    const r = evaluateThresholds(s, { config, protocols, suites, rules: rules('min-stability', '0.8') });
    // Models in the loaders' order (by identity), families in the paper's order.
    expect(r.rows.map((x) => `${x.model} ${x.metric} ${x.pass}`)).toEqual([
      'fragile Stability SV false',
      'fragile Stability CL false',
      'steady Stability SV true',
      'steady Stability CL true',
    ]);
    const bad = r.rows.find((x) => x.model === 'fragile' && x.metric === 'Stability SV');
    // Stability = sum(score x magnitude) / sum(magnitude) = (0.1 + 0.5 x 0.2) / 0.6 over 30 seeds.
    expect(bad?.value).toBeCloseTo((0.1 + 0.5 * 0.2) / 0.6, 10);
    expect(bad?.low).toBeLessThan(bad?.value as number);
    expect(bad?.high).toBeGreaterThan(bad?.value as number);
    expect(bad).toMatchObject({ n: 90, over: 'responses', threshold: '>= 0.8', reason: 'below threshold' });
    expect(bad?.ci).toMatch(/95% bootstrap over 30 seeds/);
    expect(r.pass).toBe(false);
  });

  it('Collapse Point: fragile collapses at L2 (fails "at or below L2", passes "at or below L1")', () => {
    const r2 = evaluateThresholds(s, {
      config,
      protocols,
      suites,
      rules: rules('no-collapse-at-or-below', 'SV=2'),
    });
    expect(r2.rows.map((x) => [x.model, x.value, x.pass])).toEqual([
      ['fragile', 'L2', false],
      ['steady', 'never', true],
    ]);
    expect(r2.rows[0]?.ci).toMatch(/collapses at <= L2 in \d+% of 200 resamples/);
    const r1 = evaluateThresholds(s, {
      config,
      protocols,
      suites,
      rules: rules('no-collapse-at-or-below', 'SV=1'),
    });
    expect(r1.pass).toBe(true);
  });

  it('a family named but absent from the suite is unavailable', () => {
    const r = evaluateThresholds(s, { config, protocols, suites, rules: rules('min-stability', 'KB=0.5') });
    expect(r.rows.every((x) => !x.pass && x.reason?.startsWith('unavailable'))).toBe(true);
  });

  it('coverage per model: a failed call lowers it', () => {
    const t = store();
    ladderStore(
      t,
      [steady, { ...fragile, answer: (test) => (ladderMeta(test).seedId === 'seed-0' ? 'fail' : true) }],
      10,
    );
    const r = evaluateThresholds(t, {
      config,
      protocols,
      suites: chooseSuites(t, protocols),
      rules: parseRuleFlag(MIN_COVERAGE, ['0.95']),
    });
    expect(r.rows.map((x) => [x.model, x.value, x.pass])).toEqual([
      ['fragile', 0.9, false],
      ['steady', 1, true],
    ]);
    expect(r.rows[0]?.over).toBe('cells (81 done, 9 failed, 0 pending)');
  });
});

describe('ladder paired comparison', () => {
  const s = store();
  // The twin differs from steady on one test only: not a significant change.
  const twin: FakeModel = {
    label: 'twin',
    identity: 'replay:twin',
    answer: (t, repeat) =>
      !(
        ladderMeta(t).seedId === 'seed-3' &&
        ladderMeta(t).family === 'SV' &&
        repeat === 0 &&
        ladderMeta(t).measuredLevel === 3
      ),
  };
  ladderStore(s, [steady, fragile, twin]);
  const compare = (base: string, next: string) =>
    compareModels(s, { config, protocols, base, new: next, alpha: 0.05 });

  it('steady -> fragile: b and c from the pairs, McNemar p, a CI below 0: significantly worse', () => {
    const r = compare('steady', 'fragile');
    expect(r.protocol).toBe('ladder');
    // Per seed and family, fragile is wrong at L3 always and at L2 on even seeds: 30 x 2 x (1 + 0.5).
    expect(r.comparison.table).toEqual({ a: 30 * 3 + 30 * 2 + 15 * 2, b: 90, c: 0, d: 0 });
    expect(r.comparison.n).toBe(270);
    expect(r.comparison.clusters).toBe(30);
    expect(r.comparison.mcnemar.p).toBe(2 * 0.5 ** 90);
    expect(r.comparison.difference.estimate).toBeCloseTo(-90 / 270, 12);
    expect(r.comparison.difference.high as number).toBeLessThan(0);
    expect(r.worse).toBe(true);
    expect(r.verdict).toMatch(/significantly worse at alpha 0.05/);
  });

  it('fragile -> steady is better, steady -> twin is no significant difference', () => {
    expect(compare('fragile', 'steady')).toMatchObject({ worse: false, better: true });
    const t = compare('steady', 'replay:twin');
    expect(t.comparison.mcnemar).toMatchObject({ b: 1, c: 0, p: 1 });
    expect(t).toMatchObject({ worse: false, better: false });
  });

  it('unknown or identical models are input errors', () => {
    expect(() => compare('steady', 'nobody')).toThrow(/no ladder suite/);
    expect(() => compare('steady', 'replay:steady')).toThrow(/same model/);
  });
});
