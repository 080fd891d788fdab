import { z } from 'zod';
import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { ABLATION_DRAWS, ABLATION_SIZES, DEFAULT_EPSILONS, PRIMARY_EPSILON, SAGO_AXES } from './metrics.js';

/** The variation families (paper Section 3.2). */
export const SAGO_FAMILIES = ['register', 'noise', 'structural'] as const;
export type SagoFamily = (typeof SAGO_FAMILIES)[number];

/** Where register and noise variants go (paper Section 4.1; structural variants are global). */
export const SAGO_POSITIONS = ['prefix', 'suffix', 'global'] as const;

/**
 * The decisions where the SAGO authors' code differs from the paper (docs/fidelity.md#sago), each
 * a switch: the paper's reading (waver's default) and the reference code's. `reference: true`
 * gives every switch left unset its reference value at once; a switch set explicitly wins.
 */
export interface SagoReferenceSwitches {
  /** BLEU per pair: sentence BLEU with effective order, or corpus_bleu per pair (the reference code). */
  bleuMode: 'sentence' | 'sago-reference';
  /** Delta against the baseline's self-similarity (paper), or against a second, separately sampled baseline response (the strength-0 row). */
  deltaBaseline: 'self' | 'strength-zero';
  /** Sentence form: both forms against the prompt (paper), or the imperative against the interrogative rewrite. */
  sentenceForm: 'against-prompt' | 'imperative-vs-interrogative';
  /** Register strength 0 (the prompt itself): one of the eleven levels in V (paper), or left out of V. */
  zeroStrength: 'in-set' | 'left-out';
  /** Positions of register and noise variants: all three (paper), or global only (the closed-model runs). */
  positions: (typeof SAGO_POSITIONS)[number][];
  /** Register strengths -10,-6,-2,0,2,6,10 only (the closed-model runs). */
  closedModelSubset: boolean;
}

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

/** The output cap of the authors' runs (`experiments/run_closed_models.py`, `--max_tokens` default 100; every run's metadata.json). */
export const REFERENCE_MAX_TOKENS = 100;

/** Noise mirroring: the SAGO authors' published detectors and thresholds, or waver's density rules. */
export const MIRRORING_RULES = ['sago-reference', 'density'] as const;
export type MirroringRules = (typeof MIRRORING_RULES)[number];

/**
 * The `sago:` section of waver.yaml (flags of `waver sago` override it). Every default is the
 * paper's or docs/method.md's; waver's own choices are written in docs/sago.md.
 */
const SagoSection = z
  .object({
    /** Every reference switch left unset takes the SAGO reference code's value (docs/fidelity.md#sago). */
    reference: z.boolean().default(false),
    /** Prompts sampled per dataset (paper: 16). */
    n: z.int().positive().default(16),
    /** Named datasets (truthfulqa, nq-open, triviaqa, hotpotqa, simpleqa, alpaca) or files; none = the built-in set. */
    datasets: z.array(z.string().min(1)).default([]),
    /** Where named datasets live (default: env WAVER_DATA_DIR, else none: they come from the Hugging Face Hub). */
    dataDir: z.string().min(1).optional(),
    /** Field mapping for dataset files (JSONL/JSON/CSV). */
    fields: z
      .object({
        prompt: z.string().min(1).optional(),
        id: z.string().min(1).optional(),
        references: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /** Variation families to use (default all three). */
    families: z.array(z.enum(SAGO_FAMILIES)).min(1).optional(),
    /** Keep only these strengths per subtype (e.g. `{spacing: [1, 5]}`); each must be in the subtype's range. */
    strengths: z.record(z.string(), z.array(z.number()).min(1)).optional(),
    /** Use at most this many variations per prompt (a seeded sample of the set; for quick runs). */
    variations: z.int().positive().optional(),
    /** Register strengths -10,-6,-2,0,2,6,10 only (the paper's closed-model subset); reference: on. */
    closedModelSubset: z.boolean().optional(),
    /** Positions of register and noise variants; reference: global only. */
    positions: z.array(z.enum(SAGO_POSITIONS)).min(1).optional(),
    /** `self`: Delta = X(y_v, y) - X(y, y) (paper); `strength-zero`: minus a second baseline sample's (reference). */
    deltaBaseline: z.enum(['self', 'strength-zero']).optional(),
    /** `against-prompt` (paper) or `imperative-vs-interrogative` (reference). */
    sentenceForm: z.enum(['against-prompt', 'imperative-vs-interrogative']).optional(),
    /** Register strength 0 in V (`in-set`, paper) or not (`left-out`, reference). */
    zeroStrength: z.enum(['in-set', 'left-out']).optional(),
    /** Noise mirroring detectors: the SAGO authors' published thresholds (default) or waver's density rules. */
    mirroringRules: z.enum(MIRRORING_RULES).default('sago-reference'),
    /** Structural rewrites: by the generator model (`generator`), by rules (`rules`), or generator when one is configured (`auto`). */
    structural: z.enum(['auto', 'generator', 'rules']).default('auto'),
    /** `sentence`: sacrebleu sentence BLEU with effective order; `sago-reference`: corpus_bleu per pair (the reference code). */
    bleuMode: z.enum(['sentence', 'sago-reference']).optional(),
    /** Tolerances tested (H0: E[s] <= eps). */
    eps: z
      .array(z.number().gt(0).lt(1))
      .min(1)
      .default([...DEFAULT_EPSILONS]),
    /** The eps whose markers the per-dataset tables show. */
    primaryEps: z.number().gt(0).lt(1).default(PRIMARY_EPSILON),
    /** Axes that must be computed: a model that cannot give one is an input error (default: whatever each model allows). */
    axes: z.array(z.enum(SAGO_AXES)).min(1).optional(),
    /** Log-prob and entropy from the generation's own tokens (`generation`) or a teacher-forced re-score (`teacher-forced`). */
    confidence: z.enum(['generation', 'teacher-forced']).default('generation'),
    /** What the activation axis embeds: the prompt (paper Eq.: h(x)) or the response. */
    activationInput: z.enum(['prompt', 'response']).default('prompt'),
    /**
     * The activation axis' layers: the final hidden state (`final`, the reference code's and the
     * default), or the mean of the cosines over every layer's (`mean`, the paper's; needs the patched
     * gguf addon). docs/sago.md#activation.
     */
    activationLayers: z.enum(['final', 'mean']).default('final'),
    /**
     * BERTScore needs contextual token embeddings. `word-prefix`: the embedder's final hidden state at
     * the end of each word prefix; `auto`: that when the embedder is a local gguf model, else off.
     */
    bertscore: z.enum(['auto', 'word-prefix', 'off']).default('auto'),
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
        draws: z.int().positive().default(ABLATION_DRAWS),
      })
      .strict()
      .default({ sizes: [...ABLATION_SIZES], draws: ABLATION_DRAWS }),
    /**
     * Output cap of a system-under-test call. Unset: the run's `params.maxTokens` (256 by default),
     * or 100 under `reference: true`, the authors' runs (docs/fidelity.md#sago).
     */
    maxTokens: z.int().positive().optional(),
    /** Output cap for the generator's rewrites and the judge's verdicts. */
    generatorMaxTokens: z.int().positive().default(256),
    judgeMaxTokens: z.int().positive().default(64),
  })
  .strict();

/**
 * The `sago:` section with every reference switch resolved: a switch set explicitly keeps its
 * value, an unset one takes the reference value under `reference: true`, else the paper's.
 */
export const SagoConfig = SagoSection.transform((s) => ({ ...s, ...resolveSwitches(s) }));

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
