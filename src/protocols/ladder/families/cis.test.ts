import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../util/random.js';
import { conflictExplicitness } from '../severity/ces.js';
import type { Seed } from '../types.js';
import { conflictInstructionStress, DIRECTIVES } from './cis.js';

const COFFEE: Seed = {
  id: 'coffee',
  question: 'Jim drinks coffee every morning. He spends $3 on each cup. How much does he spend in a week?',
  gold: 21,
  source: 'issue-11',
};

describe('Conflict Instruction Stress rules', () => {
  it('have at least 20 distinct tier-5 directives, each measuring CES 5', () => {
    expect(new Set(DIRECTIVES[5]).size).toBeGreaterThanOrEqual(20);
    for (const d of DIRECTIVES[5]) {
      const text = `${COFFEE.question} ${d.replace('{objects}', 'cups')}`;
      expect(conflictExplicitness(COFFEE.question, text).ces, d).toBe(5);
    }
  });

  it("have at least 20 distinct directives in every tier, most about the problem's own things or person", () => {
    for (const level of [1, 2, 3, 4] as const) {
      const tier = DIRECTIVES[level];
      expect(new Set(tier).size, `tier ${level}`).toBeGreaterThanOrEqual(20);
      expect(
        tier.filter((d) => /\{(?:objects|person|personPossessive|place)\}/.test(d)).length,
      ).toBeGreaterThanOrEqual(10);
    }
  });

  it('vary over seeds and never name placeholder things ("Ignore the items" in a coffee problem)', () => {
    const texts = new Set<string>();
    for (let r = 0; r < 40; r++)
      for (const level of [3, 4, 5] as const) {
        const c = conflictInstructionStress.rules(COFFEE, level, 1, new PyRandom(r));
        expect(c?.text).not.toMatch(/\bitems\b/);
        if (level === 5 && c) texts.add(c.text);
      }
    expect(texts.size).toBeGreaterThanOrEqual(15);
  });
});
