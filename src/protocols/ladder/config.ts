import { z } from 'zod';
import { repeatsSetting } from '../../config/schema.js';
import { fieldMap, splitList, withFlag } from '../../config/setting-flags.js';
import { InputError } from '../../errors.js';
import { FamilyCodeSchema, familyCodes } from './families/roster.js';
import {
  DEFAULT_RECOGNIZE_THRESHOLD,
  KB_JUDGE_MAX_TOKENS,
  REFERENCE_KB_JUDGE_MAX_TOKENS,
  REFERENCE_RECOGNIZE_THRESHOLD,
} from './kb-judge-defaults.js';
import type { AnswerFormat } from './prompts.js';
import { BandTablesSchema } from './severity/levels.js';
import { ANSWER_TYPES, LEVELS, type Level } from './types.js';

const AnswerFormatSchema = z.enum(['json', 'hashes']);
/** `waver`: waver's default (the paper where it speaks); `reference`: the reference code's behaviour. */
const Compat = z.enum(['waver', 'reference']);

/**
 * The `ladder:` section of waver.yaml: the protocol's own options, each defaulting to the paper's
 * (or docs/method.md's) choice. Where the paper, its code and waver differ, docs/fidelity.md#ladder has
 * the decision, and `reference: true` takes the reference code's side of every one with a setting.
 */
export const LadderConfigSchema = z
  .object({
    /**
     * Appendix A answer format for the non-KB tests: `json` (the paper's API models) or `hashes`
     * (its phi4-mini, `#### <n>`); per model as `{default: json, models: {LABEL: hashes}}`.
     */
    answerFormat: withFlag(
      z
        .union([
          AnswerFormatSchema,
          z
            .object({
              default: AnswerFormatSchema.default('json'),
              models: z.record(z.string().min(1), AnswerFormatSchema),
            })
            .strict(),
        ])
        .default('json'),
      {
        flag: '--answer-format <format>',
        help: "the paper's answer format (Appendix A) for non-KB tests (per model: waver.yaml)",
      },
    ),
    /**
     * Output-token cap of every SUT call (`--max-tokens` on `waver ladder`). Unset: the reference
     * runners' caps, 768 (900 for a model asked in the hashes format).
     */
    maxTokens: withFlag(z.int().positive().optional(), {
      flag: '--max-tokens <n>',
      help: 'output token cap per call',
      shownDefault: "768, 900 with --answer-format hashes: the reference runners'",
      common: true,
    }),
    /** Take the reference code's side of every decision below that has a setting (docs/fidelity.md#ladder). */
    reference: z.boolean().default(false),
    /** `reference`: the reference code's parse_math exactly (docs/fidelity.md#ladder). */
    parser: Compat.optional(),
    /** `reference`: the reference code's KB prompt wording (a dash for the paper's comma). */
    kbPrompt: Compat.optional(),
    /** Quadrant plot: `waver` y = Stability (the paper); `reference` y = mean Sim, the baseline a point. */
    quadrant: Compat.optional(),
    /** Collapse Point: `reference` takes acc(L0) = 1 without a baseline and compares floats exactly. */
    collapse: Compat.optional(),
    /**
     * Stability of a set whose magnitudes sum to 0: `waver` unavailable (Table 4's Baseline row shows
     * acc(L0)); `reference` the set's mean score over answered responses, the reference's Table 4
     * Baseline row (docs/fidelity.md L14).
     */
    stability: Compat.optional(),
    /** Times each seed is asked unperturbed; acc(L0) is their mean (the paper: 3). */
    baselineRepeats: repeatsSetting(z.int().positive().default(3)),
    /** Level band tables (partial: missing families keep docs/method.md's bands). */
    bands: BandTablesSchema.optional(),
    /**
     * Bin Context Load by the paper's expansion bands [1.10,1.20)..[1.50,1.60) (unset: true; with
     * `reference: true`, false = the generic magnitude scale, as the reference code).
     */
    strictLoadBands: z.boolean().optional(),
    /**
     * Bin a score outside every band of its family on the generic scale (unset: false, so it is
     * rejected at gate `level`; with `reference: true`, true, as the reference code).
     */
    genericFallback: z.boolean().optional(),
    /**
     * How IQ and F tests are levelled: `content` (IQ by the share of words altered, F by its kind of
     * layout; a test is admitted only at the level it was asked) or `measure` (their magnitude bands,
     * as the reference code). Unset: content, or measure with `reference: true` (docs/fidelity.md L58).
     */
    levelBy: z.enum(['content', 'measure']).optional(),
    /**
     * KB judge: `paper` (the four-point rubric, each point described per boundary type) or `reference`
     * (the reference code's judge prompt, three points, stray scores snapped; docs/ladder.md#kb-scoring).
     */
    kbScoring: z.enum(['paper', 'reference']).optional(),
    /**
     * A KB score at or above this counts as recognising the boundary. Unset: 0.75 (docs/method.md), or
     * 0.80 (the reference's "correct") under `kbScoring: reference`.
     */
    kbRecognizeThreshold: withFlag(z.number().min(0).max(1).optional(), {
      flag: '--judge-threshold <score>',
      help: 'KB score that counts as recognising the boundary',
      shownDefault: `${DEFAULT_RECOGNIZE_THRESHOLD}`,
    }),
    /** Output-token cap of a KB judge call. Unset: 256, or 128 (the reference judge's) under `kbScoring: reference`. */
    kbJudgeMaxTokens: z.int().positive().optional(),
    /** Collapse Point: the lowest level k with acc(Lk) < collapseRatio x acc(L0) (the paper: 0.80). */
    collapseRatio: z.number().gt(0).max(1).default(0.8),
    /** Quadrant plot: the Stability threshold on the y axis (the paper: 0.80). */
    stabilityThreshold: z.number().min(0).max(1).default(0.8),
    /** Bootstrap resamples (clustered by seed) and confidence of every interval. */
    resamples: z.int().positive().default(2000),
    confidence: z.number().gt(0).lt(1).default(0.95),
    /**
     * How a suite is built (`waver ladder` without `--suite`, `waver suite build`): `rules`
     * (offline) or `model` (the generator role). Unset: `rules` (see suiteGenerator).
     */
    generator: withFlag(z.enum(['rules', 'model']).optional(), {
      flag: '--generate <kind>',
      help: 'how to build the suite',
      shownDefault: 'model when --generator is given, else rules',
    }),
    /** Candidates per (seed, family, requested level) (docs/method.md: 2). */
    attempts: z.int().positive().default(2),
    /**
     * Family modules registered before the config is read (families/modules.ts, docs/decisions.md
     * E46): paths relative to the config file, each module's default export a LadderFamily. Read by
     * the CLI from waver.yaml; a library user calls `registerLadderFamily` instead.
     */
    familyModules: z.array(z.string().min(1)).optional(),
    /** Restrict a built suite to these families and requested levels. */
    families: withFlag(z.array(FamilyCodeSchema).min(1).optional(), {
      flag: '--families <list>',
      help: `families to build, comma-separated (${familyCodes().join(',')})`,
      shownDefault: 'all',
      noun: 'family',
    }),
    levels: withFlag(z.array(z.int().min(1).max(LEVELS.length)).min(1).optional(), {
      flag: '--levels <list>',
      help: `requested levels to build, comma-separated (1-${LEVELS.length})`,
      shownDefault: 'all',
      parse: parseLevels,
    }),
    /** Use only the first N seeds of the dataset (a quick run). */
    seeds: withFlag(z.int().positive().optional(), {
      flag: '--limit <n>',
      help: 'use only the first N seeds (items) of the dataset (a quick run)',
      aliases: ['--seeds'],
    }),
    /**
     * What the seeds' answers are (`--answer-type`; docs/ladder.md#answer-types): a named dataset's
     * own, else read from a file's records; needed only where the records cannot tell.
     */
    answerType: withFlag(z.enum(ANSWER_TYPES).optional(), {
      flag: '--answer-type <type>',
      help: "the seeds' answers, where the dataset cannot tell: number, choice (a stem, lettered options, the key) or text (a short answer and its aliases)",
    }),
    /** Which fields of a dataset file or `hf:` dataset hold a seed (docs/datasets.md#fields); dotted paths reach into objects. */
    fields: withFlag(
      z
        .object({
          question: z.string().min(1).optional(),
          answer: z.string().min(1).optional(),
          gold: z.string().min(1).optional(),
          options: z.string().min(1).optional(),
          key: z.string().min(1).optional(),
          aliases: z.string().min(1).optional(),
          id: z.string().min(1).optional(),
        })
        .strict()
        .optional(),
      {
        flag: '--fields <map>',
        help: 'which record fields hold a seed, e.g. question=problem,answer=solution (names: question, answer, gold, options, key, aliases, id)',
        parse: fieldMap,
      },
    ),
  })
  .strict()
  .transform(
    ({
      parser,
      kbPrompt,
      quadrant,
      collapse,
      stability,
      kbScoring,
      kbRecognizeThreshold,
      kbJudgeMaxTokens,
      strictLoadBands,
      genericFallback,
      levelBy,
      ...s
    }) => {
      const side = s.reference ? 'reference' : 'waver';
      const scoring = kbScoring ?? (s.reference ? 'reference' : 'paper');
      return {
        ...s,
        kbScoring: scoring,
        kbRecognizeThreshold:
          kbRecognizeThreshold ??
          (scoring === 'reference' ? REFERENCE_RECOGNIZE_THRESHOLD : DEFAULT_RECOGNIZE_THRESHOLD),
        kbJudgeMaxTokens:
          kbJudgeMaxTokens ?? (scoring === 'reference' ? REFERENCE_KB_JUDGE_MAX_TOKENS : KB_JUDGE_MAX_TOKENS),
        strictLoadBands: strictLoadBands ?? !s.reference,
        genericFallback: genericFallback ?? s.reference,
        levelBy: levelBy ?? (s.reference ? 'measure' : 'content'),
        parser: parser ?? side,
        kbPrompt: kbPrompt ?? side,
        quadrant: quadrant ?? side,
        collapse: collapse ?? side,
        stability: stability ?? side,
      };
    },
  );

export type LadderConfig = z.infer<typeof LadderConfigSchema>;
export type LadderConfigInput = z.input<typeof LadderConfigSchema>;
/** The answer format a model is asked in: its own under `answerFormat.models`, else the default. */
export function answerFormatOf(settings: Pick<LadderConfig, 'answerFormat'>, label: string): AnswerFormat {
  const f = settings.answerFormat;
  return typeof f === 'string' ? f : (f.models[label] ?? f.default);
}

declare module '../../config/schema.js' {
  interface ConfigSections {
    /** `waver ladder` settings (docs/ladder.md), as written. */
    ladder?: LadderConfigInput;
  }
}

/**
 * Whether a ladder run or `suite build` uses the default suite (docs/ladder-suite.md#default-suite):
 * no dataset named, no generator chosen (`--generate`, a typed `--generator`, `ladder.generator`)
 * and no family module registered (the dataset has no tests of a family it does not know).
 */
export function usesDefaultSuite(config: { dataset?: unknown; ladder?: LadderConfigInput }): boolean {
  const settings = ladderSettings(config);
  return (
    config.dataset === undefined &&
    settings.generator === undefined &&
    (settings.familyModules ?? []).length === 0
  );
}

/**
 * Which generator builds a ladder suite, for `waver ladder` and `waver suite build` alike
 * (docs/ladder-suite.md#which-generator): `ladder.generator`, else `rules`. On the command line
 * `--generate`, or else a typed `--generator SPEC`, sets `ladder.generator` (impliedGenerator, flags.ts); a
 * generator model named only in waver.yaml does not switch it, as it may be there for sago or
 * paraphrase.
 */
export function suiteGenerator(config: { ladder?: LadderConfigInput }): 'rules' | 'model' {
  return ladderSettings(config).generator ?? 'rules';
}

/** The ladder settings of a config, every default filled in. */
export function ladderSettings(config: { ladder?: LadderConfigInput }): LadderConfig {
  return LadderConfigSchema.parse(config.ladder ?? {});
}

/** `1,2` -> levels; anything but 1..5 is an InputError naming the flag and the value. */
export function parseLevels(value: string, flag = '--levels'): Level[] {
  const list = splitList(value);
  if (list.length === 0) throw new InputError('no level given', { field: flag });
  return list.map((s) => {
    const n = Number(s);
    if (!/^\d+$/.test(s) || !(LEVELS as readonly number[]).includes(n))
      throw new InputError(`unknown level '${s}' (expected some of ${LEVELS.join(', ')})`, { field: flag });
    return n as Level;
  });
}
