import { auxGet, auxPut } from '../../run/aux-cache.js';
import type { SuiteTest } from '../../run/types.js';
import type { Store } from '../../store/store.js';
import { bertScoreF1, pooledCosine } from '../../text-measures/bertscore.js';
import { sha256 } from '../../util/hash.js';
import { storedLayerStates, storedPooled, storedWordPrefix } from './embeddings.js';

/**
 * Values SAGO derives once from what the run stored — per response (BLEU against the baseline,
 * log-prob, entropy, rule mirroring) and per pair (cosines and BERTScore over stored embeddings)
 * — kept as `measure` rows in aux_results: one row per (model, prompt, measure), its columns
 * aligned with the prompt's tests (baseline first, then its variants in suite order). A report
 * reads a few numbers per response instead of every token and vector again (docs/sago.md#store).
 *
 * A row carries the fingerprint of the responses it was computed from; when a response was
 * replaced since (a re-run with --no-cache), the loader sees the mismatch and recomputes from
 * the stored responses and embeddings: a row is a cache, never the only copy of the truth.
 */

export type PromptMeasure = 'response-features' | 'activation-cosine' | 'embedding-cosine' | 'bertscore-f1';

export interface PromptRow {
  fingerprint: string;
  /** Column name -> one value per test of the prompt (null: no value). */
  columns: Record<string, (number | null)[]>;
}

/** The tests of one prompt: its baseline and its variants, in suite order. */
export interface PromptGroup<Test extends SuiteTest = SuiteTest> {
  baseline: Test;
  variants: Test[];
}

/** The row's request: what was measured, for which model's responses, in which suite and settings. */
export function promptRowRequest(
  measure: PromptMeasure,
  model: string,
  suiteHash: string,
  group: PromptGroup,
  params: Record<string, string> = {},
) {
  return { measure, model, suite: suiteHash, prompt: group.baseline.id, ...params };
}

/** A short hash of the response keys the row's values come from (missing responses as ''). */
export function fingerprintOf(responseKeys: readonly (string | undefined)[]): string {
  return sha256(responseKeys.map((k) => k ?? '').join('\n')).slice(0, 32);
}

export function readPromptRow(
  store: Store,
  identity: string,
  request: ReturnType<typeof promptRowRequest>,
): PromptRow | undefined {
  return auxGet<PromptRow>(store, 'measure', identity, request);
}

export function writePromptRow(
  store: Store,
  identity: string,
  request: ReturnType<typeof promptRowRequest>,
  row: PromptRow,
): void {
  auxPut(store, 'measure', identity, request, row);
}

/** The tests of a group in row order. */
export function groupTests<Test extends SuiteTest>(group: PromptGroup<Test>): Test[] {
  return [group.baseline, ...group.variants];
}

/**
 * Cosine of each text's stored pooled embedding with the first text's (the baseline), from the
 * embeddings `identity` stored; null where a text is missing, empty or was not embedded.
 */
export function pooledCosines(
  store: Store,
  identity: string,
  texts: readonly (string | undefined)[],
): (number | null)[] {
  const ref = texts[0] === undefined ? undefined : storedPooled(store, identity, texts[0]);
  return texts.map((t) => {
    if (!ref || t === undefined) return null;
    const v = storedPooled(store, identity, t);
    return v ? (pooledCosine(v, ref) ?? null) : null;
  });
}

/**
 * The activation axis' cosine of each text with the first (the baseline): of the final hidden
 * state (`final`), or the mean over the layers of the cosine of each layer's state (`mean`, the
 * paper's; docs/sago.md#activation). null where a text is missing or its states were not stored.
 */
export function activationCosines(
  store: Store,
  identity: string,
  texts: readonly (string | undefined)[],
  layers: 'final' | 'mean',
): (number | null)[] {
  if (layers === 'final') return pooledCosines(store, identity, texts);
  const ref = texts[0] === undefined ? undefined : storedLayerStates(store, identity, texts[0]);
  return texts.map((t) => {
    const states = t === undefined ? undefined : storedLayerStates(store, identity, t);
    if (!ref || !states || states.length !== ref.length || states.length === 0) return null;
    let sum = 0;
    for (const [k, state] of states.entries()) {
      const c = pooledCosine(state, ref[k] as number[]);
      if (c === undefined) return null;
      sum += c;
    }
    return sum / states.length;
  });
}

/** BERTScore-F1 of each text against the first (the baseline; its own entry is B(y, y)), from stored word-prefix vectors. */
export function bertScores(
  store: Store,
  identity: string,
  texts: readonly (string | undefined)[],
): (number | null)[] {
  const ref = texts[0] === undefined ? undefined : storedWordPrefix(store, identity, texts[0]);
  return texts.map((t) => {
    if (!ref || t === undefined) return null;
    const v = storedWordPrefix(store, identity, t);
    return v ? bertScoreF1(v, ref).f1 : null;
  });
}
