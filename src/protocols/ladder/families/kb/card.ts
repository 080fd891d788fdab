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
      on: 'a problem with a count or a sum of money the solution uses, given once in a plain clause of its own, with no verb after the amount, that a cited figure can stand in for ("There are 6 girls in the park.", "$10 a ride"; never "5 patients are admitted"), not after a determiner, in a rate\'s own phrase ("every 15 minutes"), in quotes, a ratio or a list',
      doc: IN_PLACE,
    },
    3: {
      on: 'a problem with a price, fee or wage told in the present ("costs $3 per pound", "charges $90", "earns $12 an hour"), the one given the rules make a value still to be set; never a count, a time, a size or a sum already paid',
      doc: 'docs/ladder-families.md#kb-l3',
    },
    4: {
      on: "a problem with a given an invented thing's public, fixed property can stand for, of the same kind and about the same size: a distance (a trail's or a bridge's length), a height (a tower's), a count of people (a venue's seats), a duration (a film's or an episode's running time, a train's timetable) or a product's price (a model's list price); never a private count, a person, a rate or a weight",
      doc: 'docs/ladder-families.md#kb-l4',
    },
    5: {
      on: 'a problem that allows a kind of impossible premise: a share of a whole, more hours or days than a period holds, an age, a count of things that come whole, a part over its whole or a count or price below zero, a listed total or a divisor the solution uses; never a minus sign, nor a stock, a time or a target merely overrun',
      doc: 'docs/ladder-families.md#kb-impossible',
    },
  },
};
