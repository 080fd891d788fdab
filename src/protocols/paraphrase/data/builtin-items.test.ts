import { describe, expect, it } from 'vitest';
import { checkMcItems } from '../../../data/mc/mc-item.js';
import { evaluateRule } from '../../../data/mc/mc-rules.js';
import { KeyMismatchError, verifyKeys } from '../key-check.js';
import { BUILTIN_MC_ITEMS } from './builtin-items.js';

const numbers = (s: string) => (s.match(/\d+(?:\.\d+)?/g) ?? []).sort();

describe('the 32 built-in multiple-choice items', () => {
  it('are 8 logic, 8 quantitative, 8 knowledge and 8 attention traps, all valid, ids unique', () => {
    expect(BUILTIN_MC_ITEMS).toHaveLength(32);
    const byCategory = new Map<string, number>();
    for (const item of BUILTIN_MC_ITEMS)
      byCategory.set(item.category, (byCategory.get(item.category) ?? 0) + 1);
    expect(Object.fromEntries(byCategory)).toEqual({ logic: 8, quantitative: 8, knowledge: 8, attention: 8 });
    expect(() => checkMcItems(BUILTIN_MC_ITEMS)).not.toThrow();
  });

  it('have every key a rule can recompute recomputed, and all of them match', () => {
    const check = verifyKeys(BUILTIN_MC_ITEMS);
    // All logic, quantitative and attention items, the leap year and the heptagon; the six keys
    // that rest on a fact about the world have none (docs/paraphrase.md#the-built-in-items).
    expect(check.verified).toHaveLength(26);
    expect(check.unverified.sort()).toEqual(
      [
        'know-sodium-symbol',
        'know-australia-capital',
        'know-largest-planet',
        'know-atmosphere-gas',
        'know-moon-landing',
        'know-water-boiling',
      ].sort(),
    );
    for (const c of BUILTIN_MC_ITEMS.filter((i) => i.category === 'logic' || i.category === 'quantitative'))
      expect(c.rule, c.id).toBeDefined();
  });

  it('rules really check: moving any ruled key to another option stops the key check, naming the item', () => {
    for (const item of BUILTIN_MC_ITEMS.filter((i) => i.rule)) {
      for (const o of item.options.filter((x) => x.letter !== item.key)) {
        const broken = { ...item, key: o.letter };
        expect(() => verifyKeys([broken]), `${item.id} -> ${o.letter}`).toThrow(KeyMismatchError);
        try {
          verifyKeys([broken]);
        } catch (e) {
          expect((e as Error).message).toContain(`item '${item.id}'`);
          expect((e as Error).message).toContain(`key ${o.letter} (${o.text})`);
        }
      }
    }
  });

  it('state a reworded stem that differs from the original and keeps every number', () => {
    for (const item of BUILTIN_MC_ITEMS) {
      const alternate = item.alternates?.[0] ?? '';
      expect(alternate, item.id).not.toBe('');
      expect(alternate).not.toBe(item.stem);
      // The printers item writes its numbers as words in one wording and digits in the other.
      if (item.id !== 'quant-printers')
        for (const n of numbers(item.stem)) expect(numbers(alternate), `${item.id} keeps ${n}`).toContain(n);
    }
  });

  it('puts no bare option letter (A-H) in any option text, so a reply quoting an option is not read as a letter', () => {
    for (const item of BUILTIN_MC_ITEMS)
      for (const o of item.options)
        expect(o.text, `${item.id} ${o.letter}`).not.toMatch(/(^|[^A-Za-z])[A-H]($|[^A-Za-z])/);
  });

  it('keeps premises true: 1 March 2023 was a Wednesday, so the weekday item is true in the real calendar', () => {
    expect(new Date('2023-03-01T00:00:00Z').getUTCDay()).toBe(3);
    expect(new Date('2023-06-01T00:00:00Z').getUTCDay()).toBe(4);
    const weekday = BUILTIN_MC_ITEMS.find((i) => i.id === 'quant-weekday');
    expect(weekday?.stem).toBe('1 March 2023 was a Wednesday. What day of the week was 1 June 2023?');
    expect(evaluateRule(weekday?.rule ?? { kind: 'arithmetic', expression: '0' })).toBe('Thursday');
  });

  it('write quantities once: the printed numbers are the ones the rules use', () => {
    const pen = BUILTIN_MC_ITEMS.find((i) => i.id === 'quant-notebook-pen');
    expect(pen?.stem).toContain('$3.30 in total');
    expect(pen?.stem).toContain('$3.00 more');
    const lamp = BUILTIN_MC_ITEMS.find((i) => i.id === 'quant-lamp-discount');
    expect(lamp?.options.map((o) => o.text)).toEqual(['$81.90', '$90', '$93', '$96']);
    const printers = BUILTIN_MC_ITEMS.find((i) => i.id === 'quant-printers');
    expect(printers?.stem).toMatch(
      /^Three printers print three posters in three minutes\..* twelve printers .* twelve posters\?$/,
    );
  });
});
