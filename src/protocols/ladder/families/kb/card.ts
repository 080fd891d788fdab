import type { FamilyCard } from '../contract.js';

const IN_PLACE = 'docs/ladder-families.md#kb-in-place';

/** Knowledge Boundary's code, name and what it keeps, read without loading its module (families/roster.ts). */
export const KB_CARD: FamilyCard = {
  code: 'KB',
  name: 'Knowledge Boundary',
  preserves: { numbers: false, answer: false, words: false, names: false },
  // What rules.ts (defineInPlace, notYetSet) and impossible.ts need of a seed, level by level.
  rulesScope: {
    2: {
      on: 'a problem with a count or a sum of money the solution uses, given once in a plain clause of its own that a cited figure can stand in for ("There are 6 girls in the park.", "$10 a ride"), not after a determiner, in a rate\'s own phrase ("every 15 minutes"), in quotes, a ratio or a list',
      doc: IN_PLACE,
    },
    3: {
      on: 'a problem with a price, fee or wage told in the present ("costs $3 per pound", "charges $90", "earns $12 an hour"), the one given the rules make a value still to be set; never a count, a time, a size or a sum already paid',
      doc: 'docs/ladder-families.md#kb-l3',
    },
    4: {
      on: 'a problem with a count or a sum of money the solution uses, in a plain clause of its own, whose holder an invented rival can be set against: a person, a made thing, food, a group, a place or an animal ("10 more hectares than the explorer Ida Vellmont"), or a shop for a price ("$10 more a ride than at the Calloway-Vellmont Cooperative"); never a percentage, a measure or an age',
      doc: IN_PLACE,
    },
    5: {
      on: 'a problem that allows a kind of impossible premise: a share of a whole, more hours or days than a period holds, an age, a count of things that come whole, more taken than there is, a listed total or a divisor the solution uses; never a minus sign',
      doc: 'docs/ladder-families.md#kb-impossible',
    },
  },
};
