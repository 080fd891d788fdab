/**
 * A SAGO variation v = (family, subtype, strength, position) and the text it produces from one
 * prompt (the paper's Eq. 3; docs/method.md#sago). See docs/sago-measures.md#variations.
 */

export type VariationFamily = 'register' | 'noise' | 'structural';

/** `none` is the identity (register strength 0): it has no place in the prompt. */
export type VariationPosition = 'prefix' | 'suffix' | 'global' | 'none';

export type RegisterSubtype = 'politeness';
export type NoiseSubtype = 'spacing' | 'punctuation' | 'casing';
export type StructuralSubtype = 'length' | 'interrogative' | 'imperative';
export type VariationSubtype = RegisterSubtype | NoiseSubtype | StructuralSubtype;

/**
 * How the variant's meaning was checked against the original prompt. Noise keeps the words, so
 * it preserves meaning by construction; register and structural variants are checked by the
 * sago protocol with the `embedder` role and the result is recorded here.
 */
export type MeaningCheck =
  | { method: 'by-construction' }
  | {
      /** `bertscore` where the embedder gives token embeddings, else `embedding-cosine` (a different, named measure). */
      method: 'bertscore' | 'embedding-cosine';
      /** The embedder's label (model spec). */
      embedder: string;
      score: number;
      threshold: number;
      passed: boolean;
    }
  | { method: 'unchecked'; reason: string };

export interface Variation {
  family: VariationFamily;
  subtype: VariationSubtype;
  /**
   * register: -10..10 (rude..polite); spacing: extra spaces inserted; punctuation: marks inserted;
   * casing: percent of letters uppercased; length: target length multiplier; interrogative /
   * imperative: 1 (no graded strength).
   */
  strength: number;
  position: VariationPosition;
  /** The varied prompt. */
  text: string;
  /** `rules` for waver's deterministic generators, else the generator model's label. */
  generator: 'rules' | (string & {});
  /** For structural length: the variant's word count over the original's (what was achieved, not asked). */
  achievedRatio?: number;
  meaningCheck?: MeaningCheck;
}

/** A stable key of a variation's coordinates, e.g. `noise/spacing/20/prefix`. */
export function variationKey(v: Pick<Variation, 'family' | 'subtype' | 'strength' | 'position'>): string {
  return `${v.family}/${v.subtype}/${v.strength}/${v.position}`;
}
