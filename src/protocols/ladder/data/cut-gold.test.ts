import { describe, expect, it } from 'vitest';
import { cutGold, withoutCutGolds } from './text-seeds.js';

describe('golds cut short in the source file (issue 36)', () => {
  it('flags the cut TriviaQA golds and keeps whole ones', () => {
    expect(cutGold('A HAWKER RIDES: A P')).toMatch(/letter "P"/);
    expect(cutGold('LEE CHILD (accept his real name J')).toMatch(/bracket/);
    expect(cutGold('Albania, Bulgaria, Czechoslovakia,')).toMatch(/ends on ","/);
    expect(cutGold("'THE PLAYBOY OF THE WESTERN")).toMatch(/quote/);
    expect(cutGold('EARL OF ROSEBERRY or')).toMatch(/"or"/);
    for (const whole of [
      'GEORGE V',
      'FRANKLIN D ROOSEVELT',
      'Of',
      'Model T',
      "'MADAME BUTTERFLY'",
      'A TALE OF TWO CITIES',
    ])
      expect(cutGold(whole), whole).toBeUndefined();
  });

  it('leaves out only text seeds with a cut gold, and says which', () => {
    const seeds = [
      { id: 't1', answerType: 'text', gold: 'A HAWKER RIDES: A P' },
      { id: 't2', answerType: 'text', gold: 'Model T' },
      { id: 'n1', answerType: 'number', gold: 5 },
    ];
    const { kept, leftOut } = withoutCutGolds(seeds);
    expect(kept.map((s) => s.id)).toEqual(['t2', 'n1']);
    expect(leftOut).toEqual([{ id: 't1', gold: 'A HAWKER RIDES: A P', why: 'it ends on the letter "P"' }]);
  });
});
