import { describe, expect, it } from 'vitest';
import { sharedDataEnv, sharedFile } from '../../../test-support/shared.js';
import { deriveSeed, PyRandom } from '../../../util/random.js';
import { optionLines } from '../choice-lines.js';
import { resolveLadderSeeds } from '../data/datasets.js';
import { CHOICE_DIRECTIVES, TEXT_DIRECTIVES } from '../families/cis/typed-directives.js';
import { ladderFamily } from '../families/registry.js';
import { builtInFamilyCodes } from '../families/roster.js';
import { answerGate } from '../gates/answer-gate.js';
import { structuralGate } from '../gates/structural-gate.js';
import { conflictExplicitness } from '../severity/ces.js';
import { KB_TYPES, LEVELS, type Seed } from '../types.js';

const FAMILIES = builtInFamilyCodes();
/** No rule tests on choice and text seeds: the model generator's (issue 36). */
const UNAVAILABLE = ['SV', 'CI', 'CL', 'KB'];

import { typedRules } from './typed-rules.js';

/**
 * Each family on choice and text seeds, on real rows of ../shared/data (skipped visibly when a file
 * is missing): every candidate the rules make passes the checks of what its type must keep (the
 * answer gate, the structural gate, the family's gate), and each family makes some.
 */

const env = sharedDataEnv;
const FILES = {
  'arc-challenge': 'arc-challenge/arc_challenge.jsonl',
  commonsenseqa: 'commonsenseqa/dev_rand_split.jsonl',
  triviaqa: 'triviaqa/triviaqa_sm_sub.jsonl',
  simpleqa: 'simpleqa/simple_qa_test_set.csv',
  'nq-open': 'nq-open/NQ-open.dev.jsonl',
} as const;
const missing = Object.values(FILES).filter((f) => !sharedFile(`data/${f}`));
const why = missing.length > 0 ? ` (skipped: ../shared/data/${missing.join(', ')} not there)` : '';

async function seedsOf(names: (keyof typeof FILES)[], n: number): Promise<Seed[]> {
  const out: Seed[] = [];
  for (const name of names) out.push(...(await resolveLadderSeeds(name, { env, limit: n })));
  return out;
}

/** Every candidate of every family, level and attempt 1-2 for the seeds, with what it passed. */
function everyCandidate(seeds: readonly Seed[]) {
  const made = [];
  for (const seed of seeds)
    for (const family of FAMILIES)
      for (const level of LEVELS)
        for (const attempt of [1, 2]) {
          const rngSeed = deriveSeed(0, seed.id, family, level, attempt);
          const typed = typedRules(ladderFamily(family), seed, level, attempt, new PyRandom(rngSeed), {
            rngSeed,
          });
          if (typed) made.push({ seed, family, level, attempt, ...typed });
        }
  return made;
}

describe.skipIf(missing.length > 0)(`families on choice and text seeds${why}`, () => {
  it('choice: every candidate keeps the options, their letters, their order and the key', async () => {
    const seeds = await seedsOf(['arc-challenge', 'commonsenseqa'], 8);
    const made = everyCandidate(seeds);
    for (const family of FAMILIES)
      if (UNAVAILABLE.includes(family))
        expect(
          made.filter((m) => m.family === family),
          family,
        ).toEqual([]);
      else expect(made.filter((m) => m.family === family).length, family).toBeGreaterThan(seeds.length);
    for (const m of made) {
      if (m.seed.answerType !== 'choice') throw new Error('not a choice seed');
      const where = `${m.seed.id} ${m.family} L${m.level}#${m.attempt}: ${m.candidate.text}`;
      const gate = answerGate(m.seed, ladderFamily(m.family).preserves, m.candidate.text);
      expect([gate?.verdict, gate?.reason], where).toEqual(['pass', gate?.reason]);
      if (m.family !== 'KB')
        expect(structuralGate(m.seed.question, m.candidate.text).verdict, where).toBe('pass');
      expect(
        ladderFamily(m.family).familyGate(m.seed.question, m.candidate.text, m.level).verdict,
        where,
      ).toBe('pass');
      expect(optionLines(m.candidate.text), where).toEqual(
        m.seed.options.map((o) => ({ letter: o.letter, text: o.text })),
      );
      if (m.family === 'CIS') {
        expect(conflictExplicitness(m.seed.question, m.candidate.text).ces, where).toBe(m.level);
        expect(m.candidate.text, where).not.toMatch(new RegExp(`option ${m.seed.gold}\\b`));
      }
      if (m.family === 'KB') expect(m.candidate.kbType, where).toBe(KB_TYPES[m.level - 1]);
    }
  });

  it("text: no candidate states an accepted answer, and every one keeps the question's names (but IQ's typos)", async () => {
    const seeds = await seedsOf(['triviaqa', 'simpleqa', 'nq-open'], 6);
    const made = everyCandidate(seeds);
    for (const family of FAMILIES)
      if (UNAVAILABLE.includes(family))
        expect(
          made.filter((m) => m.family === family),
          family,
        ).toEqual([]);
      else expect(made.filter((m) => m.family === family).length, family).toBeGreaterThan(seeds.length);
    for (const m of made) {
      const where = `${m.seed.id} ${m.family} L${m.level}#${m.attempt}: ${m.candidate.text}`;
      const gate = answerGate(m.seed, ladderFamily(m.family).preserves, m.candidate.text);
      if (m.family === 'KB') expect(gate, where).toBeUndefined();
      else expect([gate?.verdict, gate?.reason], where).toEqual(['pass', gate?.reason]);
      if (m.family !== 'KB')
        expect(structuralGate(m.seed.question, m.candidate.text).verdict, where).toBe('pass');
      expect(
        ladderFamily(m.family).familyGate(m.seed.question, m.candidate.text, m.level).verdict,
        where,
      ).toBe('pass');
      if (m.family === 'CIS')
        expect(conflictExplicitness(m.seed.question, m.candidate.text).ces, where).toBe(m.level);
      if (m.family === 'KB') {
        expect(m.candidate.kbType, where).toBe(KB_TYPES[m.level - 1]);
        // The question is kept, in quotes, inside the frame.
        expect(m.candidate.text, where).toContain(`"${m.seed.question.trim()}"`);
      }
    }
  });
});

describe('the directives of choice and text seeds', () => {
  it('each holds a phrase of its tier and none above it, so its measured level is its tier', () => {
    for (const lists of [CHOICE_DIRECTIVES, TEXT_DIRECTIVES])
      for (const level of LEVELS)
        for (const d of lists[level]) {
          const said = d.replaceAll('{wrong}', 'B');
          expect(conflictExplicitness('What is it?', `What is it? ${said}`).ces, said).toBe(level);
        }
  });
});
