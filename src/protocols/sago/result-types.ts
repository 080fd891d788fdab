import type { Coverage } from '../../run/types.js';
import type { AxisStatus, SagoModelRecord } from './axes.js';
import type { SagoManifest } from './manifest.js';
import type {
  SagoAxis,
  SagoDeltaTable,
  SampleSizePoint,
  ScopeScores,
  SliceScore,
  StrengthAblation,
  VariationKey,
} from './metrics.js';
import type { Variation } from './variations/types.js';

/**
 * What SAGO computes for a responses suite (results.ts builds it from the store), in types of their
 * own so the loaders of waver's runs and of imported runs share them.
 */

/** Test meta of the responses suite. */
export interface SagoTestMeta {
  dataset: string;
  promptId: string;
  /**
   * `baseline`: the prompt itself; `variant`: a variation of it; `pair-baseline`: in an imported run,
   * the response to the prompt recorded beside one variant (each row of the authors' files has its
   * own, separately sampled one).
   */
  role: 'baseline' | 'variant' | 'pair-baseline';
  /** Variants only. */
  family?: Variation['family'];
  subtype?: Variation['subtype'];
  strength?: number;
  position?: Variation['position'];
  generator?: string;
  achievedRatio?: number;
  meaningCheck?: Variation['meaningCheck'];
  /** pair-baseline: the id of the variant test it was recorded with. */
  pairOf?: string;
  /** Imported tests: the run folder and the CSV line the row came from. */
  imported?: { run: string; line: number };
}

/** The axes computed for a model; unavailable ones keep their reason. */
export interface SagoModelResults {
  model: SagoModelRecord;
  coverage: Coverage;
  complete: boolean;
  axes: Record<SagoAxis, AxisStatus>;
  table: SagoDeltaTable;
  scores: ScopeScores[];
  ablations: {
    sampleSize: Partial<Record<SagoAxis, SampleSizePoint[]>>;
    position: Partial<Record<SagoAxis, SliceScore[]>>;
    strength: Partial<Record<SagoAxis, StrengthAblation[]>>;
  };
  /** Values that could not be computed, by axis and reason (failed cells, missing embeddings...). */
  missing: Partial<Record<SagoAxis, Record<string, number>>>;
}

export interface SagoResults {
  manifest: SagoManifest;
  suiteHash: string;
  prompts: number;
  variations: VariationKey[];
  /** Variants kept per prompt, summed. */
  variants: number;
  models: SagoModelResults[];
}

export interface LoadSagoOptions {
  /** Use this manifest instead of the newest one stored for the suite. */
  manifest?: SagoManifest;
  /** Skip the ablations (they are the slowest part). */
  ablations?: boolean;
}

/** The prompts x variations of a suite and each model's results on them, before the ablations. */
export interface SagoTables {
  prompts: number;
  variations: VariationKey[];
  variants: number;
  models: SagoModelResults[];
}
