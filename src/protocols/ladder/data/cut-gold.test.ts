import { describe, expect, it } from 'vitest';
import { cutGold, damagedQuestion, withoutCutGolds } from './text-seeds.js';

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

describe('questions damaged in the source file (review v8, trivia-5)', () => {
  it('flags a question kept in its CSV escaping and keeps quoted titles written plainly', () => {
    expect(damagedQuestion('"What type of clothing is a ""sou-wester""?"')).toMatch(/CSV escaping/);
    expect(damagedQuestion('"Which outdoor game is won by ""pegging out"')).toMatch(/CSV escaping/);
    for (const whole of [
      'What type of clothing is a "sou-wester"?',
      '"Yabba dabba doo" was a catch-phrase in which cartoon series?',
      'Who wrote "Jabberwocky"?',
    ])
      expect(damagedQuestion(whole), whole).toBeUndefined();
  });

  it('leaves out a text seed whose question is damaged, and says why', () => {
    const seeds = [
      { id: 't5', answerType: 'text', gold: 'Hat', question: '"What type of clothing is a ""sou-wester""?"' },
      { id: 't6', answerType: 'text', gold: 'Hat', question: 'What type of clothing is a "sou-wester"?' },
    ];
    const { kept, leftOut } = withoutCutGolds(seeds);
    expect(kept.map((s) => s.id)).toEqual(['t6']);
    expect(leftOut).toEqual([{ id: 't5', gold: 'Hat', why: expect.stringMatching(/CSV escaping/) }]);
  });
});
