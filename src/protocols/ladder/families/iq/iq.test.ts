import { describe, expect, it } from 'vitest';
import { loadLadderSeedsCsv } from '../../../../data/number/seeds-csv.js';
import { sharedFile } from '../../../../test-support/shared.js';
import { deriveSeed, PyRandom } from '../../../../util/random.js';
import { whitespaceWords } from '../../text/tokens.js';
import { LEVELS, type Level, type Seed } from '../../types.js';
import { familyRules } from '../rules-common.js';
import { inputQuality } from './index.js';
import { isRealWord } from './real-word.js';
import { IQ_NOISE, readsBack } from './rules.js';
import { realWordSlipIn } from './scans.js';

// A problem of the paper's 100 over 200 characters, where difflib's autojunk lets realistic noise reach every band.
const MARY: Seed = {
  id: 'mary',
  question:
    'Mary is an avid gardener. Yesterday, she received 18 new potted plants from her favorite plant nursery. She already has 2 potted plants on each of the 40 window ledges of her large country home. Feeling generous, she has decided that she will give 1 potted plant from each ledge to friends and family tomorrow. How many potted plants will Mary remain with?',
  gold: 58,
  source: 'test',
};

const altered = (a: string, b: string) => {
  const o = whitespaceWords(a);
  return whitespaceWords(b).filter((w, i) => w !== o[i]).length / o.length;
};

describe('Input Quality noise', () => {
  it('refuses a candidate that does not read back, saying why', () => {
    const o = 'She buys 3 dozen eggs and 2 pounds of flour every week. How many eggs does she buy?';
    expect(
      readsBack(o, 'She buys 3 dozen egs and 2 pounds of flour every week. How many eggs does she buy?', 1),
    ).toBe(undefined);
    // A number, a number word or unit, or the word counted after a number.
    expect(readsBack(o, o.replace('3 dozen', '3 dozn'), 2)).toMatch(/"dozen" .* changed/);
    expect(readsBack(o, o.replace('2 pounds', '2 punds'), 2)).toMatch(/"pounds" .* changed/);
    expect(readsBack(o, o.replace(' 3 ', ' 8 '), 2)).toMatch(/number 3 missing/);
    // More edits than the level allows, a first letter lost below the OCR levels, too many words.
    expect(readsBack(o, o.replace('flour', 'fluor'), 1)).toBe(undefined);
    expect(readsBack(o, o.replace('every', 'evrey'), 1)).toBe(undefined);
    expect(readsBack(o, o.replace('every', 'vreey'), 2)).toMatch(/edits, more than 1|first letter/);
    expect(readsBack(o, o.replace('flour', 'glour'), 3)).toMatch(/first letter changed/);
    expect(readsBack(o, o.replace('She buys', 'Sho bys').replace('every', 'evry'), 1)).toMatch(
      /more than 5%/,
    );
    // "ho wmany": the space struck early carries a letter over; allowed from L3.
    expect(readsBack(o, o.replace('How many', 'Ho wmany'), 3)).toBe(undefined);
  });

  it('alters a share of words inside each level band, keeps every number and unit, and reads back', () => {
    for (const level of LEVELS) {
      const made = [1, 2, 3, 4, 5, 6]
        .map((r) => familyRules(inputQuality, MARY, level, 1, new PyRandom(r)))
        .filter((c) => c !== undefined);
      expect(made.length, `L${level}`).toBeGreaterThan(0);
      for (const c of made) {
        const share = altered(MARY.question, c.text);
        const [, hi] = IQ_NOISE[level].rate;
        expect(share, c.text).toBeLessThanOrEqual(hi + 1e-9);
        if (level > 1)
          expect(share, c.text).toBeGreaterThanOrEqual(IQ_NOISE[(level - 1) as Level].rate[1] - 0.05);
        expect(readsBack(MARY.question, c.text, level)).toBe(undefined);
        for (const kept of [/18\s+new /, /2\s+potted /, /40\s+window /, /1\s+potted /])
          expect(c.text).toMatch(kept);
      }
    }
  });

  it('reads letter shapes the way OCR does at L4-L5, and never writes a digit as a whole word', () => {
    const texts = [4, 5].flatMap((level) =>
      [1, 2, 3, 4, 5, 6].map(
        (r) => familyRules(inputQuality, MARY, level as Level, 1, new PyRandom(r))?.text ?? '',
      ),
    );
    expect(texts.some((t) => /rn|cl|li|vv|[a-z][01][a-z]/.test(t.replace(MARY.question, '')))).toBe(true);
    const o = whitespaceWords(MARY.question);
    for (const t of texts)
      for (const [i, w] of whitespaceWords(t).entries())
        if (w !== o[i]) expect(w).not.toMatch(/^[01]+[.,?]?$/);
  });

  const csv = sharedFile('fixtures/ladder-reference/gsm8k_symbolic100.csv');
  it.skipIf(!csv)(
    `every test on the paper's 100 seeds reads back${csv ? '' : ' (skipped: ../shared/fixtures/ladder-reference/gsm8k_symbolic100.csv is missing)'}`,
    () => {
      const seeds = loadLadderSeedsCsv(csv as string);
      let made = 0;
      for (const seed of seeds)
        for (const level of LEVELS) {
          const rngSeed = deriveSeed(0, seed.id, 'IQ', level, 1);
          const c = familyRules(inputQuality, seed, level, 1, new PyRandom(rngSeed), { rngSeed });
          if (!c) continue;
          made++;
          expect(readsBack(seed.question, c.text, level), c.text).toBe(undefined);
        }
      expect(made).toBeGreaterThan(300);
    },
    60_000,
  );
});

describe('Input Quality never makes a new entity (E62)', () => {
  const MARY: Seed = {
    id: 'gsm-symbolic-64',
    question:
      'Mary has 6 jars of sprinkles in her pantry. Each jar of sprinkles can decorate 8 cupcakes. Mary wants to bake enough cupcakes to use up all of her sprinkles. If each pan holds 12 cupcakes, how many pans worth of cupcakes should she bake?',
    gold: 4,
    source: 'test',
  };

  it('refuses "Mary" -> "May", a name slipped into another word or name', () => {
    const may = MARY.question.replace('Mary wants', 'May wants').replace('sprinkles can', 'sprinkles cna');
    expect(readsBack(MARY.question, may, 2)).toMatch(/"Mary" -> "May", another word or name/);
    expect(isRealWord('Emna')).toBe(false);
    for (const w of ['May', 'Now', 'They', 'Marry', 'Tom']) expect(isRealWord(w), w).toBe(true);
  });

  it('writes no candidate whose capitalised words slip into a word or name, at any level', () => {
    for (const level of LEVELS)
      for (let attempt = 1; attempt <= 12; attempt++) {
        const c = familyRules(
          inputQuality,
          MARY,
          level,
          attempt,
          new PyRandom(deriveSeed(3, MARY.id, 'IQ', level, attempt)),
        );
        if (!c) continue;
        expect(realWordSlipIn(MARY.question, c.text), c.text).toBeUndefined();
      }
  });
});

describe('Input Quality never changes what is asked (review v4, E70)', () => {
  const COUNT: Seed = {
    id: 'count',
    question:
      'Tom has 12 more apples than Sue, and not all of them are red. How many apples does Sue have if Tom has 30?',
    gold: 18,
    source: 'test',
  };

  it('refuses a word of the question slipped into another real word, keeps recoverable slips', () => {
    const may = COUNT.question.replace('How many', 'How may');
    expect(readsBack(COUNT.question, may, 1)).toMatch(
      /"many" -> "may", another word that changes the question/,
    );
    expect(realWordSlipIn(COUNT.question, may)).toMatch(/"many" -> "may"/);
    expect(realWordSlipIn(COUNT.question, COUNT.question.replace('than', 'then'))).toMatch(
      /"than" -> "then"/,
    );
    expect(realWordSlipIn(COUNT.question, COUNT.question.replace('not all', 'nut all'))).toMatch(
      /"not" -> "nut"/,
    );
    // A space struck early moves a letter, no new word; a slip into no word, or of another word, is a typo.
    expect(realWordSlipIn(COUNT.question, COUNT.question.replace('How many', 'Ho wmany'))).toBeUndefined();
    expect(realWordSlipIn(COUNT.question, COUNT.question.replace('How many', 'Howm any'))).toBeUndefined();
    expect(realWordSlipIn(COUNT.question, COUNT.question.replace('How many', 'How mnay'))).toBeUndefined();
    expect(realWordSlipIn(COUNT.question, COUNT.question.replace('red', 'rod'))).toBeUndefined();
  });

  it('writes no candidate with such a slip, at any level', () => {
    for (const level of LEVELS)
      for (let attempt = 1; attempt <= 40; attempt++) {
        const c = familyRules(
          inputQuality,
          COUNT,
          level,
          attempt,
          new PyRandom(deriveSeed(5, COUNT.id, 'IQ', level, attempt)),
        );
        if (c) expect(realWordSlipIn(COUNT.question, c.text), c.text).toBeUndefined();
      }
  });
});
