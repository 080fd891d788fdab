/**
 * The whole SAGO variation set V of one prompt (the paper's Eq. 3), from waver's rule-based
 * generators: register x strength x position, noise subtype x strength x position, structural
 * rules (global). The sago protocol may replace the structural rule variants with a generator
 * model's (see `structuralInstructions`). See docs/sago-measures.md#variations.
 */
import { InputError } from '../../../errors.js';
import { NOISE_POSITIONS, NOISE_STRENGTHS, type NoisePosition, noiseVariations } from './noise.js';
import {
  REGISTER_CLOSED_SUBSET,
  REGISTER_POSITIONS,
  REGISTER_STRENGTHS,
  registerVariations,
} from './register.js';
import { FORM_STRENGTH, LENGTH_MULTIPLIERS, structuralVariations } from './structural.js';
import type { Variation, VariationFamily, VariationSubtype } from './types.js';

export const VARIATION_FAMILIES: readonly VariationFamily[] = ['register', 'noise', 'structural'];

/** The strengths each subtype admits (what a config may name). */
export const SUBTYPE_STRENGTHS: Readonly<Record<VariationSubtype, readonly number[]>> = {
  politeness: REGISTER_STRENGTHS,
  ...NOISE_STRENGTHS,
  length: LENGTH_MULTIPLIERS,
  interrogative: [FORM_STRENGTH],
  imperative: [FORM_STRENGTH],
};

export const FAMILY_OF: Readonly<Record<VariationSubtype, VariationFamily>> = {
  politeness: 'register',
  spacing: 'noise',
  punctuation: 'noise',
  casing: 'noise',
  length: 'structural',
  interrogative: 'structural',
  imperative: 'structural',
};

/**
 * Bad input: a strength the subtype does not have. Throws an InputError naming the subtype, the
 * strength and the allowed values (the CLI prints it and writes nothing).
 */
export function checkStrength(
  subtype: string,
  strength: number,
  where: { file?: string; field?: string } = {},
): void {
  const allowed = (SUBTYPE_STRENGTHS as Record<string, readonly number[] | undefined>)[subtype];
  if (!allowed) {
    throw new InputError(
      `unknown variation subtype "${subtype}" (known: ${Object.keys(SUBTYPE_STRENGTHS).join(', ')})`,
      where,
    );
  }
  if (!allowed.includes(strength)) {
    throw new InputError(
      `strength ${strength} is outside the ${FAMILY_OF[subtype as VariationSubtype]} family's ${subtype} range (allowed: ${allowed.join(', ')})`,
      where,
    );
  }
}

export interface AllVariationsOptions {
  /** The suite seed; noise draws come from deriveSeed(seed, itemKey, 'noise', subtype, strength, position). */
  seed: number;
  /** What identifies the item in the noise seeds; defaults to the prompt text. */
  itemKey?: string;
  /** Register strengths -10, -6, -2, 0, 2, 6, 10 only (the paper's closed-model subset). */
  closedModelSubset?: boolean;
  /** Families to include; default all three. */
  families?: readonly VariationFamily[];
  /** Positions for register and noise; default prefix, suffix, global. */
  positions?: readonly NoisePosition[];
}

/**
 * Every variation of `prompt`, in a fixed order (register, noise, structural; within each,
 * subtype, strength, position). Register strength 0 appears once, at position `none`.
 */
export function allVariations(prompt: string, opts: AllVariationsOptions): Variation[] {
  const families = opts.families ?? VARIATION_FAMILIES;
  const positions = opts.positions ?? NOISE_POSITIONS;
  const out: Variation[] = [];
  if (families.includes('register')) {
    out.push(
      ...registerVariations(prompt, {
        strengths: opts.closedModelSubset ? REGISTER_CLOSED_SUBSET : REGISTER_STRENGTHS,
        positions: positions.filter((p) => (REGISTER_POSITIONS as readonly string[]).includes(p)),
      }),
    );
  }
  if (families.includes('noise'))
    out.push(...noiseVariations(prompt, { seed: opts.seed, itemKey: opts.itemKey, positions }));
  if (families.includes('structural')) out.push(...structuralVariations(prompt));
  return out;
}
