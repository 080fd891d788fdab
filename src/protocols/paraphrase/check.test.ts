import { describe, expect, it } from 'vitest';
import { compareModels } from '../../check/compare.js';
import { checkConfigSchema } from '../../check/config.js';
import { evaluateThresholds } from '../../check/evaluate.js';
import { chooseSuites } from '../../check/suites.js';
import { flagRules, inputError } from '../../test-support/check/rules.js';
import { rulesFromConfig } from '../../check/thresholds.js';
import { validateConfig } from '../../config/load.js';
import { openStore } from '../../store/store.js';
import { paraphraseCheck } from './check.js';
import { paraphraseStore } from '../../test-support/protocols/paraphrase/store.js';

/**
 * Paraphrase's part of the gate, on stores written as `waver paraphrase` writes them: SAA with
 * its CI and n, and the paired comparison item by item.
 */

const config = validateConfig({ paraphrase: { resamples: 200 } });
const protocols = [paraphraseCheck];
const rules = (...values: string[]) => flagRules(paraphraseCheck, 'min-saa', ...values);

describe('paraphrase threshold rules', () => {
  it('a share, unscoped, in flags and the check: section', () => {
    expect(rules('0.6')).toEqual([{ metric: 'min-saa', scope: '*', value: 0.6 }]);
    expect(inputError(() => rules('1.5'))).toMatch(/^--min-saa: expected a share in \[0, 1\]/);
    expect(inputError(() => rules('SV=0.5'))).toMatch(/^--min-saa: takes a plain number/);
    const schema = checkConfigSchema(protocols);
    expect(rulesFromConfig(schema.parse({ minSaa: 0.6 }), paraphraseCheck.thresholds)).toEqual(rules('0.6'));
    expect(() => schema.parse({ minSaa: { SV: 0.6 } })).toThrow();
  });
});

describe('SAA', () => {
  const s = openStore(':memory:');
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
  const suites = chooseSuites(s, protocols);

  it('finds the latest paraphrase suite', () => {
    expect(Object.keys(suites)).toEqual(['paraphrase']);
  });

  it('SAA with its CI and what n counts', () => {
    const r = evaluateThresholds(s, { config, protocols, suites, rules: rules('0.9') });
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
});

describe('paraphrase paired comparison', () => {
  it('pairs are (item, phrasing, repeat), clustered by item', () => {
    const p = openStore(':memory:');
    paraphraseStore(p, [
      { label: 'a', identity: 'replay:a', answer: () => true },
      { label: 'b', identity: 'replay:b', answer: (_t, repeat) => repeat === 1 },
    ]);
    const r = compareModels(p, { config, protocols, base: 'a', new: 'b', alpha: 0.05 });
    expect(r.protocol).toBe('paraphrase');
    expect(r.unit).toEqual({ pair: 'item x phrasing x repeat', cluster: 'item' });
    expect(r.comparison).toMatchObject({ n: 12 * 4 * 2, clusters: 12, table: { a: 48, b: 48, c: 0, d: 0 } });
    expect(r.worse).toBe(true);
  });
});
