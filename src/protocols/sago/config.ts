import { z } from 'zod';
import { DEFAULT_MAX_TOKENS, type WaverConfig } from '../../config/schema.js';
import { fieldMap, splitList, withFlag } from '../../config/setting-flags.js';
import { InputError } from '../../errors.js';
import { ADJUSTMENTS } from '../../stats/multiplicity.js';
import { ABLATION_DRAWS, ABLATION_SIZES, DEFAULT_EPSILONS, PRIMARY_EPSILON, SAGO_AXES } from './constants.js';

/** The variation families (paper Section 3.2). */
export const SAGO_FAMILIES = ['register', 'noise', 'structural'] as const;
export type SagoFamily = (typeof SAGO_FAMILIES)[number];

/** Where register and noise variants go (paper Section 4.1; structural variants are global). */
export const SAGO_POSITIONS = ['prefix', 'suffix', 'global'] as const;

/** The output cap of the authors' runs (`experiments/run_closed_models.py`, `--max_tokens` default 100; every run's metadata.json). */
export const REFERENCE_MAX_TOKENS = 100;

/** Noise mirroring: the SAGO authors' published detectors and thresholds, or waver's density rules. */
export const MIRRORING_RULES = ['sago-reference', 'density'] as const;
export type MirroringRules = (typeof MIRRORING_RULES)[number];

/**
 * The `sago:` section of waver.yaml (flags of `waver sago` override it), each setting declared
 * once with its flag. Every default is the paper's or docs/method.md's; waver's own choices are
 * written in docs/sago.md.
 */
const SagoSection = z
  .object({
    /** Every reference switch left unset takes the SAGO reference code's value (docs/fidelity.md#sago). */
    reference: withFlag(z.boolean().default(false), {
      flag: '--reference',
      help: "the SAGO reference code's behaviour for every switch not given (docs/fidelity.md#sago)",
    }),
    /** Prompts sampled per dataset (paper: 16). */
    n: withFlag(z.int().positive().default(16), {
      flag: '--limit <n>',
      help: 'prompts (items) sampled per dataset',
      aliases: ['--n'],
    }),
    /** Named datasets (truthfulqa, nq-open, triviaqa, hotpotqa, simpleqa, alpaca) or files; none = the built-in set. */
    datasets: withFlag(z.array(z.string().min(1)).default([]), {
      flag: '--dataset <names>',
      help: 'comma-separated: truthfulqa, nq-open, triviaqa, hotpotqa, simpleqa, alpaca, builtin, or .jsonl/.json/.csv files',
      shownDefault: 'builtin',
      // The base --dataset, here a list: one flag for a dataset in every command.
      common: true,
      aliases: ['--datasets'],
    }),
    /** Where named datasets live (default: env WAVER_DATA_DIR, else none: they come from the Hugging Face Hub). */
    dataDir: withFlag(z.string().min(1).optional(), {
      flag: '--data-dir <dir>',
      help: 'directory of the named datasets',
      shownDefault: 'env WAVER_DATA_DIR, else none: named datasets come from the Hugging Face Hub',
    }),
    /** Field mapping for dataset files (JSONL/JSON/CSV). */
    fields: withFlag(
      z
        .object({
          prompt: withFlag(z.string().min(1).optional(), {
            flag: '--prompt-field <field>',
            help: 'prompt field of dataset files (dotted path)',
          }),
          id: withFlag(z.string().min(1).optional(), {
            flag: '--id-field <field>',
            help: 'id field of dataset files',
          }),
          references: z.string().min(1).optional(),
        })
        .strict()
        .optional(),
      {
        flag: '--fields <map>',
        help: 'which record fields hold a prompt, e.g. prompt=instruction,id=uid (names: prompt, id, references)',
        parse: fieldMap,
      },
    ),
    /** Variation families to use (default all three). */
    families: withFlag(z.array(z.enum(SAGO_FAMILIES)).min(1).optional(), {
      flag: '--families <list>',
      help: `variation families to use: ${SAGO_FAMILIES.join(', ')}`,
      shownDefault: 'all',
      noun: 'family',
    }),
    /** Keep only these strengths per subtype (e.g. `{spacing: [1, 5]}`); each must be in the subtype's range. */
    strengths: withFlag(z.record(z.string(), z.array(z.number()).min(1)).optional(), {
      flag: '--strengths <spec>',
      help: "keep only these strengths, e.g. 'spacing=1,5;politeness=-10,10;length=0.5'",
      parse: parseStrengths,
    }),
    /** Use at most this many variations per prompt (a seeded sample of the set; for quick runs). */
    variations: withFlag(z.int().positive().optional(), {
      flag: '--variations <n>',
      help: 'use at most N variations per prompt (a seeded sample of the set, the same for every prompt)',
    }),
    /** Register strengths -10,-6,-2,0,2,6,10 only (the paper's closed-model subset); reference: on. */
    closedModelSubset: withFlag(z.boolean().optional(), {
      flag: '--closed-subset',
      help: 'register strengths -10,-6,-2,0,2,6,10 only (the paper subset for paid APIs)',
    }),
    /** Positions of register and noise variants; reference: global only. */
    positions: withFlag(z.array(z.enum(SAGO_POSITIONS)).min(1).optional(), {
      flag: '--positions <list>',
      help: `positions of register and noise variants: ${SAGO_POSITIONS.join(', ')}`,
      shownDefault: 'all; reference: global',
      noun: 'position',
    }),
    /** `self`: Delta = X(y_v, y) - X(y, y) (paper); `strength-zero`: minus a second baseline sample's (reference). */
    deltaBaseline: withFlag(z.enum(['self', 'strength-zero']).optional(), {
      flag: '--delta-baseline <what>',
      help: "Delta against the baseline's self-similarity, or a second baseline sample",
      shownDefault: 'self; reference: strength-zero',
    }),
    /** `against-prompt` (paper) or `imperative-vs-interrogative` (reference). */
    sentenceForm: withFlag(z.enum(['against-prompt', 'imperative-vs-interrogative']).optional(), {
      flag: '--sentence-form <how>',
      help: 'both forms against the prompt, or the imperative against the interrogative',
      shownDefault: 'against-prompt; reference: imperative-vs-interrogative',
    }),
    /** Register strength 0 in V (`in-set`, paper) or not (`left-out`, reference). */
    zeroStrength: withFlag(z.enum(['in-set', 'left-out']).optional(), {
      flag: '--zero-strength <where>',
      help: 'register strength 0 in the variation set or left out',
      shownDefault: 'in-set; reference: left-out',
    }),
    /** Noise mirroring detectors: the SAGO authors' published thresholds (default) or waver's density rules. */
    mirroringRules: withFlag(z.enum(MIRRORING_RULES).default('sago-reference'), {
      flag: '--mirroring-rules <rules>',
      help: "noise mirroring: the SAGO authors' rules or waver's density rules",
    }),
    /** Structural rewrites: by the generator model (`generator`), by rules (`rules`), or generator when one is configured (`auto`). */
    structural: withFlag(z.enum(['auto', 'generator', 'rules']).default('auto'), {
      flag: '--structural <mode>',
      help: 'structural rewrites by the generator model or by rules (auto: the generator when one is given)',
    }),
    /** `sentence`: sacrebleu sentence BLEU with effective order; `sago-reference`: corpus_bleu per pair (the reference code). */
    bleuMode: withFlag(z.enum(['sentence', 'sago-reference']).optional(), {
      flag: '--bleu-mode <mode>',
      help: 'BLEU: sacrebleu sentence BLEU, or corpus_bleu per pair as the reference code',
      shownDefault: 'sentence; reference: sago-reference',
    }),
    /** Tolerances tested (H0: E[s] <= eps). */
    eps: withFlag(
      z
        .array(z.number().gt(0).lt(1))
        .min(1)
        .default([...DEFAULT_EPSILONS]),
      { flag: '--eps <list>', help: 'tolerances tested' },
    ),
    /** The eps whose markers the per-dataset tables show; unset: PRIMARY_EPSILON when tested, else the first eps. */
    primaryEps: z.number().gt(0).lt(1).optional(),
    /**
     * How the t-tests' p-values are adjusted over the family the eval's tables report
     * (docs/sago.md#significance): Holm by default, as `waver check`; `none` is the paper's and the
     * reference code's (docs/fidelity.md#sago). Unset: `holm`, or `none` under `reference`.
     */
    adjust: withFlag(z.enum(ADJUSTMENTS).optional(), {
      flag: '--adjust <method>',
      help: "adjustment of the t-tests' p-values over the eval's tables: holm, bonferroni or none",
      shownDefault: 'holm; reference: none',
    }),
    /** Axes that must be computed: a model that cannot give one is an input error (default: whatever each model allows). */
    axes: withFlag(z.array(z.enum(SAGO_AXES)).min(1).optional(), {
      flag: '--axes <list>',
      help: `axes that must be computed (error if a model cannot): ${SAGO_AXES.join(', ')}`,
      noun: 'axis',
    }),
    /** Log-prob and entropy from the generation's own tokens (`generation`) or a teacher-forced re-score (`teacher-forced`). */
    confidence: withFlag(z.enum(['generation', 'teacher-forced']).default('generation'), {
      flag: '--confidence <mode>',
      help: 'log-prob and entropy source',
    }),
    /** What the activation axis embeds: the prompt (paper Eq.: h(x)) or the response. */
    activationInput: withFlag(z.enum(['prompt', 'response']).default('prompt'), {
      flag: '--activation-input <what>',
      help: 'what the activation axis embeds',
    }),
    /**
     * The activation axis' layers: the final hidden state (`final`, the reference code's and the
     * default), or the mean of the cosines over every layer's (`mean`, the paper's; needs the patched
     * gguf addon). docs/sago.md#activation.
     */
    activationLayers: withFlag(z.enum(['final', 'mean']).default('final'), {
      flag: '--activation-layers <which>',
      help: "the activation axis' layers: final, or mean over every layer (the paper's; needs npm run build:gguf-native)",
    }),
    /**
     * BERTScore needs contextual token embeddings. `word-prefix`: the embedder's final hidden state at
     * the end of each word prefix; `auto`: that when the embedder is a local gguf model, else off.
     */
    bertscore: withFlag(z.enum(['auto', 'word-prefix', 'off']).default('auto'), {
      flag: '--bertscore <mode>',
      help: 'token embeddings for BERTScore',
    }),
    /** Meaning-preservation filter for register and structural variants (noise preserves meaning by construction). */
    meaningFilter: z
      .object({
        /** BERTScore-F1 threshold (paper: 0.85). */
        bertscore: z.number().min(0).max(1).default(0.85),
        /** Pooled-embedding cosine threshold, used when no token-level embedder exists (waver's choice). */
        cosine: z.number().min(-1).max(1).default(0.8),
        /** `variant`: drop a failing variant; `prompt`: drop the prompt's non-noise variants when any fails (the paper). */
        scope: z.enum(['variant', 'prompt']).default('variant'),
      })
      .strict()
      .default({ bertscore: 0.85, cosine: 0.8, scope: 'variant' }),
    /** Prompt-sample-size ablation (paper Appendix D). */
    ablation: z
      .object({
        sizes: z
          .array(z.int().positive())
          .min(1)
          .default([...ABLATION_SIZES]),
        draws: withFlag(z.int().positive().default(ABLATION_DRAWS), {
          flag: '--ablation-draws <n>',
          help: 'draws per N in the sample-size ablation',
        }),
      })
      .strict()
      .default({ sizes: [...ABLATION_SIZES], draws: ABLATION_DRAWS }),
    /**
     * Output cap of a system-under-test call (`--max-tokens` on `waver sago`). Unset: the config's
     * `params.maxTokens`, else 100 under `reference: true` (the authors' runs, docs/fidelity.md#sago),
     * else 256 (sutMaxTokens).
     */
    maxTokens: withFlag(z.int().positive().optional(), {
      flag: '--max-tokens <n>',
      help: 'output token cap per call',
      shownDefault: `${DEFAULT_MAX_TOKENS}; reference: ${REFERENCE_MAX_TOKENS}`,
      common: true,
    }),
    /** Output cap for the generator's rewrites and the judge's verdicts. */
    generatorMaxTokens: z.int().positive().default(256),
    judgeMaxTokens: z.int().positive().default(64),
  })
  .strict();

/**
 * The decisions where the SAGO authors' code differs from the paper (docs/fidelity.md#sago), each
 * a switch: the paper's reading (waver's default) and the reference code's. `reference: true`
 * gives every switch left unset its reference value at once; a switch set explicitly wins.
 */
export type SagoReferenceSwitches = {
  [K in
    | 'bleuMode'
    | 'deltaBaseline'
    | 'sentenceForm'
    | 'zeroStrength'
    | 'positions'
    | 'closedModelSubset']-?: NonNullable<z.output<typeof SagoSection>[K]>;
};

/** The paper's reading: waver's defaults. */
export const PAPER_SWITCHES: Readonly<SagoReferenceSwitches> = {
  bleuMode: 'sentence',
  deltaBaseline: 'self',
  sentenceForm: 'against-prompt',
  zeroStrength: 'in-set',
  positions: [...SAGO_POSITIONS],
  closedModelSubset: false,
};

/** The SAGO authors' closed-model runs (`experiments/run_closed_models.py` and `utils/sgs_core.py`). */
export const REFERENCE_SWITCHES: Readonly<SagoReferenceSwitches> = {
  bleuMode: 'sago-reference',
  deltaBaseline: 'strength-zero',
  sentenceForm: 'imperative-vs-interrogative',
  zeroStrength: 'left-out',
  positions: ['global'],
  closedModelSubset: true,
};

/**
 * The `sago:` section with every reference switch resolved: a switch set explicitly keeps its
 * value, an unset one takes the reference value under `reference: true`, else the paper's.
 */
export const SagoConfig = SagoSection.transform((s) => ({
  ...s,
  ...resolveSwitches(s),
  primaryEps: s.primaryEps ?? (s.eps.includes(PRIMARY_EPSILON) ? PRIMARY_EPSILON : (s.eps[0] as number)),
  adjust: s.adjust ?? (s.reference ? 'none' : 'holm'),
}));

function resolveSwitches(s: Partial<SagoReferenceSwitches> & { reference: boolean }): SagoReferenceSwitches {
  const base = s.reference ? REFERENCE_SWITCHES : PAPER_SWITCHES;
  return {
    bleuMode: s.bleuMode ?? base.bleuMode,
    deltaBaseline: s.deltaBaseline ?? base.deltaBaseline,
    sentenceForm: s.sentenceForm ?? base.sentenceForm,
    zeroStrength: s.zeroStrength ?? base.zeroStrength,
    positions: s.positions ?? [...base.positions],
    closedModelSubset: s.closedModelSubset ?? base.closedModelSubset,
  };
}

export type SagoConfig = z.infer<typeof SagoConfig>;
export type SagoConfigInput = z.input<typeof SagoConfig>;

declare module '../../config/schema.js' {
  interface ConfigSections {
    /** `waver sago` settings (docs/sago.md), as written. */
    sago?: SagoConfigInput;
  }
}

/** The sago settings in force: the config's `sago` section with defaults filled in. */
export function sagoSettings(config: WaverConfig): SagoConfig {
  const raw: SagoConfigInput = config.sago ?? {};
  const parsed = SagoConfig.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(issue?.message ?? 'invalid sago settings', {
      field: ['sago', ...(issue?.path ?? []).map(String)].join('.'),
    });
  }
  const settings = parsed.data;
  // The common --dataset flag names one more dataset.
  if (config.dataset !== undefined && !settings.datasets.includes(config.dataset))
    settings.datasets = [...settings.datasets, config.dataset];
  if (!settings.eps.includes(settings.primaryEps))
    throw new InputError(
      `primary eps ${settings.primaryEps} is not among the tested eps (${settings.eps.join(', ')})`,
      {
        field: 'sago.primaryEps',
      },
    );
  return settings;
}

/**
 * The output cap of every system-under-test call, in the one order of docs/protocols.md#request:
 * `sago.maxTokens` (which `--max-tokens` sets), else `params.maxTokens`, else the protocol's own
 * (the authors' 100 under `reference`, else DEFAULT_MAX_TOKENS).
 */
export function sutMaxTokens(config: Pick<WaverConfig, 'params'>, settings: SagoConfig): number {
  return (
    settings.maxTokens ??
    config.params.maxTokens ??
    (settings.reference ? REFERENCE_MAX_TOKENS : DEFAULT_MAX_TOKENS)
  );
}

/** `spacing=1,5;politeness=-10,10` -> { spacing: [1, 5], politeness: [-10, 10] }. */
export function parseStrengths(spec: string, flag = '--strengths'): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const part of spec
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new InputError(`expected SUBTYPE=S1,S2 in '${part}'`, { field: flag });
    const subtype = part.slice(0, eq).trim();
    out[subtype] = splitList(part.slice(eq + 1)).map((x) => {
      const n = Number(x);
      if (!Number.isFinite(n))
        throw new InputError(`expected a number, got '${x}'`, { field: `${flag} ${subtype}` });
      return n;
    });
  }
  return out;
}
