import type { WaverConfig } from '../../config/schema.js';
import { sagoSettings } from './config.js';
import { type OpenDatasetSample, resolveOpenPrompts } from './data/datasets.js';
import type { SagoPrompt } from './variants.js';
import { type PromptVariants, promptsOf, ruleVariations, keyOf as variationKeyOf } from './variants.js';

/**
 * What a sago run asks, before any model is called: the prompts sampled from each dataset and each
 * prompt's rule-based variations (the generator's structural rewrites and the meaning filter come
 * in the run, docs/sago.md).
 */
export interface SagoPromptSets {
  samples: OpenDatasetSample[];
  prompts: SagoPrompt[];
  sets: PromptVariants[];
}

/** Samples the prompts and builds their variations; bad datasets, sizes and strengths are input errors. */
export async function sagoPromptSets(
  config: WaverConfig,
  opts: { env?: NodeJS.ProcessEnv } = {},
): Promise<SagoPromptSets> {
  const settings = sagoSettings(config);
  const samples = await resolveOpenPrompts(settings.datasets, {
    n: settings.n,
    seed: config.seed,
    dataDir: settings.dataDir,
    env: opts.env,
    fields: settings.fields,
  });
  const prompts = promptsOf(samples);
  return { samples, prompts, sets: ruleVariations(prompts, settings, config.seed) };
}

/** Prompts, distinct variations, and the tests each model is asked (baselines and variants). */
export function promptSetsSize(plan: SagoPromptSets): { prompts: number; variations: number; tests: number } {
  const variants = plan.sets.flatMap((s) => s.variants);
  return {
    prompts: plan.prompts.length,
    variations: new Set(variants.map(variationKeyOf)).size,
    tests: plan.sets.length + variants.length,
  };
}
