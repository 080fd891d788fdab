import type { WaverConfig } from '../../config/schema.js';
import type { OpenPrompt } from '../../data/open/open-prompt.js';
import { InputError } from '../../errors.js';
import { ProviderError } from '../../models/errors.js';
import type { ModelProvider } from '../../models/types.js';
import { runRole } from '../../run/roles.js';
import type { RunSuiteOptions } from '../../run/run-suite.js';
import { suiteOf } from '../../run/suite.js';
import type { SuiteTest } from '../../run/types.js';
import type { Store } from '../../store/store.js';
import { bertScoreF1, pooledCosine } from '../../text-measures/bertscore.js';
import { deriveSeed, PyRandom } from '../../util/random.js';
import type { SagoConfig } from './config.js';
import type { OpenDatasetSample } from './data/datasets.js';
import { pooledEmbedding, wordPrefixEmbeddings } from './embeddings.js';
import { GENERATOR_SUITE } from './suite-names.js';
import { allVariations, checkStrength, FAMILY_OF } from './variations/index.js';
import { parseGeneratedVariant, structuralInstructions } from './variations/structural.js';
import type { MeaningCheck, StructuralSubtype, Variation } from './variations/types.js';

/**
 * The variation set of every prompt (docs/sago.md#variations): waver's rule-based variants,
 * structural rewrites by the generator model when there is one, and the meaning-preservation
 * filter through the embedder. Every decision is recorded on the variant.
 */

/** A prompt of the run: its dataset sample entry and a key unique across datasets. */
export interface SagoPrompt {
  /**
   * `dataset::id`, unique in the run. It seeds the prompt's variants and names its tests, so the
   * dataset is what it holds, never a file's path (docs/datasets.md#identity).
   */
  key: string;
  prompt: OpenPrompt;
}

export interface PromptVariants {
  prompt: SagoPrompt;
  /** Variants kept (they become tests). */
  variants: Variation[];
  /** Variants dropped, with why (meaning filter, generator failure). */
  rejected: { variation: Variation; reason: string }[];
}

export function promptsOf(samples: readonly OpenDatasetSample[]): SagoPrompt[] {
  return samples.flatMap((s) =>
    s.prompts.map((prompt) => ({ key: `${prompt.dataset}::${prompt.id}`, prompt })),
  );
}

/** Checks `strengths` before anything runs: every subtype known, every strength in its range. */
export function checkStrengthSettings(settings: Pick<SagoConfig, 'strengths'>): void {
  for (const [subtype, strengths] of Object.entries(settings.strengths ?? {}))
    for (const s of strengths) checkStrength(subtype, s, { field: `sago.strengths.${subtype}` });
}

/** The variation key of a variation (its coordinates). */
export function keyOf(v: Pick<Variation, 'family' | 'subtype' | 'strength' | 'position'>): string {
  return `${v.family}/${v.subtype}/${v.strength}/${v.position}`;
}

/**
 * Rule-based variation sets, one per prompt, filtered by the settings: families, strengths per
 * subtype, and (`variations`) a seeded sample of the variation keys shared by every prompt, so all
 * prompts keep the same set V.
 */
export function ruleVariations(
  prompts: readonly SagoPrompt[],
  settings: SagoConfig,
  seed: number,
): PromptVariants[] {
  checkStrengthSettings(settings);
  const all = prompts.map((p) => ({
    prompt: p,
    variants: allVariations(p.prompt.text, {
      seed,
      itemKey: p.key,
      closedModelSubset: settings.closedModelSubset,
      families: settings.families,
      positions: settings.positions,
    }).filter((v) => {
      // Register strength 0 is the prompt itself; `left-out` keeps it out of V (docs/fidelity.md#sago).
      if (settings.zeroStrength === 'left-out' && v.family === 'register' && v.strength === 0) return false;
      const only = settings.strengths?.[v.subtype];
      return only === undefined || only.includes(v.strength);
    }),
    rejected: [],
  }));
  const keys = [...new Set(all.flatMap((p) => p.variants.map(keyOf)))];
  if (keys.length === 0)
    throw new InputError(
      'the variation set is empty: no variation matches the families and strengths asked for',
      {
        field: 'sago.families',
      },
    );
  if (settings.variations !== undefined && settings.variations < keys.length) {
    const kept = new Set(new PyRandom(deriveSeed(seed, 'sago/variations')).sample(keys, settings.variations));
    for (const p of all) p.variants = p.variants.filter((v) => kept.has(keyOf(v)));
  }
  return all;
}

/** Whether structural variants come from the generator model. */
export function usesGenerator(config: WaverConfig, settings: SagoConfig): boolean {
  if (settings.structural === 'rules') return false;
  if (settings.structural === 'generator' && config.generator === undefined)
    throw new InputError(
      'structural rewriting by a generator needs one: pass --generator SPEC (or --structural rules)',
      {
        field: 'generator',
      },
    );
  return config.generator !== undefined;
}

/** The generator test of one structural variant of a prompt. */
export function generatorTest(p: SagoPrompt, v: Pick<Variation, 'subtype' | 'strength'>): SuiteTest {
  return {
    id: `${p.key}::${v.subtype}/${v.strength}`,
    prompt: structuralInstructions(p.prompt.text, v.subtype as StructuralSubtype, v.strength),
    meta: { dataset: p.prompt.dataset, promptId: p.prompt.id, subtype: v.subtype, strength: v.strength },
  };
}

/** The generator's batch: one test per structural variant, at temperature 0. */
export function structuralBatch(
  sets: readonly PromptVariants[],
  settings: Pick<SagoConfig, 'generatorMaxTokens'>,
) {
  const tests: SuiteTest[] = [];
  for (const set of sets)
    for (const v of set.variants) if (v.family === 'structural') tests.push(generatorTest(set.prompt, v));
  return { temperature: 0, maxTokens: settings.generatorMaxTokens, tests };
}

/**
 * Replaces each rule-based structural variant with the generator model's rewrite (suite
 * `sago/generator`, run like any other). A failed call or an unusable reply drops the variant and
 * says why. Returns the generator suite's hash and identity.
 */
export async function generateStructural(
  config: WaverConfig,
  settings: SagoConfig,
  sets: PromptVariants[],
  opts: RunSuiteOptions = {},
): Promise<{ suiteHash: string; identity: string } | undefined> {
  const batch = structuralBatch(sets, settings);
  const { tests } = batch;
  if (tests.length === 0) return undefined;
  const { identity, answers } = await runRole(config, 'generator', GENERATOR_SUITE, [batch], opts);
  const label =
    typeof config.generator === 'string' ? config.generator : (config.generator?.label ?? identity);
  for (const set of sets) {
    const kept: Variation[] = [];
    for (const v of set.variants) {
      if (v.family !== 'structural') {
        kept.push(v);
        continue;
      }
      const answer = answers.get(generatorTest(set.prompt, v).id);
      const text = answer?.ok ? parseGeneratedVariant(answer.text) : undefined;
      if (text === undefined) {
        set.rejected.push({
          variation: { ...v, generator: label },
          reason:
            answer?.ok === false
              ? `generator failed: ${answer.error}`
              : 'generator reply had no usable prompt',
        });
        continue;
      }
      const { achievedRatio: _rules, ...rest } = v;
      kept.push({
        ...rest,
        text,
        generator: label,
        ...(v.subtype === 'length'
          ? { achievedRatio: words(text) / Math.max(1, words(set.prompt.prompt.text)) }
          : {}),
      });
    }
    set.variants = kept;
  }
  return { suiteHash: suiteOf(GENERATOR_SUITE, tests).hash, identity };
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export interface MeaningFilterContext {
  store: Store;
  embedder?: ModelProvider;
  embedderLabel?: string;
  tokenLevel: boolean;
  signal?: AbortSignal;
}

/**
 * The meaning-preservation filter (paper 4.1; docs/method.md#sago): noise preserves meaning by
 * construction; register and structural variants must score above the threshold against the
 * original prompt — BERTScore-F1 where the embedder gives token embeddings, else the pooled
 * embedding cosine (its own threshold). No embedder: recorded as unchecked, variants kept.
 */
export async function filterMeaning(
  sets: PromptVariants[],
  settings: SagoConfig,
  ctx: MeaningFilterContext,
): Promise<void> {
  for (const set of sets) {
    const checked: Variation[] = [];
    for (const v of set.variants) {
      let check: MeaningCheck;
      try {
        check = await meaningCheckOf(set.prompt, v, settings, ctx);
      } catch (e) {
        // An embedder that refuses the text cannot vouch for the variant: it is dropped, with the reason.
        if (!(e instanceof ProviderError) || e.retryable) throw e;
        set.rejected.push({
          variation: v,
          reason: `meaning filter: the embedder failed (${e.kind}: ${e.message})`,
        });
        continue;
      }
      checked.push({ ...v, meaningCheck: check });
    }
    const failed = checked.filter(
      (v) => v.meaningCheck?.method !== 'by-construction' && isFailed(v.meaningCheck),
    );
    // `prompt` scope (the paper): one failure drops every checked variant of the prompt.
    const dropAllChecked = settings.meaningFilter.scope === 'prompt' && failed.length > 0;
    set.variants = [];
    for (const v of checked) {
      const check = v.meaningCheck;
      if (isFailed(check) || (dropAllChecked && check?.method !== 'by-construction')) {
        set.rejected.push({
          variation: v,
          reason: isFailed(check)
            ? `meaning filter: ${describeCheck(check)}`
            : `meaning filter (prompt scope): ${failed.length} variant(s) of this prompt failed`,
        });
      } else set.variants.push(v);
    }
  }
}

function isFailed(check: MeaningCheck | undefined): boolean {
  return check !== undefined && 'passed' in check && !check.passed;
}

function describeCheck(check: MeaningCheck | undefined): string {
  if (!check || !('score' in check)) return 'not checked';
  return `${check.method} ${check.score.toFixed(4)} ${check.passed ? '>' : '<='} ${check.threshold} (${check.embedder})`;
}

async function meaningCheckOf(
  p: SagoPrompt,
  v: Variation,
  settings: SagoConfig,
  ctx: MeaningFilterContext,
): Promise<MeaningCheck> {
  if (FAMILY_OF[v.subtype] === 'noise') return { method: 'by-construction' };
  // Register strength 0 is the prompt itself.
  if (v.text === p.prompt.text) return { method: 'by-construction' };
  if (!ctx.embedder) return { method: 'unchecked', reason: 'no embedder configured' };
  const embedder = ctx.embedder;
  const label = ctx.embedderLabel ?? embedder.identity;
  if (ctx.tokenLevel) {
    const [cand, ref] = await Promise.all([
      wordPrefixEmbeddings(ctx.store, embedder, v.text, ctx.signal),
      wordPrefixEmbeddings(ctx.store, embedder, p.prompt.text, ctx.signal),
    ]);
    const score = cand && ref ? bertScoreF1(cand, ref).f1 : 0;
    const threshold = settings.meaningFilter.bertscore;
    return { method: 'bertscore', embedder: label, score, threshold, passed: score > threshold };
  }
  const [a, b] = await Promise.all([
    pooledEmbedding(ctx.store, embedder, v.text, ctx.signal),
    pooledEmbedding(ctx.store, embedder, p.prompt.text, ctx.signal),
  ]);
  const score = a && b ? (pooledCosine(a, b) ?? 0) : 0;
  const threshold = settings.meaningFilter.cosine;
  return { method: 'embedding-cosine', embedder: label, score, threshold, passed: score > threshold };
}
