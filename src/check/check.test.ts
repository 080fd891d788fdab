import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/load.js';
import type { Suite, SuiteTest } from '../run/types.js';
import { openStore, type Store } from '../store/store.js';
import { inputError } from '../test-support/check/rules.js';
import { type FakeModel, writeCells } from '../test-support/check/stores.js';
import { canonicalJson, sha256 } from '../util/hash.js';
import { compareModels, modelVerdicts } from './compare.js';
import { checkConfigSchema } from './config.js';
import { evaluateThresholds } from './evaluate.js';
import { chooseSuites } from './suites.js';
import { MIN_COVERAGE, SHARE, type ThresholdSpec } from './threshold-spec.js';
import { mergeRules, parseRuleFlag, rulesFromConfig } from './thresholds.js';
import type { CheckProtocol, ThresholdDef } from './types.js';

/**
 * The check shell in process, with a toy protocol handed to it as the real ones are (their own
 * thresholds and comparisons are tested beside each protocol's check.ts):
 * rules from flags and the check: section, rows and unavailable metrics, coverage of every suite,
 * the suites chosen, and the paired comparison. The CLI's exit codes are proven in
 * src/cli/commands/check.e2e.test.ts.
 */

const config = validateConfig({});

/** A toy protocol: tests in groups A and B, answered `yes` (right) or `no`. */
interface ToyResults {
  models: { label: string; identity: string; cells: { key: string; group: string; correct: boolean }[] }[];
}

const minAccuracy: ThresholdDef<ToyResults> = {
  metric: 'min-accuracy',
  configKey: 'minAccuracy',
  label: 'Accuracy',
  help: 'minimum toy accuracy, per group (A=0.8) or every group',
  value: SHARE,
  scopes: { noun: 'group', values: ['A', 'B', 'Rare'] },
  describe: (v) => `>= ${v}`,
  evaluate: (results, rule) =>
    results.models.flatMap((m) => {
      const groups = rule.scope === '*' ? [...new Set(m.cells.map((c) => c.group))] : [rule.scope];
      return groups.map((group) => {
        const cells = m.cells.filter((c) => c.group === group);
        const base = { model: m.label, identity: m.identity, scope: group, n: cells.length, over: 'cells' };
        if (cells.length === 0) return { ...base, unavailable: `no ${group} tests` };
        const value = cells.filter((c) => c.correct).length / cells.length;
        return { ...base, value, ...(value < rule.value && { failure: 'below threshold' }) };
      });
    }),
};

const toy: CheckProtocol<ToyResults> = {
  protocol: 'toy',
  suiteName: 'toy/answers',
  load(store, suiteHash) {
    const groups = new Map(
      (store.suites.get(suiteHash)?.tests ?? []).map((t) => [
        t.id,
        String((t.meta as { group?: string } | undefined)?.group),
      ]),
    );
    const models = new Map<string, ToyResults['models'][number]>();
    for (const c of store.cells.all({ suiteHash })) {
      const m = models.get(c.modelIdentity) ?? { label: c.model, identity: c.modelIdentity, cells: [] };
      const correct = c.status === 'done' && c.response?.text === 'yes';
      m.cells.push({ key: `${c.testId}\u0000${c.repeat}`, group: groups.get(c.testId) ?? '', correct });
      models.set(c.modelIdentity, m);
    }
    return { models: [...models.values()] };
  },
  thresholds: [minAccuracy],
  compare: {
    unit: { pair: 'test x repeat', cluster: 'group' },
    verdicts(store, suiteHash, models) {
      const results = toy.load(store, suiteHash, config);
      const verdicts = (model: typeof models.base) =>
        modelVerdicts(results.models, model, (c) => [c.key, { cluster: c.group, correct: c.correct }]);
      return { base: verdicts(models.base), new: verdicts(models.new) };
    },
  },
};

/** Another protocol, whose answers have no correctness: no comparison. */
const loose: CheckProtocol<ToyResults> = { ...toy, protocol: 'loose', suiteName: 'loose/answers' };
delete loose.compare;

const protocols = [toy, loose];
const specs: ThresholdSpec[] = [minAccuracy, MIN_COVERAGE];

function suiteOf(name: string, tests: SuiteTest[]): Suite {
  return { name, hash: sha256(canonicalJson({ name, tests })), tests };
}

/** `n` tests per group A and B, asked twice each. */
function toySuite(n: number, name = 'toy/answers'): Suite {
  const tests = ['A', 'B'].flatMap((group) =>
    Array.from({ length: n }, (_, i) => ({
      id: `${group}-${i}`,
      prompt: `question ${group}${i}`,
      repeats: 2,
      meta: { group },
    })),
  );
  return suiteOf(name, tests);
}

function store(): Store {
  return openStore(':memory:');
}

const right: FakeModel = { label: 'right', identity: 'replay:right', answer: () => true };
/** Right on group A; on group B only on the first repeat of even tests. */
const halfB: FakeModel = {
  label: 'halfB',
  identity: 'replay:halfB',
  answer: (t, repeat) =>
    (t.meta as { group?: string } | undefined)?.group === 'A' ||
    (repeat === 0 && Number(t.id.slice(2)) % 2 === 0),
};
const yesNo = (_t: SuiteTest, ok: boolean) => (ok ? 'yes' : 'no');

describe('threshold rules', () => {
  it('parses flags: plain, per scope (either case), several per flag, all', () => {
    expect(parseRuleFlag(minAccuracy, ['0.8'])).toEqual([{ metric: 'min-accuracy', scope: '*', value: 0.8 }]);
    expect(parseRuleFlag(minAccuracy, ['a=0.8,rare=0.7', 'all=0.5'])).toEqual([
      { metric: 'min-accuracy', scope: 'A', value: 0.8 },
      { metric: 'min-accuracy', scope: 'Rare', value: 0.7 },
      { metric: 'min-accuracy', scope: '*', value: 0.5 },
    ]);
  });

  it('refuses bad values with the flag named', () => {
    expect(inputError(() => parseRuleFlag(minAccuracy, ['XX=0.8']))).toBe(
      "--min-accuracy: unknown group 'XX' (one of A, B, Rare, or all)",
    );
    expect(inputError(() => parseRuleFlag(minAccuracy, ['A=1.5']))).toMatch(
      /^--min-accuracy: expected a share in \[0, 1\]/,
    );
    expect(inputError(() => parseRuleFlag(MIN_COVERAGE, ['A=0.5']))).toMatch(
      /^--min-coverage: takes a plain number/,
    );
    expect(inputError(() => parseRuleFlag(MIN_COVERAGE, [' , ']))).toBe('--min-coverage: expected a value');
  });

  it('reads the check: section built from the protocols, and a flag replaces that metric of the config only', () => {
    const schema = checkConfigSchema([toy]);
    const fromConfig = rulesFromConfig(
      schema.parse({ minAccuracy: { A: 0.8, B: 0.6 }, minCoverage: 0.9, alpha: 0.01 }),
      specs,
    );
    expect(fromConfig).toHaveLength(3);
    const merged = mergeRules(fromConfig, parseRuleFlag(minAccuracy, ['0.5']));
    expect(merged.filter((r) => r.metric === 'min-accuracy')).toEqual([
      { metric: 'min-accuracy', scope: '*', value: 0.5 },
    ]);
    expect(merged).toHaveLength(2);
    expect(() => schema.parse({ minAccuracy: { XX: 0.8 } })).toThrow();
    expect(() => schema.parse({ minStability: 0.8 })).toThrow();
    expect(rulesFromConfig(undefined, specs)).toEqual([]);
  });
});

describe('evaluateThresholds', () => {
  const s = store();
  writeCells(s, toySuite(4), [right, halfB], yesNo);
  const suites = chooseSuites(s, protocols);

  it('one row per (model, scope) with the scope in the metric, the threshold and why it failed', () => {
    const r = evaluateThresholds(s, {
      config,
      protocols,
      suites,
      rules: parseRuleFlag(minAccuracy, ['0.8']),
    });
    expect(r.rows.map((x) => `${x.protocol} ${x.model} ${x.metric} ${x.value} ${x.pass}`)).toEqual([
      // The toy loader's order: by identity.
      'toy halfB Accuracy A 1 true',
      'toy halfB Accuracy B 0.25 false',
      'toy right Accuracy A 1 true',
      'toy right Accuracy B 1 true',
    ]);
    expect(r.rows[1]).toMatchObject({
      identity: 'replay:halfB',
      rule: 'min-accuracy',
      n: 8,
      over: 'cells',
      threshold: '>= 0.8',
      reason: 'below threshold',
    });
    expect(r.suites).toEqual([suites.toy]);
    expect(r.pass).toBe(false);
  });

  it('a scope the results lack is unavailable: a failure unless allowed', () => {
    const rules = parseRuleFlag(minAccuracy, ['Rare=0.5']);
    const r = evaluateThresholds(s, { config, protocols, suites, rules });
    expect(r.rows.map((x) => [x.metric, x.value, x.pass, x.reason])).toEqual([
      ['Accuracy Rare', undefined, false, 'unavailable: no Rare tests'],
      ['Accuracy Rare', undefined, false, 'unavailable: no Rare tests'],
    ]);
    expect(evaluateThresholds(s, { config, protocols, suites, rules, allowUnavailable: true }).pass).toBe(
      true,
    );
  });

  it('a threshold on a protocol the store lacks is unavailable, not a pass', () => {
    const t = store();
    writeCells(t, toySuite(1, 'loose/answers'), [right], yesNo);
    const r = evaluateThresholds(t, {
      config,
      protocols: [toy],
      suites: chooseSuites(t, [toy]),
      rules: parseRuleFlag(minAccuracy, ['A=0.5']),
    });
    expect(r.rows).toEqual([
      expect.objectContaining({
        protocol: 'toy',
        model: '—',
        metric: 'Accuracy A',
        pass: false,
        reason: 'unavailable: no toy run in the store',
      }),
    ]);
  });

  it('a rule that checks nothing says so, and fails unless allowed', () => {
    const t = store();
    const empty: CheckProtocol<ToyResults> = { ...toy, load: () => ({ models: [] }) };
    writeCells(t, toySuite(1), [right], yesNo);
    const r = evaluateThresholds(t, {
      config,
      protocols: [empty],
      suites: chooseSuites(t, [empty]),
      rules: parseRuleFlag(minAccuracy, ['0.5']),
    });
    expect(r.rows).toEqual([
      expect.objectContaining({
        model: '—',
        metric: 'Accuracy',
        pass: false,
        reason: expect.stringMatching(/^unavailable: nothing to check in the toy suite [0-9a-f]{12}$/),
      }),
    ]);
  });
});

describe('coverage', () => {
  const rules = parseRuleFlag(MIN_COVERAGE, ['0.9']);
  const failing: FakeModel = { label: 'down', identity: 'replay:down', answer: () => 'fail' };
  const flaky: FakeModel = {
    label: 'flaky',
    identity: 'replay:flaky',
    answer: (t, repeat) => (t.id === 'A-0' && repeat === 0 ? 'fail' : true),
  };

  it("covers each protocol's suite and every plain suite, per model; a failed call lowers it", () => {
    const s = store();
    writeCells(s, toySuite(2), [right, flaky], yesNo);
    const plain = suiteOf('prompts.jsonl', [
      { id: 'p1', prompt: 'hello' },
      { id: 'p2', prompt: 'bye' },
    ]);
    writeCells(s, plain, [failing], yesNo);
    // A protocol's own helper suites (judges, generators) are not plain.
    writeCells(s, suiteOf('toy/judge', [{ id: 'j', prompt: 'judge' }]), [failing], yesNo);
    const r = evaluateThresholds(s, { config, protocols, suites: chooseSuites(s, protocols), rules });
    expect(r.rows.map((x) => [x.protocol, x.model, x.metric, x.value, x.pass])).toEqual([
      ['toy', 'flaky', 'coverage', 7 / 8, false],
      ['toy', 'right', 'coverage', 1, true],
      ['plain', 'down', 'coverage prompts.jsonl', 0, false],
    ]);
    expect(r.rows[0]).toMatchObject({
      n: 8,
      over: 'cells (7 done, 1 failed, 0 pending)',
      threshold: '>= 0.9',
    });
    expect(r.suites.map((x) => x.protocol)).toEqual(['toy', 'plain']);
  });

  it('a store of plain suites only: every cell failed is a failure, not "0/0 passed"', () => {
    const s = store();
    writeCells(s, suiteOf('builtin:demo', [{ id: 'd', prompt: 'demo', repeats: 3 }]), [failing], yesNo);
    const r = evaluateThresholds(s, { config, protocols, suites: chooseSuites(s, protocols), rules });
    expect(r.rows).toEqual([
      expect.objectContaining({ protocol: 'plain', value: 0, n: 3, pass: false, reason: 'below threshold' }),
    ]);
    expect(r.pass).toBe(false);
  });

  it('coverage alone reads the counts: no protocol results are loaded', () => {
    const s = store();
    writeCells(s, toySuite(2), [right], yesNo);
    const unloadable: CheckProtocol<ToyResults> = {
      ...toy,
      load: () => {
        throw new Error('coverage must not load results');
      },
    };
    const only = [unloadable, loose];
    const r = evaluateThresholds(s, { config, protocols: only, suites: chooseSuites(s, only), rules });
    expect(r.rows.map((x) => [x.protocol, x.model, x.value, x.pass])).toEqual([['toy', 'right', 1, true]]);
  });

  it('a store with no suite with cells has nothing to cover: unavailable, a failure unless allowed', () => {
    const s = store();
    const r = evaluateThresholds(s, { config, protocols, suites: {}, rules });
    expect(r.rows).toEqual([
      expect.objectContaining({
        protocol: '—',
        model: '—',
        metric: 'coverage',
        value: undefined,
        pass: false,
        reason: 'unavailable: no suite with cells in the store',
      }),
    ]);
    expect(evaluateThresholds(s, { config, protocols, suites: {}, rules, allowUnavailable: true }).pass).toBe(
      true,
    );
  });
});

describe('chooseSuites', () => {
  it('takes a --suite hash prefix, and refuses a suite of no protocol or an unknown one', () => {
    const s = store();
    const older = toySuite(3);
    const newer = toySuite(4);
    writeCells(s, older, [right], yesNo);
    writeCells(s, newer, [right], yesNo);
    const plain = suiteOf('prompts.jsonl', [{ id: 'p', prompt: 'p' }]);
    writeCells(s, plain, [right], yesNo);
    expect(chooseSuites(s, protocols).toy?.hash).toBe(newer.hash);
    expect(chooseSuites(s, protocols, [older.hash.slice(0, 10)]).toy?.hash).toBe(older.hash);
    expect(chooseSuites(s, protocols, [older.hash.slice(0, 10)], { latest: false })).toEqual({
      toy: { protocol: 'toy', hash: older.hash, name: 'toy/answers' },
    });
    expect(() => chooseSuites(s, protocols, [plain.hash.slice(0, 10)])).toThrow(
      `suite ${plain.hash.slice(0, 10)} is 'prompts.jsonl', not a toy or loose suite`,
    );
    expect(() => chooseSuites(s, protocols, [older.hash, newer.hash])).toThrow(/two toy suites given/);
    expect(() => chooseSuites(s, protocols, ['ffffffffff'])).toThrow(/no suite ffffffffff/);
    expect(() => chooseSuites(s, protocols, ['xyz'])).toThrow(/expected a suite hash/);
  });

  it('skips a suite without cells, and one its protocol cannot use', () => {
    const s = store();
    writeCells(s, toySuite(1), [], yesNo);
    expect(chooseSuites(s, protocols)).toEqual({});
    writeCells(s, toySuite(2), [right], yesNo);
    expect(chooseSuites(s, protocols).toy).toBeDefined();
    expect(chooseSuites(s, [{ ...toy, usable: () => false }])).toEqual({});
  });
});

describe('compareModels (paired)', () => {
  const s = store();
  writeCells(s, toySuite(4), [right, halfB], yesNo);
  const compare = (base: string, next: string, more: Partial<Parameters<typeof compareModels>[1]> = {}) =>
    compareModels(s, { config, protocols, base, new: next, alpha: 0.05, ...more });

  it("pairs the protocol's verdicts by key and clusters them: McNemar and the clustered CI", () => {
    const r = compare('right', 'halfB');
    expect(r).toMatchObject({ protocol: 'toy', unit: { pair: 'test x repeat', cluster: 'group' } });
    // halfB is wrong on 6 of group B's 8 cells.
    expect(r.comparison).toMatchObject({ n: 16, clusters: 2, table: { a: 10, b: 6, c: 0, d: 0 } });
    expect(r.comparison.mcnemar.p).toBe(2 * 0.5 ** 6);
    expect(r.unpaired).toEqual({ base: 0, new: 0, unscored: 0 });
    // Two clusters cannot exclude 0: McNemar alone would call it.
    expect(r.worse).toBe(false);
    expect(r.verdict).toMatch(/clustered CI of the difference includes 0: .* share a group/);
  });

  it('answers one model lacks are left out and counted', () => {
    const t = store();
    const suite = toySuite(2);
    writeCells(t, suite, [right], yesNo);
    writeCells(t, { ...suite, tests: suite.tests.slice(1) }, [halfB], yesNo);
    // The suite is stored once: the second write only adds halfB's cells, for all tests but A-0.
    const r = compareModels(t, { config, protocols, base: 'right', new: 'halfB', alpha: 0.05 });
    expect(r.unpaired).toEqual({ base: 2, new: 0, unscored: 0 });
    expect(r.comparison.n).toBe(6);
  });

  it('unknown or identical models, or a suite of a protocol without correctness, are input errors', () => {
    expect(() => compare('right', 'nobody')).toThrow(/no toy suite in :memory: has cells of both/);
    expect(() => compare('right', 'replay:right')).toThrow(/same model/);
    const loose = { protocol: 'loose', hash: 'f'.repeat(64), name: 'loose/answers' };
    expect(inputError(() => compare('right', 'halfB', { suite: loose }))).toBe(
      '--suite: a paired comparison needs a toy suite (loose has no correctness)',
    );
  });

  it('two protocols with both models need --protocol', () => {
    const t = store();
    const other: CheckProtocol<ToyResults> = { ...toy, protocol: 'other', suiteName: 'other/answers' };
    writeCells(t, toySuite(1), [right, halfB], yesNo);
    writeCells(t, toySuite(1, 'other/answers'), [right, halfB], yesNo);
    const both = [toy, other];
    expect(
      inputError(() =>
        compareModels(t, { config, protocols: both, base: 'right', new: 'halfB', alpha: 0.05 }),
      ),
    ).toBe('--protocol: both a toy and a other suite have both models: pass --protocol toy|other');
    expect(
      compareModels(t, {
        config,
        protocols: both,
        base: 'right',
        new: 'halfB',
        alpha: 0.05,
        protocol: 'other',
      }).protocol,
    ).toBe('other');
  });
});

describe('compareModels: non-inferiority margin and families', () => {
  const s = store();
  writeCells(s, toySuite(4), [right, halfB], yesNo);
  // The toy's groups as families too: all pairs, A and B are three tests.
  const families: CheckProtocol<ToyResults> = {
    ...toy,
    compare: {
      unit: { pair: 'test x repeat', cluster: 'group' },
      verdicts(store, suiteHash, models) {
        const results = toy.load(store, suiteHash, config);
        const verdicts = (model: typeof models.base) =>
          modelVerdicts(results.models, model, (c) => [
            c.key,
            { cluster: c.group, correct: c.correct, family: c.group },
          ]);
        return { base: verdicts(models.base), new: verdicts(models.new) };
      },
    },
  };
  const compare = (more: Partial<Parameters<typeof compareModels>[1]> = {}) =>
    compareModels(s, { config, protocols: [families], base: 'right', new: 'halfB', alpha: 0.05, ...more });

  it('the margin passes only when the CI lower end is above -margin', () => {
    // Two clusters: A (no change) and B (-6 of 8): every discordant pair in one cluster, design
    // effect 9, so Newcombe's interval of -0.375 is read on 16 / 9 pairs. The lower end as the
    // python3 of src/stats/paired.test.ts computes it: -0.8697541982.
    const wide = compare({ margin: 0.9, adjust: 'none' });
    expect(wide.comparison.difference.designEffect).toBeCloseTo(9, 12);
    expect(wide.comparison.difference.low).toBeCloseTo(-0.8697541982, 9);
    expect(wide.tests[0]?.worse).toBe(false);
    expect(wide.tests[0]?.verdict).toMatch(/non-inferior at margin 0.9/);
    const narrow = compare({ margin: 0.5, adjust: 'none' });
    expect(narrow.worse).toBe(true);
    expect(narrow.verdict).toMatch(/not non-inferior at margin 0.5: .* -0.870 is not above -0.5/);
  });

  it('Holm adjusts the p-values of all pairs and each family together', () => {
    const r = compare();
    expect(r.tests.map((t) => t.scope)).toEqual(['all', 'A', 'B']);
    // Exact McNemar: all 2 * 0.5^6, A (no discordant pair) 1, B 2 * 0.5^6. Holm over 3, by hand:
    // sorted 0.03125, 0.03125, 1 -> 3 * 0.03125, max(that, 2 * 0.03125), 1.
    expect(r.tests.map((t) => t.comparison.mcnemar.p)).toEqual([0.03125, 1, 0.03125]);
    expect(r.tests.map((t) => t.pAdjusted)).toEqual([0.09375, 1, 0.09375]);
    expect(r.comparison.difference.confidence).toBeCloseTo(1 - 0.05 / 3, 15);
    expect(r.tests[0]?.verdict).toBe('no significant difference at alpha 0.05');
    const none = compare({ adjust: 'none' });
    expect(none.tests.map((t) => t.pAdjusted)).toEqual([0.03125, 1, 0.03125]);
    expect(none.comparison.difference.confidence).toBe(0.95);
  });
});
