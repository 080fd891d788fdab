import type { DatasetSource } from '../../data/provenance.js';

/**
 * The ladder protocol's shared vocabulary: seven perturbation families x five severity levels
 * (see the ladder paper and docs/method.md). Written once here; families, gates, severity, the suite
 * builder, scoring and metrics all speak it.
 */

export const FAMILIES = ['SV', 'IQ', 'F', 'CI', 'CL', 'CIS', 'KB'] as const;
export type Family = (typeof FAMILIES)[number];

export const FAMILY_NAMES: Record<Family, string> = {
  SV: 'Semantic Variation',
  IQ: 'Input Quality',
  F: 'Structural/Format',
  CI: 'Context Interference',
  CL: 'Context Load',
  CIS: 'Conflict Instruction Stress',
  KB: 'Knowledge Boundary',
};

export const LEVELS = [1, 2, 3, 4, 5] as const;
export type Level = (typeof LEVELS)[number];

/** Knowledge Boundary is categorical: the boundary type is the level. */
export const KB_TYPES = [
  'missing-information',
  'fabricated-evidence',
  'not-yet-knowable',
  'fabricated-entity',
  'impossible-premise',
] as const;
export type KbType = (typeof KB_TYPES)[number];
export const KB_LEVEL: Record<KbType, Level> = {
  'missing-information': 1,
  'fabricated-evidence': 2,
  'not-yet-knowable': 3,
  'fabricated-entity': 4,
  'impossible-premise': 5,
};

/** A seed problem: an original question with a numeric gold answer. */
export interface Seed {
  /** Stable id, e.g. `gsm8k-test-473`, `gsm-symbolic-0`, `builtin-apples`. */
  id: string;
  question: string;
  gold: number;
  /**
   * The worked solution when the dataset has one (GSM8K's `answer`, with its `<<a*b=c>>`
   * calculations): Knowledge Boundary checks that the quantity it takes away is one the solution
   * uses (docs/ladder-families.md#kb-solution-path).
   */
  solution?: string;
  /** Where it came from (dataset and index, or `builtin`). */
  source: string;
  /** The dataset's record (Hub commit, files' sha256, licence); absent for the built-in seeds. */
  dataset?: DatasetSource;
}

/** Who wrote a candidate. */
export type GeneratorInfo =
  | { kind: 'rules'; name: string; seed: number; attempt: number }
  | { kind: 'model'; model: string; temperature: number; attempt: number };

/** A gate's verdict. `not-run` when the gate needs a judge and none is configured (docs/method.md). */
export interface GateVerdict {
  gate: string;
  verdict: 'pass' | 'fail' | 'not-run';
  reason: string;
}

/** How severe a candidate measured, and how that was decided. */
export interface Severity {
  /** difflib ratio of the lowercased texts, 4 decimals. */
  sim: number;
  /** 1 - sim. */
  magnitude: number;
  /** The number that was binned (magnitude for most families; CES for CIS). */
  score: number;
  /** Measured level; undefined when the family cannot be binned (never for KB, which is categorical). */
  level?: Level;
  via: 'band' | 'generic' | 'format-l1-rule' | 'ces' | 'kb-type';
  /** CL: words(G)/words(O). */
  expansionRatio?: number;
  /** CIS: conflict-explicitness score of the added sentences, and its normalised form. */
  ces?: number;
  cesNorm?: number;
}

/**
 * One line of a ladder suite (`waver suite build --protocol ladder`): a perturbed question, or a
 * baseline (family `baseline`, level 0), with everything needed to rebuild the paper's tables.
 */
export interface LadderTest {
  /** Content hash of the test (seed id, family, requested level, text). */
  id: string;
  seedId: string;
  family: Family | 'baseline';
  /** KB: the boundary type; other families may name a sub-technique (e.g. `typos`, `table`). */
  subtype?: string;
  requestedLevel: Level | 0;
  measuredLevel?: Level | 0;
  severity?: Severity;
  original: string;
  text: string;
  /** Numeric gold, or `unanswerable` for KB. */
  gold: number | 'unanswerable';
  gates: GateVerdict[];
  generator?: GeneratorInfo;
  /** The seed's dataset record (docs/datasets.md#provenance); absent for the built-in seeds. */
  dataset?: DatasetSource;
}

/** Admission statistics (the paper's Table 3), per family. */
export interface AdmissionRow {
  family: Family;
  candidates: number;
  admitted: number;
  /** Rejections per gate name. */
  rejectedByGate: Record<string, number>;
  /** Admitted tests per measured level (1..5), and those whose measured level differs from the requested. */
  admittedByLevel: Record<string, number>;
  offLevel: number;
  /**
   * Candidates that passed every gate but were not admitted: an off-level pass followed by a retry
   * that passed on level (one test per seed, family and requested level). So
   * candidates = admitted + sum(rejectedByGate) + superseded.
   */
  superseded?: number;
}
