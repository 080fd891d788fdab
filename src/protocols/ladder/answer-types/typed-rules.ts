import type { PyRandom } from '../../../util/random.js';
import type { Candidate, LadderFamily, RulesOptions, TypedRule } from '../families/contract.js';
import { familyRules, rulesCandidate } from '../families/rules-common.js';
import { type ChoiceSeed, choiceQuestion, type Level, type NumberSeed, type Seed } from '../types.js';

/**
 * Each family on each answer type (docs/ladder-families.md#answer-types), as the family says
 * (its `answerTypes`). Number seeds: the family's own rules. Choice seeds: the rules on the stem
 * alone with the options put back, untouched, after it (`stem`), the rules on the whole item
 * (`item`), or the family's own rule for a choice item. Text seeds: the rules on the question, or
 * the family's own rule.
 */

/** A candidate of a typed seed (no family moves a choice seed's options: Format keeps them, issue 36). */
export interface TypedCandidate {
  candidate: Candidate;
}

/** A choice seed's stem as a plain seed the number rules can read (no family reads a seed's gold). */
function stemSeed(seed: ChoiceSeed): NumberSeed {
  return { id: seed.id, question: seed.stem, gold: 0, source: seed.source };
}

/** Why the family's rules write nothing for this seed's answer type, or undefined when they do. */
export function rulesUnavailable(family: LadderFamily, seed: Seed): string | undefined {
  // No rules on any seed type (docs/decisions.md E62).
  if (typeof family.rules !== 'function') return family.rules.unavailable;
  if (seed.answerType !== 'choice' && seed.answerType !== 'text') return undefined;
  const rule = seed.answerType === 'choice' ? family.answerTypes.choice : family.answerTypes.text;
  return typeof rule === 'object' ? rule.unavailable : undefined;
}

export function typedRules(
  family: LadderFamily,
  seed: Seed,
  level: Level,
  attempt: number,
  rng: PyRandom,
  opts: RulesOptions,
): TypedCandidate | undefined {
  if (rulesUnavailable(family, seed) !== undefined) return undefined;
  if (seed.answerType === 'choice') {
    const rule = family.answerTypes.choice as Exclude<
      LadderFamily['answerTypes']['choice'],
      { unavailable: string }
    >;
    if (rule === 'stem') {
      const made = familyRules(family, stemSeed(seed), level, attempt, rng, opts);
      return made && { candidate: { ...made, text: choiceQuestion(made.text, seed.options) } };
    }
    if (rule !== 'item') return ownRule(family, rule, seed, level, attempt, rng, opts);
  }
  const text = family.answerTypes.text;
  if (seed.answerType === 'text' && typeof text === 'function')
    return ownRule(family, text, seed, level, attempt, rng, opts);
  const made = familyRules(family, seed, level, attempt, rng, opts);
  return made && { candidate: made };
}

/** A family's own rule for the seed's answer type, with the generator record added. */
function ownRule<S extends Seed>(
  family: LadderFamily,
  rule: TypedRule<S>,
  seed: S,
  level: Level,
  attempt: number,
  rng: PyRandom,
  opts: RulesOptions,
): TypedCandidate | undefined {
  const original = seed.question;
  const made = rule({ seed, original, level, attempt, rng, target: { family, original, level, opts } });
  return made && { candidate: rulesCandidate(family.code, made, attempt, opts) };
}
