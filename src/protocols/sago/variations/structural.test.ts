import { describe, expect, it } from 'vitest';
import {
  isQuestion,
  LENGTH_MULTIPLIERS,
  lengthText,
  parseGeneratedVariant,
  sentenceFormText,
  structuralInstructions,
  structuralVariation,
  structuralVariations,
} from './structural.js';

const Q = "Who is the richest person in the world who didn't finish high school?";

describe('sentence form by templates', () => {
  it('turns a wh-question into an embedded question or a command', () => {
    expect(sentenceFormText(Q, 'interrogative')).toBe(
      "Can you tell me who is the richest person in the world who didn't finish high school?",
    );
    expect(sentenceFormText(Q, 'imperative')).toBe(
      "Tell me who is the richest person in the world who didn't finish high school.",
    );
  });

  it('frames a yes/no question and an unpunctuated lowercase one', () => {
    expect(sentenceFormText('Is the sky blue?', 'imperative')).toBe('Answer the following: Is the sky blue?');
    expect(sentenceFormText('when did the war end', 'imperative')).toBe('Tell me when did the war end.');
    expect(isQuestion('when did the war end')).toBe(true);
  });

  it('turns an instruction into a question, and frames it as a task', () => {
    expect(sentenceFormText('Give three tips for staying healthy.', 'interrogative')).toBe(
      'Could you give three tips for staying healthy?',
    );
    expect(sentenceFormText('Please list NATO members.', 'interrogative')).toBe(
      'Could you list NATO members?',
    );
    expect(sentenceFormText('Give three tips for staying healthy.', 'imperative')).toBe(
      'Do this task: Give three tips for staying healthy.',
    );
  });
});

describe('length by rules', () => {
  it('compresses by dropping function words, never wh-words, negations or punctuated words', () => {
    const { text, achievedRatio } = lengthText(Q, 0.5);
    expect(text).toBe("Who richest person world who didn't finish high school?");
    expect(achievedRatio).toBeCloseTo(9 / 13, 12);
  });

  it('stops at the target when it can, and keeps the capital', () => {
    // 10 words, target floor(0.75 * 10 + 0.5) = 8: drops "The" and "on", then stops.
    expect(lengthText('The cat sat on the mat in the warm sun.', 0.75)).toEqual({
      text: 'Cat sat the mat in the warm sun.',
      achievedRatio: 0.8,
    });
  });

  it('expands with neutral sentences toward the target, each multiplier to its own length', () => {
    const texts = LENGTH_MULTIPLIERS.filter((m) => m > 1).map((m) => lengthText(Q, m));
    for (const [i, m] of [1.5, 2, 3].entries()) {
      const r = texts[i] as { text: string; achievedRatio: number };
      expect(r.text).toContain(Q);
      expect(Math.abs(r.achievedRatio - m)).toBeLessThan(0.4);
      expect(r.text).not.toMatch(/please|thank|sorry/i);
    }
    expect(new Set(texts.map((t) => t.text)).size).toBe(3);
  });

  it('restates a long prompt when the sentences run out', () => {
    const long = `${'Describe the history of the river and the towns along it in detail '.repeat(10).trim()}.`;
    const { text, achievedRatio } = lengthText(long, 3);
    expect(text).toContain('To restate the request:');
    expect(achievedRatio).toBeGreaterThan(2.5);
  });

  it('records the generator, position and achieved ratio', () => {
    const v = structuralVariation(Q, 'length', 2);
    expect(v).toMatchObject({
      family: 'structural',
      subtype: 'length',
      strength: 2,
      position: 'global',
      generator: 'rules',
    });
    expect(v.achievedRatio).toBeGreaterThan(1.5);
    expect(structuralVariations(Q)).toHaveLength(7);
    expect(() => structuralVariation(Q, 'length', 4)).toThrow(/0.25, 0.5, 1.5, 2, 3/);
    expect(() => structuralVariation(Q, 'imperative', 2)).toThrow(RangeError);
  });
});

describe('generator instructions and replies', () => {
  it('names the target length and asks for the rewrite only', () => {
    const text = structuralInstructions(Q, 'length', 0.5);
    expect(text).toContain('about 7 words instead of 13');
    expect(text).toContain(`Original prompt: ${Q}`);
    expect(text).toMatch(/Do not answer the prompt/);
    expect(structuralInstructions(Q, 'imperative', 1)).toMatch(/imperative mood/);
    expect(structuralInstructions(Q, 'interrogative', 1)).toMatch(/question mark/);
  });

  it('parses a reply with a label, quotes or a fence, and refuses an empty one', () => {
    expect(parseGeneratedVariant('Rewritten prompt: "Name the richest dropout."')).toBe(
      'Name the richest dropout.',
    );
    expect(parseGeneratedVariant('```\nName the richest dropout.\n```')).toBe('Name the richest dropout.');
    expect(parseGeneratedVariant('\u201cWho is it?\u201d')).toBe('Who is it?');
    expect(parseGeneratedVariant('   ')).toBeUndefined();
  });
});
