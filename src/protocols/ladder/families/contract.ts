/**
 * The one shape every ladder perturbation family has (docs/architecture.md#adding-a-ladder-family,
 * docs/decisions.md E42): what it keeps of a seed, how its candidates' severity is measured, its
 * rules generator for each answer type, its family gate, the asks of the model generator and the
 * model gates its candidates pass. The suite builder, the fill table, the model generator and the
 * model gates read a family only through this shape (families/registry.ts lists them).
 */

import type { PyRandom } from '../../../util/random.js';
import type { BandTables, MeasureOptions } from '../severity/band-tables.js';
import type { BandTable } from '../severity/bands.js';
import type { ModelGate } from '../suite-names.js';
import type {
  ChoiceSeed,
  Family,
  GateVerdict,
  GeneratorInfo,
  KbType,
  Level,
  Seed,
  Severity,
  TextSeed,
} from '../types.js';

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
export type RulesOptions = Pick<
  MeasureOptions,
  'bands' | 'strictLoadBands' | 'genericFallback' | 'levelBy'
> & {
  /** The seed `rng` was made from, recorded in the candidate's generator info (0 when not given). */
  rngSeed?: number;
};

/** What a family keeps of its seed: the gates check it, and a test's recorded answer follows from it. */
export interface Preserves {
  /** Every number of the original (the structural gate); Knowledge Boundary changes them on purpose. */
  numbers: boolean;
  /** The seed's answer; false for a family whose tests are unanswerable by design (gold `unanswerable`). */
  answer: boolean;
  /** Every word of the original, in order: it adds none, so none is searched for a stated answer. */
  words: boolean;
  /** A text seed's names (its capitalised words); Input Quality's typos may touch them. */
  names: boolean;
}

/** How a candidate is measured: the settings and tables, and its similarity to the original. */
export interface Measuring {
  tables: BandTables;
  strictLoadBands: boolean;
  genericFallback: boolean;
  levelBy: 'content' | 'measure';
  kbType?: KbType;
  /** difflib ratio of the lowercased texts (4 decimals), and 1 minus it. */
  base: Pick<Severity, 'sim' | 'magnitude'>;
}

/** A family's measured severity (docs/ladder-measure.md#levels): the level is what a candidate is, not what was asked. */
export interface FamilySeverity {
  measure(original: string, candidate: string, m: Measuring): Severity;
  /**
   * The band table its score is binned by under these settings, which a rules generator aims at;
   * absent when its level is not a band of a score (a conflict tier, a boundary type).
   */
  bands?(m: Omit<Measuring, 'base' | 'kbType'>): BandTable | null | undefined;
  /** The level its content shows (severity/content-level.ts), used under `levelBy: content`. */
  contentLevel?(original: string, candidate: string): Level | undefined;
}

/** Where a rules generator aims (aim.ts): the family, the question and level, the band options. */
export interface AimTarget {
  family: LadderFamily;
  original: string;
  level: Level;
  opts?: RulesOptions;
  kbType?: KbType;
}

/** What a family's rules work from. */
export interface RulesInput<S extends Seed = Seed> {
  seed: S;
  /** `seed.question`. */
  original: string;
  level: Level;
  attempt: number;
  rng: PyRandom;
  /** The family, question, level and band options, ready for `aimAtLevel`. */
  target: AimTarget;
}

/** What a family's rules made; the builder adds the generator record (family, attempt, seed). */
export interface RulesMade {
  text: string;
  /** The generator's name after `${family}/`: the technique and its strength (`distractors-3`, `tier2-end`). */
  name: string;
  subtype?: string;
  kbType?: KbType;
}

/** A family's rules on a seed as it is (a number seed, a choice seed's stem or item, a text seed's question). */
export type RulesFn = (input: RulesInput) => RulesMade | undefined;

/** A family's own rule for a choice or text seed. */
export type TypedRule<S extends Seed> = (input: RulesInput<S>) => RulesMade | undefined;

/**
 * How the family's rules apply to a choice or text seed (docs/ladder-families.md#answer-types):
 * on a choice seed, `stem` (the rules on the stem alone, the options put back after it), `item`
 * (the rules on the whole item) or a rule of its own; on a text seed, `question` (the rules on the
 * question) or a rule of its own; or none (`RulesUnavailable`), the model generator's to write.
 */
export interface AnswerTypeRules {
  choice: 'stem' | 'item' | TypedRule<ChoiceSeed> | RulesUnavailable;
  text: 'question' | TypedRule<TextSeed> | RulesUnavailable;
}

/**
 * No rules for this answer type: the family is reported unavailable there with the reason, never
 * filled with tests a reviewer rejects (issue 36; docs/ladder-families.md#unavailable).
 */
export interface RulesUnavailable {
  unavailable: string;
}

/** Five of something, one per level L1..L5. */
export type PerLevel<T> = readonly [T, T, T, T, T];

/** The number-seed ask being made, for a family whose user message is not the default one. */
export interface NumberAsk {
  seed: Seed;
  level: Level;
  attempt: number;
  /** The level's task. */
  task: string;
  /** `Style guidance: ...`, the attempt's hint. */
  hint: string;
}

/**
 * What the model generator asks a generator model (docs/ladder-families.md#model-instructions): the
 * gist of the reference's prompts in waver's own words, for math word problems and, worded for a
 * question, for choice and text seeds.
 */
export interface FamilyInstructions {
  /** First-attempt temperature per level, the reference registry's; +0.10 per retry, at most 0.95 (docs/method.md). */
  temperatures: PerLevel<number>;
  /** Number seeds: the system message, each level's task and the style hints rotated per attempt. */
  number: {
    system: string;
    levels: PerLevel<string>;
    hints: readonly string[];
    /** The user message, when it is not the task, the hint and the problem. */
    user?(ask: NumberAsk): string;
  };
  /** Choice and text seeds: what the family may change in a question and each level's task. */
  question: {
    rules: string;
    levels: PerLevel<string>;
    /** What follows a choice seed's task (a word target, a warning). */
    choiceExtra?(seed: ChoiceSeed, level: Level): string;
    /** What follows a text seed's task. */
    textExtra?(seed: TextSeed, level: Level): string;
  };
}

/**
 * What is known of a family without loading its module (roster.ts, docs/decisions.md E46): what a
 * stored suite, waver.yaml, `waver check`, the metrics and the report read it by.
 */
export interface FamilyCard {
  /** Its code: suites, tables, flags and the band config name it by (`SV`). */
  code: Family;
  /** Its name in tables and reports (`Semantic Variation`). */
  name: string;
  /**
   * What it keeps of its seed. A family that keeps no answer (`answer: false`) is unanswerable by
   * design: its tests are asked in the boundary prompt and scored by the refusal judge (kb-judge.ts).
   */
  preserves: Preserves;
  /**
   * The band tables its level is binned by that waver.yaml's `ladder.bands` may override, by their
   * key there (`SV`; Context Load's `CL`, null for none, and `clExpansion`): a built-in family's
   * only (severity/levels.ts); a registered family's bands are its own.
   */
  bands?: Readonly<Record<string, BandTable | null>>;
  /**
   * Where the family's rules write a level, for a level they write on only some seeds by design
   * (docs/ladder-suite.md#rules-scope): the reason of a rules candidate left empty there, and the
   * admission table's note on a level the rules filled on fewer than half the seeds. On the card,
   * so a stored suite's report says it without loading the module.
   */
  rulesScope?: Partial<Record<Level, RulesScope>>;
}

/** What a seed must have for a family's rules to write a level, and where that is decided. */
export interface RulesScope {
  /** Completes "the rules write it only on ...": "a problem with a price, fee or wage told in the present". */
  on: string;
  /** Where the docs say it: `docs/ladder-families.md#kb-l3`. */
  doc: string;
}

/**
 * Why a family's rules made no candidate for a seed at a level: where the family says its rules
 * write that level ("KB L3: the rules write it only on ... (docs/...)"), else that the rule cannot apply.
 */
export function rulesEmptyReason(card: FamilyCard, level: Level): string {
  const scope = card.rulesScope?.[level];
  return scope
    ? `${card.code} L${level}: the rules write it only on ${scope.on} (${scope.doc})`
    : 'the rule cannot apply to this seed at this level';
}

export interface LadderFamily extends FamilyCard {
  severity: FamilySeverity;
  /**
   * Deterministic, offline, seeded: a candidate for (seed, level, attempt), or undefined when the
   * rule cannot apply to this seed. All randomness comes from `input.rng`. `RulesUnavailable` when
   * the family has no rules on any seed type: the model generator's to write (docs/decisions.md E62).
   */
  rules: RulesFn | RulesUnavailable;
  answerTypes: AnswerTypeRules;
  /** The family's structural rules beyond the shared gate (docs/method.md#structural-gate). */
  familyGate(original: string, candidate: string, level: Level): GateVerdict;
  instructions: FamilyInstructions;
  /**
   * What a generator model writes: `rewrite`, the question anew; `addition`, only the text the
   * builder appends to the verbatim question (Context Interference); `layout`, the question laid
   * out anew, whose code fences and blank lines are the perturbation and are kept.
   */
  writes: 'rewrite' | 'addition' | 'layout';
  /** The model gates its candidates pass (docs/ladder-suite.md#model-gates). */
  modelGates: readonly ModelGate[];
  /** The meaning judge's criterion for the family, when `meaning` is one of its gates. */
  meaning?: string;
  /** A family whose level is a category: the boundary type a level stands for (Knowledge Boundary). */
  boundaryType?(level: Level): KbType;
}
