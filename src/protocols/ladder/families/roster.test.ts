import { describe, expect, it } from 'vitest';
import { inputErrorOf } from '../../../test-support/scratch.js';
import { LadderConfigSchema } from '../config.js';
import { type LadderObservation, ladderMetrics } from '../metrics.js';
import { KB_PROMPT, systemPromptFor } from '../prompts.js';
import { LadderTestMetaSchema } from '../test-meta.js';
import { MIN_STABILITY } from '../thresholds.js';
import { ladderFamilies, registerLadderFamily } from './registry.js';
import { builtInFamilyCodes, familyCard, familyCodes, familyName, keepsNoAnswer } from './roster.js';
import { persona } from './test-support/persona-family.js';

/**
 * The roster is what reads a stored suite knows of a family (docs/decisions.md E46): the seven's
 * cards, in the paper's order, and a registered family's beside them, read where it is read, not
 * when a schema is made.
 */

const META = {
  seedId: 's1',
  requestedLevel: 1,
  measuredLevel: 1,
  original: 'Q?',
  text: 'You are kind. Q?',
  gold: 4,
  gates: [],
};

function observations(family: string): LadderObservation[] {
  return ['s1', 's2', 's3'].flatMap((seedId) => [
    { seedId, family: 'baseline', level: 0, magnitude: 0, score: 1 },
    { seedId, family, level: 1, magnitude: 0.2, score: 1 },
    { seedId, family, level: 2, magnitude: 0.4, score: 0 },
  ]);
}

describe('the roster of families', () => {
  it("lists the paper's seven in its order (Table 1), card for card the registry's modules", () => {
    expect(builtInFamilyCodes()).toEqual(['SV', 'IQ', 'F', 'CI', 'CL', 'CIS', 'KB']);
    expect(builtInFamilyCodes().map(familyName)).toEqual([
      'Semantic Variation',
      'Input Quality',
      'Structural/Format',
      'Context Interference',
      'Context Load',
      'Conflict Instruction Stress',
      'Knowledge Boundary',
    ]);
    expect(ladderFamilies().map((f) => f.code)).toEqual(familyCodes());
    for (const f of ladderFamilies())
      expect({ name: familyCard(f.code).name, preserves: familyCard(f.code).preserves }).toEqual({
        name: f.name,
        preserves: f.preserves,
      });
  });

  it('scores by the refusal judge the families that keep no answer, Knowledge Boundary alone of the seven', () => {
    expect(familyCodes().filter(keepsNoAnswer)).toEqual(['KB']);
    expect(keepsNoAnswer('baseline')).toBe(false);
  });

  it('refuses a code no family has in the config, a stored test, the metrics and the check scopes', () => {
    expect(LadderConfigSchema.safeParse({ families: ['SV', 'PS'] }).error?.issues[0]).toMatchObject({
      path: ['families', 1],
      message: "unknown family 'PS' (expected some of SV, IQ, F, CI, CL, CIS, KB)",
    });
    expect(LadderTestMetaSchema.safeParse({ ...META, family: 'PS' }).success).toBe(false);
    expect(inputErrorOf(() => ladderMetrics(observations('PS'), { seed: 1, resamples: 50 })).message).toMatch(
      /unknown family 'PS'/,
    );
    expect(MIN_STABILITY.scopes?.values).not.toContain('PS');
  });

  it('knows a registered family everywhere it is read, and forgets it once removed', () => {
    const remove = registerLadderFamily(persona);
    try {
      expect(familyCodes()).toEqual([...builtInFamilyCodes(), 'PS']);
      expect(LadderConfigSchema.parse({ families: ['PS'] }).families).toEqual(['PS']);
      expect(LadderTestMetaSchema.parse({ ...META, family: 'PS' }).family).toBe('PS');
      expect(MIN_STABILITY.scopes?.values).toContain('PS');
      const m = ladderMetrics(observations('PS'), { seed: 1, resamples: 50 });
      expect(m.families.map((f) => f.family)).toEqual(familyCodes());
      const ps = m.families.find((f) => f.family === 'PS');
      expect([ps?.levels[1].accuracy.value, ps?.levels[2].accuracy.value]).toEqual([1, 0]);
      expect(ps?.collapse).toMatchObject({ status: 'collapsed', level: 2 });
      expect(m.quadrant.points.find((p) => p.family === 'PS')?.x).toBeCloseTo(0.3);
      expect(systemPromptFor('PS', 'json')).not.toBe(KB_PROMPT);
    } finally {
      remove();
    }
    expect(familyCodes()).toEqual(builtInFamilyCodes());
  });

  it('asks and scores a registered family that keeps no answer as Knowledge Boundary', () => {
    const remove = registerLadderFamily({
      ...persona,
      code: 'UQ',
      name: 'Unanswerable',
      preserves: { ...persona.preserves, answer: false },
    });
    try {
      expect(keepsNoAnswer('UQ')).toBe(true);
      expect(systemPromptFor('UQ', 'json')).toBe(KB_PROMPT);
      const judged = observations('UQ').map((o) => ({ ...o, score: o.family === 'UQ' ? 0.75 : o.score }));
      const m = ladderMetrics(judged, { seed: 1, resamples: 50, recognizeThreshold: 0.75 });
      expect(m.families.find((f) => f.family === 'UQ')?.overall.recognise?.value).toBe(1);
      // Pooled by boundary type with Knowledge Boundary's: its L1 is missing information.
      expect(m.kbByType[0]).toMatchObject({ kbType: 'missing-information', n: 3 });
    } finally {
      remove();
    }
  });
});
