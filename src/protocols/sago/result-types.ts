import type { Coverage } from '../../run/types.js';
import type { AxisStatus, SagoModelRecord } from './axes.js';
import type { SagoAxis } from './constants.js';
import type { SagoManifest } from './manifest.js';
import type {
  SagoDeltaTable,
  SampleSizePoint,
  ScopeScores,
  SliceScore,
  StrengthAblation,
  VariationKey,
} from './metrics.js';

/**
 * What SAGO computes for a responses suite (results.ts builds it from the store), in types of their
 * own so the loaders of waver's runs and of imported runs share them.
 */

export type { SagoTestMeta } from './test-meta.js';

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
