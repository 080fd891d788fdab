import { describe, expect, it } from 'vitest';
import { checkConfigSchema } from '../../check/config.js';
import { evaluateThresholds } from '../../check/evaluate.js';
import { chooseSuites } from '../../check/suites.js';
import { rulesFromConfig } from '../../check/thresholds.js';
import { validateConfig } from '../../config/load.js';
import { openStore } from '../../store/store.js';
import { flagRules, inputError } from '../../test-support/check/rules.js';
import { sagoStore } from '../../test-support/protocols/sago/store.js';
import { sagoCheck } from './check.js';

/** Sago's part of the gate, on a store written as `waver sago` writes it: SGS per axis. */

const config = validateConfig({});
const protocols = [sagoCheck];
const rules = (...values: string[]) => flagRules(sagoCheck, 'max-sgs', ...values);

describe('sago threshold rules', () => {
  it('per axis (either case) or every axis, in flags and the check: section', () => {
    expect(rules('BLEU=0.1')).toEqual([{ metric: 'max-sgs', scope: 'bleu', value: 0.1 }]);
    expect(inputError(() => rules('bleu=abc'))).toMatch(/expected a number/);
    expect(inputError(() => rules('bleu=-1'))).toMatch(/expected a non-negative number/);
    const schema = checkConfigSchema(protocols);
    expect(rulesFromConfig(schema.parse({ maxSgs: { bleu: 0.1 } }), sagoCheck.thresholds)).toEqual(
      rules('bleu=0.1'),
    );
    expect(() => schema.parse({ maxSgs: { nope: 0.1 } })).toThrow();
  });
});

describe('SGS', () => {
  const s = openStore(':memory:');
  sagoStore(s);
  const suites = chooseSuites(s, protocols);

  it('finds the latest sago suite, and only one with its manifest', () => {
    expect(Object.keys(suites)).toEqual(['sago']);
    const bare = openStore(':memory:');
    sagoStore(bare, { manifest: false });
    expect(chooseSuites(bare, protocols)).toEqual({});
  });

  it('SGS on BLEU with a bootstrap CI over prompts; an axis never computed is unavailable', () => {
    const r = evaluateThresholds(s, { config, protocols, suites, rules: rules('bleu=0.1', 'entropy=0.1') });
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
      protocols,
      suites,
      rules: rules('entropy=0.1'),
      allowUnavailable: true,
    });
    expect(allowed.pass).toBe(true);
  });
});
