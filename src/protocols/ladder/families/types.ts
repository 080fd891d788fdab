/**
 * The shape every ladder perturbation family has (docs/architecture.md): a deterministic
 * rules generator, the instructions for a generator model, and the family's structural rules.
 */

import type { PyRandom } from '../../../util/random.js';
import type { MeasureOptions } from '../severity/levels.js';
import type { Family, GateVerdict, GeneratorInfo, KbType, Level, Seed } from '../types.js';

/** A perturbed question offered to the gates. */
export interface Candidate {
  text: string;
  generator: GeneratorInfo;
  /** The technique that made it (`typos`, `table`, `synonyms+reorder`...); for KB the boundary type. */
  subtype?: string;
  kbType?: KbType;
}

/** What the `model` generator sends a generator model for one family, level and attempt. */
export interface ModelInstructions {
  system: string;
  user: string;
  temperature: number;
  /**
   * `append`: the reply is only an addition, and the candidate is the seed's question, a line
   * break, then the reply (Context Interference, as the reference builds it). Unset: the reply is the candidate.
   */
  output?: 'append';
}

/**
 * How the severity of a candidate will be measured, so a rules generator can aim at the band the
 * suite will bin it into (the suite passes its configured bands; defaults otherwise).
 */
export type RulesOptions = Pick<MeasureOptions, 'bands' | 'strictLoadBands' | 'genericFallback'> & {
  /** The seed `rng` was made from, recorded in the candidate's generator info (0 when not given). */
  rngSeed?: number;
};

export interface FamilyModule {
  family: Family;
  /**
   * Deterministic, offline, seeded: a candidate for (seed, level, attempt), or undefined when the
   * rule cannot apply to this seed. All randomness comes from `rng`.
   */
  rules(seed: Seed, level: Level, attempt: number, rng: PyRandom, opts?: RulesOptions): Candidate | undefined;
  /** What the `model` generator asks a generator model for this family and level (the gist of the paper's prompts, waver's own words). */
  modelInstructions(seed: Seed, level: Level, attempt: number): ModelInstructions;
  /** The family's structural rules beyond the shared gate (docs/method.md#structural-gate). */
  familyGate(original: string, candidate: string, level: Level): GateVerdict;
}
