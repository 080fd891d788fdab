import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../util/random.js';
import { LEVELS, type Seed } from '../types.js';
import { rulesEmptyReason } from './contract.js';
import { ladderFamilies, ladderFamily } from './registry.js';
import { familyRules } from './rules-common.js';

/**
 * Where a family's rules write a level (`rulesScope`, docs/ladder-suite.md#rules-scope): stated
 * once on the family's card, each statement a clause that names what a seed needs and the docs
 * section that decides it, so an empty rules cell reads as the rules' reach, not a bug.
 */

/** The `{#anchor}`s of a docs file. */
function anchorsOf(path: string): Set<string> {
  const text = readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');
  return new Set([...text.matchAll(/\{#([a-z0-9-]+)\}/g)].map((m) => m[1] as string));
}

describe('the families’ rules scope', () => {
  it('is a non-empty clause citing a docs section that exists, wherever a built-in family gives one', () => {
    const stated = ladderFamilies().flatMap((f) =>
      LEVELS.flatMap((l) => (f.rulesScope?.[l] ? [{ family: f.code, level: l, ...f.rulesScope[l] }] : [])),
    );
    expect(stated.map((s) => `${s.family} L${s.level}`)).toEqual([
      'SV L2',
      'SV L3',
      'SV L4',
      'SV L5',
      'F L5',
      'KB L2',
      'KB L3',
      'KB L4',
      'KB L5',
    ]);
    for (const s of stated) {
      // It completes "the rules write it only on ...".
      expect(s.on, `${s.family} L${s.level}`).toMatch(/^a problem \w+ .{40,}[a-z")]$/);
      const [path, anchor] = s.doc.split('#') as [string, string | undefined];
      expect(path, s.doc).toMatch(/^docs\/[a-z-]+\.md$/);
      expect(anchorsOf(path).has(anchor ?? ''), `${s.doc} has no such anchor`).toBe(true);
    }
  });

  it("gives the reason of an empty rules candidate: the family's statement, else that the rule cannot apply", () => {
    const kb = ladderFamily('KB');
    expect(rulesEmptyReason(kb, 3)).toMatch(
      /^KB L3: the rules write it only on a problem with a price, fee or wage told in the present .+ \(docs\/ladder-families\.md#kb-l3\)$/,
    );
    expect(rulesEmptyReason(ladderFamily('SV'), 5)).toMatch(
      /^SV L5: .+\.85.+ \(docs\/ladder-families\.md#sv-fill\)$/,
    );
    expect(rulesEmptyReason(kb, 1)).toBe('the rule cannot apply to this seed at this level');
    expect(rulesEmptyReason(ladderFamily('IQ'), 3)).toBe('the rule cannot apply to this seed at this level');
  });

  it('says of KB L3 what the rules do: a seed with no present price gets no candidate, one with a fee does', () => {
    const kb = ladderFamily('KB');
    const seed = (question: string): Seed => ({ id: 'x', question, gold: 0, source: 'scope-test' });
    const counts = seed(
      'There are 6 girls and 8 boys in the park. 3 more girls come. How many children are there?',
    );
    const fee = seed('The plumber charges $40 an hour. He works 3 hours. How much does he charge?');
    for (let r = 0; r < 6; r++) expect(familyRules(kb, counts, 3, 1, new PyRandom(r))).toBeUndefined();
    expect(familyRules(kb, fee, 3, 1, new PyRandom(0))?.text).toMatch(
      /^The plumber charges an hourly rate that /,
    );
  });
});
