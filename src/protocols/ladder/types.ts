import type { McOption } from '../../data/mc/mc-item.js';
import type { DatasetSource } from '../../data/provenance.js';

/**
 * The ladder protocol's shared vocabulary: perturbation families x five severity levels
 * (see the ladder paper and docs/method.md). Written once here; families, gates, severity, the suite
 * builder, scoring and metrics all speak it.
 */

/**
 * A family's code (`SV`): one of the paper's seven or one registered beside them. Which codes there
 * are, their names and what each keeps is families/roster.ts's (docs/architecture.md#adding-a-ladder-family).
 */
export type Family = string;

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

/**
 * What a seed's answer is (docs/ladder.md#answer-types): `number` (the paper's grade-school math:
 * a numeric gold), `choice` (a stem, lettered options and the key's letter) or `text` (a short
 * answer with its aliases).
 */
export const ANSWER_TYPES = ['number', 'choice', 'text'] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

interface SeedBase {
  /** Stable id, e.g. `gsm8k-test-473`, `gsm-symbolic-0`, `builtin-apples`, `arc-challenge-12`, `trivia-3`. */
  id: string;
  /**
   * The text the system under test is asked and the families perturb: the problem, the stem with
   * its lettered options (`choice`, see choiceQuestion), or the question (`text`).
   */
  question: string;
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

/** A seed problem with a numeric gold (the paper's). `answerType` absent means `number`. */
export interface NumberSeed extends SeedBase {
  answerType?: 'number';
  gold: number;
}

/** A multiple-choice seed: `question` is `stem` followed by the options, one `X. text` a line. */
export interface ChoiceSeed extends SeedBase {
  answerType: 'choice';
  stem: string;
  /** Lettered A, B, ... in the order shown. */
  options: McOption[];
  /** The key's letter. */
  gold: string;
}

/** A short-answer seed: any alias, normalised, is a correct answer. */
export interface TextSeed extends SeedBase {
  answerType: 'text';
  /** The dataset's answer. */
  gold: string;
  /** Other names of the same answer (TriviaQA's aliases, NQ-open's other answers); may be empty. */
  aliases: string[];
}

export type Seed = NumberSeed | ChoiceSeed | TextSeed;

/** A seed's answer type (`number` when the seed does not say). */
export function answerTypeOf(x: { answerType?: AnswerType }): AnswerType {
  return x.answerType ?? 'number';
}

/** The text a choice seed is asked as: the stem, a blank line, then `A. text` per option. */
export function choiceQuestion(stem: string, options: readonly McOption[]): string {
  return `${stem}\n\n${options.map((o) => `${o.letter}. ${o.text}`).join('\n')}`;
}

/** Who wrote a candidate. */
export type GeneratorInfo =
  | { kind: 'rules'; name: string; seed: number; attempt: number }
  | { kind: 'model'; model: string; temperature: number; attempt: number }
  /** A test of a reviewed dataset (the default suite, docs/ladder-suite.md#default-suite): who read it, against what. */
  | { kind: 'reviewed'; dataset: string; version: number; criteria: string; by: string };

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
  via: 'band' | 'generic' | 'format-l1-rule' | 'ces' | 'kb-type' | 'content';
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
  /**
   * The seed's answer type (docs/ladder.md#answer-types); absent in suites written before answer
   * types, which are all `number`.
   */
  answerType?: AnswerType;
  /**
   * What a correct answer is: the number (`number`), the key's letter as this test shows the
   * options (`choice`), the dataset's answer (`text`); `unanswerable` for KB.
   */
  gold: number | string;
  /** `choice`, not KB: the options as this test shows them, lettered A, B, ... (the key is `gold`). */
  options?: McOption[];
  /** `text`, not KB: the other accepted answers. */
  aliases?: string[];
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
  /**
   * Seeds of an answer type the family's rules do not write (docs/ladder-families.md#unavailable),
   * with the reason: no candidate is made for them, and the family is shown unavailable there.
   */
  unavailable?: { seeds: number; reason: string };
}

/**
 * What a correct answer to a test of the seed is, as the suite records it with the seed's answer
 * type (docs/ladder-suite.md#suite-file): the number, the key's letter with the options in the
 * order the test shows them, or the short answer with its aliases; `unanswerable` for Knowledge
 * Boundary.
 */
export function testAnswerOf(
  seed: Seed,
  unanswerable: boolean,
): Pick<LadderTest, 'answerType' | 'gold' | 'options' | 'aliases'> {
  const answerType = answerTypeOf(seed);
  if (unanswerable) return { answerType, gold: 'unanswerable' };
  if (seed.answerType === 'choice') return { answerType, gold: seed.gold, options: seed.options };
  if (seed.answerType === 'text')
    return { answerType, gold: seed.gold, ...(seed.aliases.length > 0 && { aliases: seed.aliases }) };
  return { answerType, gold: seed.gold };
}
