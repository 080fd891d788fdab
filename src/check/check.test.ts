import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/load.js';
import { InputError } from '../errors.js';
import { openStore, type Store } from '../store/store.js';
import { compareModels } from './compare.js';
import { CheckConfig } from './config.js';
import { evaluateThresholds } from './evaluate.js';
import { chooseSuites } from './suites.js';
import {
  type FakeModel,
  ladderMeta,
  ladderStore,
  paraphraseStore,
  sagoStore,
} from './test-support/stores.js';
import { mergeRules, parseRuleFlag, rulesFromConfig } from './thresholds.js';

/**
 * The gate's logic in process, on stores written as the protocols write them: thresholds per
 * model with CI and n, unavailable metrics, and the paired comparison. The CLI's exit codes are
 * proven in src/cli/commands/check.e2e.test.ts.
 */

const config = validateConfig({ ladder: { resamples: 200 }, paraphrase: { resamples: 200 } });

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

describe('threshold rules', () => {
  it('parses flags: plain, per family or axis (either case), several per flag, L-levels', () => {
    expect(parseRuleFlag('min-stability', ['0.8'])).toEqual([
      { metric: 'min-stability', scope: '*', value: 0.8 },
    ]);
    expect(parseRuleFlag('min-stability', ['sv=0.8,CL=0.7', 'all=0.5'])).toEqual([
      { metric: 'min-stability', scope: 'SV', value: 0.8 },
      { metric: 'min-stability', scope: 'CL', value: 0.7 },
      { metric: 'min-stability', scope: '*', value: 0.5 },
    ]);
    expect(parseRuleFlag('no-collapse-at-or-below', ['L2'])).toEqual([
      { metric: 'no-collapse-at-or-below', scope: '*', value: 2 },
    ]);
    expect(parseRuleFlag('max-sgs', ['BLEU=0.1'])).toEqual([
      { metric: 'max-sgs', scope: 'bleu', value: 0.1 },
    ]);
  });

  it('refuses bad values with the flag named', () => {
    const field = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return `${(e as InputError).field}: ${(e as InputError).message}`;
      }
      throw new Error('no error');
    };
    expect(field(() => parseRuleFlag('min-stability', ['XX=0.8']))).toMatch(
      /^--min-stability: unknown family 'XX'/,
    );
    expect(field(() => parseRuleFlag('min-saa', ['1.5']))).toMatch(
      /^--min-saa: expected a share in \[0, 1\]/,
    );
    expect(field(() => parseRuleFlag('min-saa', ['SV=0.5']))).toMatch(/^--min-saa: takes a plain number/);
    expect(field(() => parseRuleFlag('no-collapse-at-or-below', ['6']))).toMatch(/expected a level 1\.\.5/);
    expect(field(() => parseRuleFlag('max-sgs', ['bleu=abc']))).toMatch(/expected a number/);
  });

  it('reads the check: section, and a flag replaces that metric of the config only', () => {
    const fromConfig = rulesFromConfig(
      CheckConfig.parse({
        minStability: { SV: 0.8 },
        noCollapseAtOrBelow: 2,
        minSaa: 0.6,
        maxSgs: { bleu: 0.1 },
      }),
    );
    expect(fromConfig).toHaveLength(4);
    const merged = mergeRules(fromConfig, parseRuleFlag('min-stability', ['0.5']));
    expect(merged.filter((r) => r.metric === 'min-stability')).toEqual([
      { metric: 'min-stability', scope: '*', value: 0.5 },
    ]);
    expect(merged).toHaveLength(4);
    expect(() => CheckConfig.parse({ minStability: { XX: 0.8 } })).toThrow();
  });
});

describe('evaluateThresholds on ladder, paraphrase and sago stores', () => {
  const s = store();
  ladderStore(s, [steady, fragile]);
  paraphraseStore(s, [
    { label: 'steady', identity: 'replay:steady', answer: () => true },
    // Wrong once (terse, first repeat) on the 4 quantitative items: they leave SAA, 8 of 12 stay.
    {
      label: 'fragile',
      identity: 'replay:fragile',
      answer: (t, repeat) => {
        const m = t.meta as { item: string; phrasing: string };
        return !(m.phrasing === 'terse' && repeat === 0 && m.item.startsWith('quant-'));
      },
    },
  ]);
  sagoStore(s);
  const suites = chooseSuites(s);

  it('finds the latest suite of each protocol', () => {
    expect(Object.keys(suites).sort()).toEqual(['ladder', 'paraphrase', 'sago']);
  });

  it('Stability per family: value, bootstrap CI and n per model; the fragile model fails', () => {
    const r = evaluateThresholds(s, { config, suites, rules: parseRuleFlag('min-stability', ['0.8']) });
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
      suites,
      rules: parseRuleFlag('no-collapse-at-or-below', ['SV=2']),
    });
    expect(r2.rows.map((x) => [x.model, x.value, x.pass])).toEqual([
      ['fragile', 'L2', false],
      ['steady', 'never', true],
    ]);
    expect(r2.rows[0]?.ci).toMatch(/collapses at <= L2 in \d+% of 200 resamples/);
    const r1 = evaluateThresholds(s, {
      config,
      suites,
      rules: parseRuleFlag('no-collapse-at-or-below', ['SV=1']),
    });
    expect(r1.pass).toBe(true);
  });

  it('SAA with its CI and what n counts', () => {
    const r = evaluateThresholds(s, { config, suites, rules: parseRuleFlag('min-saa', ['0.9']) });
    const [b, a] = r.rows;
    expect(a).toMatchObject({ model: 'steady', value: 1, pass: true, n: 12 });
    expect(b).toMatchObject({
      model: 'fragile',
      value: 8 / 12,
      pass: false,
      n: 12,
      reason: 'below threshold',
    });
    expect(b?.low).toBeLessThan(8 / 12);
    expect(b?.high).toBeGreaterThan(8 / 12);
    expect(b?.over).toMatch(/items/);
  });

  it('SGS on BLEU with a bootstrap CI over prompts; an axis never computed is unavailable', () => {
    const r = evaluateThresholds(s, {
      config,
      suites,
      rules: parseRuleFlag('max-sgs', ['bleu=0.1', 'entropy=0.1']),
    });
    const bleu = r.rows.filter((x) => x.metric === 'SGS bleu');
    // Sago lists models in the manifest's order.
    expect(bleu.map((x) => [x.model, x.pass])).toEqual([
      ['steady', true],
      ['fragile', false],
    ]);
    expect(bleu[0]?.value).toBe(0);
    expect(bleu[1]?.value as number).toBeGreaterThan(0.1);
    expect(bleu[1]?.low).toBeLessThanOrEqual(bleu[1]?.value as number);
    expect(bleu[1]).toMatchObject({ n: 3, over: 'prompts', reason: 'above threshold' });
    const entropy = r.rows.filter((x) => x.metric === 'SGS entropy');
    expect(
      entropy.every((x) => !x.pass && x.value === undefined && x.reason?.startsWith('unavailable:')),
    ).toBe(true);
    const allowed = evaluateThresholds(s, {
      config,
      suites,
      rules: parseRuleFlag('max-sgs', ['entropy=0.1']),
      allowUnavailable: true,
    });
    expect(allowed.pass).toBe(true);
  });

  it('coverage per protocol and model: a failed call lowers it', () => {
    const t = store();
    ladderStore(
      t,
      [steady, { ...fragile, answer: (test) => (ladderMeta(test).seedId === 'seed-0' ? 'fail' : true) }],
      10,
    );
    const r = evaluateThresholds(t, {
      config,
      suites: chooseSuites(t),
      rules: parseRuleFlag('min-coverage', ['0.95']),
    });
    expect(r.rows.map((x) => [x.model, x.value, x.pass])).toEqual([
      ['fragile', 0.9, false],
      ['steady', 1, true],
    ]);
    expect(r.rows[0]?.over).toBe('cells (81 done, 9 failed, 0 pending)');
  });

  it('a threshold on a protocol the store lacks is unavailable, not a pass', () => {
    const t = store();
    ladderStore(t, [steady], 5);
    const r = evaluateThresholds(t, {
      config,
      suites: chooseSuites(t),
      rules: parseRuleFlag('min-saa', ['0.5']),
    });
    expect(r.rows).toEqual([
      expect.objectContaining({
        model: '—',
        metric: 'SAA',
        pass: false,
        reason: 'unavailable: no paraphrase run in the store',
      }),
    ]);
  });

  it('a family named but absent from the suite is unavailable', () => {
    const r = evaluateThresholds(s, { config, suites, rules: parseRuleFlag('min-stability', ['KB=0.5']) });
    expect(r.rows.every((x) => !x.pass && x.reason?.startsWith('unavailable'))).toBe(true);
  });
});

describe('compareModels (paired)', () => {
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

  it('steady -> fragile: b and c from the pairs, McNemar p, a CI below 0: significantly worse', () => {
    const r = compareModels(s, { config, base: 'steady', new: 'fragile', alpha: 0.05 });
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
    expect(compareModels(s, { config, base: 'fragile', new: 'steady', alpha: 0.05 })).toMatchObject({
      worse: false,
      better: true,
    });
    const t = compareModels(s, { config, base: 'steady', new: 'replay:twin', alpha: 0.05 });
    expect(t.comparison.mcnemar).toMatchObject({ b: 1, c: 0, p: 1 });
    expect(t).toMatchObject({ worse: false, better: false });
  });

  it('paraphrase pairs are (item, phrasing, repeat), clustered by item', () => {
    const p = store();
    paraphraseStore(p, [
      { label: 'a', identity: 'replay:a', answer: () => true },
      { label: 'b', identity: 'replay:b', answer: (_t, repeat) => repeat === 1 },
    ]);
    const r = compareModels(p, { config, base: 'a', new: 'b', alpha: 0.05 });
    expect(r.protocol).toBe('paraphrase');
    expect(r.unit).toEqual({ pair: 'item x phrasing x repeat', cluster: 'item' });
    expect(r.comparison).toMatchObject({ n: 12 * 4 * 2, clusters: 12, table: { a: 48, b: 48, c: 0, d: 0 } });
    expect(r.worse).toBe(true);
  });

  it('unknown or identical models are input errors', () => {
    expect(() => compareModels(s, { config, base: 'steady', new: 'nobody', alpha: 0.05 })).toThrow(
      /no ladder or paraphrase suite/,
    );
    expect(() => compareModels(s, { config, base: 'steady', new: 'replay:steady', alpha: 0.05 })).toThrow(
      /same model/,
    );
  });
});

describe('chooseSuites', () => {
  it('takes a --suite hash prefix, and refuses a suite of no protocol or an unknown one', () => {
    const s = store();
    const older = ladderStore(s, [steady], 3);
    const newer = ladderStore(s, [steady], 4);
    expect(chooseSuites(s).ladder?.hash).toBe(newer.hash);
    expect(chooseSuites(s, [older.hash.slice(0, 10)]).ladder?.hash).toBe(older.hash);
    expect(chooseSuites(s, [older.hash.slice(0, 10)], { latest: false })).toEqual({
      ladder: { protocol: 'ladder', hash: older.hash, name: 'ladder/tests' },
    });
    expect(() => chooseSuites(s, ['ffffffffff'])).toThrow(/no suite ffffffffff/);
    expect(() => chooseSuites(s, ['xyz'])).toThrow(/expected a suite hash/);
  });
});
