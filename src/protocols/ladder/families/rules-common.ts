/**
 * Small pieces the rules generators share: a family's rules run with its generator record, seeded
 * picks, and inserting sentences at sentence boundaries.
 */

import type { PyRandom } from '../../../util/random.js';
import { endsWithAbbreviation } from '../text/tokens.js';
import type { Family, GeneratorInfo, Level, Seed } from '../types.js';
import type { Candidate, LadderFamily, RulesMade, RulesOptions } from './contract.js';

/** The generator record of a rules candidate; `seed` is the suite's derived seed when the caller passes it. */
function rulesGenerator(
  family: Family,
  subtype: string,
  attempt: number,
  opts?: RulesOptions,
): GeneratorInfo {
  return { kind: 'rules', name: `${family}/${subtype}`, seed: opts?.rngSeed ?? 0, attempt };
}

/**
 * A family the rules cannot write well on a seed type (issue 36: a reviewer accepted SV 1/4, CI
 * 0-1/4, CL 0/4 on short choice and text questions; CI 0/6, CL 0/6 on GSM-Symbolic, E62):
 * reported unavailable with this reason.
 */
export function needsGenerator(what: string): { unavailable: string } {
  return { unavailable: `needs --generator: ${what}` };
}

/** A rules candidate: what a family's rules made, with the generator record (family, attempt, seed). */
export function rulesCandidate(
  family: Family,
  made: RulesMade,
  attempt: number,
  opts?: RulesOptions,
): Candidate {
  const candidate: Candidate = {
    text: made.text,
    generator: rulesGenerator(family, made.name, attempt, opts),
    ...(made.subtype !== undefined && { subtype: made.subtype }),
  };
  if (made.kbType !== undefined) candidate.kbType = made.kbType;
  return candidate;
}

/**
 * A family's rules on a seed as it is: the aim target (the family, question, level and band
 * options) made for it, and the generator record added to what they made.
 */
export function familyRules(
  family: LadderFamily,
  seed: Seed,
  level: Level,
  attempt: number,
  rng: PyRandom,
  opts?: RulesOptions,
): Candidate | undefined {
  if (typeof family.rules !== 'function') return undefined;
  const original = seed.question;
  const target = { family, original, level, ...(opts && { opts }) };
  const made = family.rules({ seed, original, level, attempt, rng, target });
  return made && rulesCandidate(family.code, made, attempt, opts);
}

/** A seeded shuffled copy (CPython's shuffle, so Python can replay it). */
export function shuffled<T>(items: readonly T[], rng: PyRandom): T[] {
  const copy = [...items];
  rng.shuffle(copy);
  return copy;
}

/** Offsets in `text` just after each sentence end (`.`, `!`, `?` followed by whitespace), where a sentence may be inserted. */
export function sentenceBoundaries(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/[.!?]["')]?(?=\s)/g)) {
    const end = (m.index ?? 0) + m[0].length;
    // "Mr. Yu" is one name: nothing goes between its parts.
    if (!endsWithAbbreviation(text.slice(0, end))) out.push(end);
  }
  return out;
}

/** Inserts sentences after the boundary at `offset` (0 = before everything, text.length = after), spaced by single spaces. */
export function insertAt(text: string, offset: number, sentences: readonly string[]): string {
  if (sentences.length === 0) return text;
  const block = sentences.join(' ');
  if (offset <= 0) return `${block} ${text}`;
  if (offset >= text.length) return `${text} ${block}`;
  return `${text.slice(0, offset)} ${block}${text.slice(offset)}`;
}
