import { describe, expect, it } from 'vitest';
import { SEED_A, SEED_B } from '../../../test-support/protocols/ladder/fakes.js';
import { protectedNumbers } from './ci/instructions.js';
import { loadWordTargets } from './cl/instructions.js';
import { generatorTemperature, modelInstructions, styleHint } from './instructions.js';
import { ladderFamily } from './registry.js';
import { paraphraseAnchors } from './sv/instructions.js';

// The reference's prompts are its registry's `_generic` ones (neuroloft-ai/stability at 32dac976,
// registry/seed_*.py); short spans of them are quoted where waver keeps the wording.

describe('generatorTemperature', () => {
  it("adds 0.10 per retry to the level's first-attempt temperature and caps at 0.95", () => {
    const iq = ladderFamily('IQ');
    const kb = ladderFamily('KB');
    expect(generatorTemperature(iq, 2, 1)).toBe(0.2);
    expect(generatorTemperature(iq, 2, 2)).toBe(0.3); // not 0.30000000000000004
    expect(generatorTemperature(kb, 2, 3)).toBe(0.9);
    expect(generatorTemperature(kb, 2, 4)).toBe(0.95);
    expect(generatorTemperature(kb, 2, 9)).toBe(0.95);
  });
});

describe('Context Interference (append-only, registry/seed_distraction.py)', () => {
  it('asks for the distractor only, never the whole text', () => {
    for (const level of [1, 2, 3, 4, 5] as const) {
      const i = modelInstructions(ladderFamily('CI'), SEED_A, level, 1);
      expect(i.output).toBe('append');
      expect(i.system).toMatch(/Write only the new text, never a copy or an edit of the problem/);
      expect(i.system).toMatch(/Reply with the distractor only/);
      expect(i.system).not.toMatch(/Copy the original problem/);
    }
  });

  it('asks for 1 sentence at L1-L4, 1-2 at L5, with 0/1/1/2/3 new numbers', () => {
    const user = (l: 1 | 2 | 3 | 4 | 5) => modelInstructions(ladderFamily('CI'), SEED_A, l, 1).user;
    expect(user(1)).toMatch(/^Write ONE short neutral sentence.*no numbers at all/);
    expect(user(2)).toMatch(/^Write ONE short sentence.*exactly ONE number/);
    expect(user(3)).toMatch(/^Write ONE plausible story detail with exactly ONE new number/);
    expect(user(4)).toMatch(/^Write ONE tempting sentence.*exactly TWO new numbers.*does not apply/);
    expect(user(5)).toMatch(/^Write 1-2 sentences.*exactly THREE new numbers.*does not apply here/);
    expect(user(3)).not.toMatch(/does not apply/);
  });

  it('lists the protected numbers as the reference does', () => {
    expect(modelInstructions(ladderFamily('CI'), SEED_A, 2, 1).user).toContain(
      'PROTECTED NUMBERS (do not use): 3, 12, 5',
    );
    const none = { ...SEED_B, question: 'How many eggs are in a dozen?' };
    expect(modelInstructions(ladderFamily('CI'), none, 2, 1).user).toContain(
      'PROTECTED NUMBERS (do not use): none',
    );
    expect(protectedNumbers('It costs $1,200.50, then 3 and 3 again.')).toEqual(['$1,200.50', '3']);
  });

  it('is the only append-only family', () => {
    for (const family of ['SV', 'IQ', 'F', 'CL', 'CIS', 'KB'] as const)
      expect(modelInstructions(ladderFamily(family), SEED_A, 3, 1).output).toBeUndefined();
  });
});

describe('Context Load word targets (registry/seed_context.py)', () => {
  it('gives the input word count and the band midpoint target', () => {
    // SEED_A has 25 words; L1's band 10-20% more -> x1.15 -> 28; L5's 50-60% -> x1.55 -> 38.
    expect(loadWordTargets(SEED_A.question, 1)).toEqual({ input: 25, target: 28 });
    expect(loadWordTargets(SEED_A.question, 5)).toEqual({ input: 25, target: 38 });
    expect(modelInstructions(ladderFamily('CL'), SEED_A, 3, 1).user).toContain(
      'The problem is 25 words. Write a document of about 33 words in total.',
    );
  });
});

describe('generator guidance', () => {
  it('rotates a style hint per attempt', () => {
    const hints = [1, 2, 3, 4].map((a) => styleHint(ladderFamily('SV'), a));
    expect(new Set(hints).size).toBe(4);
    expect(styleHint(ladderFamily('SV'), 5)).toBe(hints[0]);
    expect(modelInstructions(ladderFamily('IQ'), SEED_A, 2, 2).user).toContain(
      `Style guidance: ${styleHint(ladderFamily('IQ'), 2)}`,
    );
  });

  it('gives Semantic Variation a tone at L3-L5 only, and its anchors', () => {
    expect(modelInstructions(ladderFamily('SV'), SEED_A, 2, 1).user).not.toMatch(/tone\./);
    expect(modelInstructions(ladderFamily('SV'), SEED_A, 3, 1).user).toContain('Write in a textbook tone.');
    expect(modelInstructions(ladderFamily('SV'), SEED_A, 5, 2).user).toContain(
      'Write in a conversational tone.',
    );
    expect(paraphraseAnchors('It costs $1,200 for 3 hours.')).toBe(
      'ANCHORS (keep exactly):\n- Numbers: 1200, 3\n- Units: $, hours',
    );
    expect(modelInstructions(ladderFamily('SV'), SEED_A, 1, 1).user).toContain('- Numbers: 3, 12, 5');
    const sys = modelInstructions(ladderFamily('SV'), SEED_A, 1, 1).system;
    expect(sys).toMatch(/exactly the same mathematical operations/);
    expect(sys).toMatch(/same\s+number of questions/);
    expect(sys).toMatch(/naturally and fluently/);
  });

  it('Format: a visible change at L1, 3-5 words per line and the text once at L4-L5', () => {
    expect(modelInstructions(ladderFamily('F'), SEED_A, 1, 1).user).toMatch(
      /You must make at least one visible change/,
    );
    expect(modelInstructions(ladderFamily('F'), SEED_A, 4, 1).user).toMatch(/3-5 words on every line/);
    expect(modelInstructions(ladderFamily('F'), SEED_A, 5, 1).user).toMatch(
      /3-5 words on every line, and give the text once/,
    );
    expect(modelInstructions(ladderFamily('F'), SEED_A, 1, 1).system).toMatch(/never repeat it/);
  });

  it('Knowledge Boundary: the registry temperatures and wording per boundary type', () => {
    // registry/seed_kb.py: missing_info .4, fake_evidence .7, future .5, fake_entity .6, impossible .3.
    expect(ladderFamily('KB').instructions.temperatures).toEqual([0.4, 0.7, 0.5, 0.6, 0.3]);
    expect(modelInstructions(ladderFamily('KB'), SEED_A, 5, 1).temperature).toBe(0.3);
    expect(modelInstructions(ladderFamily('KB'), SEED_A, 2, 1).user).toMatch(
      /asks for a specific citation, study/,
    );
    expect(modelInstructions(ladderFamily('KB'), SEED_A, 3, 1).user).toMatch(/must NOT be computable/);
  });

  it('CIS tier 5 says "system prompt", the phrase CES tier 5 matches', () => {
    const l5 = modelInstructions(ladderFamily('CIS'), SEED_A, 5, 1).user;
    expect(l5).toContain('system prompt');
    expect(l5).not.toContain('system-prompt');
  });
});
