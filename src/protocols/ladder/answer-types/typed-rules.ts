import type { McOption } from '../../../data/mc/mc-item.js';
import type { PyRandom } from '../../../util/random.js';
import { CHOICE_DIRECTIVES, TEXT_DIRECTIVES } from '../families/cis/typed-directives.js';
import { choiceFormat } from '../families/f/choice-format.js';
import { boundaryFrame } from '../families/kb/boundary.js';
import type { Candidate, FamilyModule, RulesOptions } from '../families/types.js';
import { formatGate } from '../gates/family-gates.js';
import { conflictExplicitness } from '../severity/ces.js';
import {
  type ChoiceSeed,
  choiceQuestion,
  type Family,
  type GateVerdict,
  type Level,
  type NumberSeed,
  type Seed,
  type TextSeed,
} from '../types.js';

/**
 * Each family on each answer type (docs/ladder-families.md#answer-types). Number seeds: the
 * family's own rules. Choice seeds: Semantic Variation, Input Quality and Context Interference
 * apply the family's rules to the stem alone and put the options back, untouched, after it;
 * Context Load pads the whole item (before the stem, the options last, as for numbers); Format,
 * Conflict Instruction Stress and Knowledge Boundary have their own rules (choice-format.ts,
 * directives.ts, boundary.ts). Text seeds: every family's own rules on the question, but
 * Conflict Instruction Stress and Knowledge Boundary, which have their own.
 */

/** A candidate, and where it moved a choice seed's options: as shown, and the key's letter there. */
export interface TypedCandidate {
  candidate: Candidate;
  reordered?: { options: McOption[]; key: string };
}

/** A choice seed's stem as a plain seed the number rules can read (no family reads a seed's gold). */
function stemSeed(seed: ChoiceSeed): NumberSeed {
  return { id: seed.id, question: seed.stem, gold: 0, source: seed.source };
}

const STEM_ONLY: readonly Family[] = ['SV', 'IQ', 'CI'];

export function typedRules(
  module: FamilyModule,
  seed: Seed,
  level: Level,
  attempt: number,
  rng: PyRandom,
  opts: RulesOptions,
): TypedCandidate | undefined {
  const family = module.family;
  const rngSeed = opts.rngSeed ?? 0;
  const named = (name: string, subtype?: string): Pick<Candidate, 'generator' | 'subtype'> => ({
    generator: { kind: 'rules', name: `${family}/${name}`, seed: rngSeed, attempt },
    ...(subtype !== undefined && { subtype }),
  });
  if (seed.answerType === 'choice') {
    if (STEM_ONLY.includes(family)) {
      const made = module.rules(stemSeed(seed), level, attempt, rng, opts);
      return made && { candidate: { ...made, text: choiceQuestion(made.text, seed.options) } };
    }
    if (family === 'F') {
      const layout = choiceFormat(seed, level, rng, opts);
      return (
        layout && {
          candidate: { text: layout.text, ...named(`choice-${layout.subtype}`, layout.subtype) },
          ...(layout.reordered && { reordered: layout.reordered }),
        }
      );
    }
    if (family === 'CIS') return directive(seed, seed.stem, level, attempt, rng, true, named);
    if (family === 'KB') {
      const { text, kbType } = boundaryFrame(seed.stem, level, attempt, rng, true);
      return {
        candidate: { text: choiceQuestion(text, seed.options), kbType, ...named(`choice-${kbType}`, kbType) },
      };
    }
  }
  if (seed.answerType === 'text') {
    if (family === 'CIS') return directive(seed, seed.question, level, attempt, rng, false, named);
    if (family === 'KB') {
      const { text, kbType } = boundaryFrame(seed.question, level, attempt, rng, false);
      return { candidate: { text, kbType, ...named(`text-${kbType}`, kbType) } };
    }
  }
  const made = module.rules(seed, level, attempt, rng, opts);
  return made && { candidate: made };
}

/**
 * A directive of the level's tier before the question, or after it (after the options, for a
 * choice seed), kept only when the CES of what it adds is the level.
 */
function directive(
  seed: ChoiceSeed | TextSeed,
  question: string,
  level: Level,
  attempt: number,
  rng: PyRandom,
  choice: boolean,
  named: (name: string, subtype?: string) => Pick<Candidate, 'generator' | 'subtype'>,
): TypedCandidate | undefined {
  const list = (choice ? CHOICE_DIRECTIVES : TEXT_DIRECTIVES)[level];
  const wrongs = choice ? (seed as ChoiceSeed).options.filter((o) => o.letter !== seed.gold) : [];
  const wrong = wrongs[rng.randrange(Math.max(wrongs.length, 1))]?.letter ?? '';
  const said = (list[rng.randrange(list.length)] as string).replaceAll('{wrong}', wrong);
  const body = choice ? choiceQuestion(question, (seed as ChoiceSeed).options) : question;
  const before = rng.random() < 0.5 === (attempt % 2 === 1);
  const text = before ? `${said} ${body}` : `${body}\n${said}`;
  if (conflictExplicitness(seed.question, text).ces !== level) return undefined;
  return { candidate: { text, ...named(`${choice ? 'choice' : 'text'}-tier${level}`, `tier${level}`) } };
}

/**
 * The family gate on a typed candidate: the family's own, except a choice Format candidate whose
 * options were reordered, which must hold the same word tokens as the item with its options in the
 * recorded order (Format's rule, on the item as the test shows it).
 */
export function typedFamilyGate(
  module: FamilyModule,
  seed: Seed,
  candidate: string,
  level: Level,
  reordered?: { options: readonly McOption[] },
): GateVerdict {
  if (!(seed.answerType === 'choice' && module.family === 'F' && reordered))
    return module.familyGate(seed.question, candidate, level);
  const shown = formatGate(choiceQuestion(seed.stem, reordered.options), candidate);
  return shown.verdict === 'pass'
    ? { ...shown, reason: `${shown.reason}; the options reordered, the key remapped` }
    : shown;
}
