import { describe, expect, it } from 'vitest';
import type { McItem } from '../../data/mc/mc-item.js';
import { InputError } from '../../errors.js';
import { PHRASINGS } from './config.js';
import { BUILTIN_MC_ITEMS } from './data/builtin-items.js';
import { letterList, phraseItem, shuffleOptions, shuffleSeedOf } from './phrasings.js';

const lamp = BUILTIN_MC_ITEMS.find((i) => i.id === 'quant-lamp-discount') as McItem;
const reworded = { text: lamp.alternates?.[0] as string, source: { kind: 'alternate' as const } };

describe('the five phrasings', () => {
  const all = Object.fromEntries(PHRASINGS.map((p) => [p, phraseItem(lamp, p, { runSeed: 0, reworded })]));

  it('canonical: stem, lettered options, and the instruction to reply with just the letter', () => {
    expect(all.canonical?.prompt).toBe(
      'A lamp costs $63 after a 30% discount. What was its price before the discount?\n\nA. $81.90\nB. $90\nC. $93\nD. $96\n\nSelect the correct answer and reply with just its letter (A, B, C, or D).',
    );
    expect(all.canonical?.key).toBe('B');
  });

  it('terse changes only the instruction line, to "Answer:"', () => {
    expect(all.terse?.prompt).toBe(
      'A lamp costs $63 after a 30% discount. What was its price before the discount?\n\nA. $81.90\nB. $90\nC. $93\nD. $96\n\nAnswer:',
    );
  });

  it('reworded uses the alternate stem with the same options; verbose wraps the same question', () => {
    expect(
      all.reworded?.prompt.startsWith(
        'After 30% is taken off, a lamp sells for $63. What did it cost originally?\n\nA. $81.90',
      ),
    ).toBe(true);
    expect(all.reworded?.reworded?.source).toEqual({ kind: 'alternate' });
    expect(all.verbose?.prompt).toContain('\n\nQuestion: A lamp costs $63 after a 30% discount.');
    expect(all.verbose?.prompt).toContain('\n\nOptions:\nA. $81.90\nB. $90\nC. $93\nD. $96\n\n');
    expect(all.verbose?.prompt.endsWith('reply with just its letter (A, B, C, or D).')).toBe(true);
    expect(new Set(Object.values(all).map((p) => p.prompt)).size).toBe(5);
  });

  it('options-shuffled: CPython shuffle order from the derived seed; the key follows its option', () => {
    // Python: random.Random(460361187).shuffle(list("ABCD")) -> ['C', 'A', 'B', 'D'];
    // 460361187 = deriveSeed(0, 'quant-lamp-discount', 'options-shuffled').
    const s = all['options-shuffled'];
    expect(s?.shuffle).toEqual({ seed: 460361187, attempts: 1 });
    expect(s?.options.map((o) => o.text)).toEqual(['$93', '$81.90', '$90', '$96']);
    expect(s?.canonicalOf).toEqual({ A: 'C', B: 'A', C: 'B', D: 'D' });
    expect(s?.key).toBe('C');
    expect(s?.options.find((o) => o.letter === s.key)?.text).toBe('$90');
    expect(s?.prompt).toContain('A. $93\nB. $81.90\nC. $90\nD. $96');
  });

  it('an item can pin its shuffle with an integer seed (Python: Random(42) -> C, B, D, A)', () => {
    const pinned = { ...lamp, shuffleSeed: 42 };
    expect(shuffleSeedOf(pinned, 999)).toBe(42);
    expect(shuffleOptions(pinned, 42).options.map((o) => o.text)).toEqual(['$93', '$90', '$96', '$81.90']);
    expect(shuffleOptions(pinned, 42).key).toBe('B');
    expect(() => shuffleSeedOf({ ...lamp, shuffleSeed: 2.5 }, 0)).toThrow(InputError);
    expect(() => shuffleSeedOf({ ...lamp, shuffleSeed: 2.5 }, 0)).toThrow(
      "item 'quant-lamp-discount': shuffle seed must be an integer, got 2.5",
    );
  });

  it('never returns the canonical order (two options: drawn again until swapped; Python needs 3 draws for seed 0)', () => {
    const two: McItem = {
      ...lamp,
      options: [lamp.options[0], lamp.options[1]] as McItem['options'],
      key: 'B',
    };
    const s = shuffleOptions(two, 0);
    expect(s.options.map((o) => o.text)).toEqual(['$90', '$81.90']);
    expect(s.key).toBe('A');
    expect(s.shuffle?.attempts).toBe(3);
    for (const item of BUILTIN_MC_ITEMS) {
      const shuffled = phraseItem(item, 'options-shuffled', { runSeed: 5 });
      expect(shuffled.options.map((o) => o.text)).not.toEqual(item.options.map((o) => o.text));
      expect(shuffled.options.find((o) => o.letter === shuffled.key)?.text).toBe(
        item.options.find((o) => o.letter === item.key)?.text,
      );
    }
  });

  it('lists the letters as a person would', () => {
    expect(letterList(['A', 'B'])).toBe('A or B');
    expect(letterList(['A', 'B', 'C', 'D', 'E'])).toBe('A, B, C, D, or E');
  });
});
