import type { ScoreResult } from '../../models/types.js';
import { auxGet } from '../../run/aux-cache.js';
import type { SuiteTest } from '../../run/types.js';
import type { Store, StoredCell } from '../../store/store.js';
import { bleuPair } from '../../text-measures/bleu.js';
import { meanTokenEntropy, sequenceLogprob } from './axes.js';
import type { SagoConfig } from './config.js';
import { fingerprintOf, groupTests, type PromptGroup, type PromptRow, promptRowRequest } from './measures.js';
import { detectMirroring } from './mirroring.js';
import type { Variation } from './variations/types.js';

/**
 * Per-response values of one prompt, derived from the stored responses (docs/sago.md#store):
 * `bleu` = BLEU(response, baseline response) in the run's mode (the baseline's own entry is
 * BLEU(y, y)); `logprob` and `entropy` from the generation's tokens or the teacher-forced score;
 * `mirrorVariant` / `mirrorBaseline` = m(y_v, v) and m(y, v) of the rule detectors (spacing,
 * punctuation, case, length) as 1/0 — politeness needs the judge and is read at load time.
 */

export type FeatureSettings = Pick<SagoConfig, 'bleuMode' | 'confidence'>;

export const FEATURE_COLUMNS = ['bleu', 'logprob', 'entropy', 'mirrorVariant', 'mirrorBaseline'] as const;

export function featuresRequest(
  model: string,
  suiteHash: string,
  group: PromptGroup,
  settings: FeatureSettings,
) {
  return promptRowRequest('response-features', model, suiteHash, group, {
    bleuMode: settings.bleuMode,
    confidence: settings.confidence,
  });
}

/** The teacher-forced score request of a response under its own prompt (aux kind `score`). */
export function scoreRequest(test: Pick<SuiteTest, 'prompt' | 'system'>, continuation: string) {
  const messages = [
    ...(test.system !== undefined ? [{ role: 'system' as const, content: test.system }] : []),
    { role: 'user' as const, content: test.prompt },
  ];
  return { messages, continuation };
}

/** The variation a variant test was made with (coordinates from its meta, text = its prompt). */
export function variationOf(test: SuiteTest): Variation {
  const meta = test.meta as Record<string, unknown>;
  return {
    family: meta.family,
    subtype: meta.subtype,
    strength: meta.strength,
    position: meta.position,
    text: test.prompt,
    generator: meta.generator ?? 'rules',
  } as Variation;
}

/** The features row of a prompt from its stored cells; undefined when the baseline has no response. */
export function featureRow(
  store: Store,
  identity: string,
  group: PromptGroup,
  cells: ReadonlyMap<string, StoredCell>,
  settings: FeatureSettings,
): PromptRow | undefined {
  const base = cells.get(group.baseline.id);
  if (base?.status !== 'done') return undefined;
  const baseText = base.response?.text ?? '';
  const tests = groupTests(group);
  const columns: PromptRow['columns'] = Object.fromEntries(FEATURE_COLUMNS.map((c) => [c, []]));
  const push = (name: (typeof FEATURE_COLUMNS)[number], v: number | undefined) => {
    (columns[name] as (number | null)[]).push(v === undefined || !Number.isFinite(v) ? null : v);
  };
  const keys: (string | undefined)[] = [];
  tests.forEach((test, j) => {
    const cell = cells.get(test.id);
    const done = cell?.status === 'done';
    keys.push(done ? cell.responseKey : undefined);
    if (!done) {
      for (const c of FEATURE_COLUMNS) push(c, undefined);
      return;
    }
    const text = cell.response?.text ?? '';
    let logprob: number | undefined;
    let entropy: number | undefined;
    if (settings.confidence === 'teacher-forced') {
      const scored = auxGet<ScoreResult>(store, 'score', identity, scoreRequest(test, text));
      logprob = scored?.logprob;
      entropy = scored ? meanTokenEntropy(scored.tokens) : undefined;
    } else {
      logprob = sequenceLogprob(text, cell.response?.tokens);
      entropy = meanTokenEntropy(cell.response?.tokens);
    }
    push('bleu', bleuPair(text, baseText, settings.bleuMode).score);
    push('logprob', logprob);
    push('entropy', entropy);
    const variation = j === 0 ? undefined : variationOf(test);
    if (!variation || variation.subtype === 'politeness') {
      push('mirrorVariant', undefined);
      push('mirrorBaseline', undefined);
      return;
    }
    const mv = detectMirroring(text, variation, { baselineResponse: baseText }).mirrored;
    const mb = detectMirroring(baseText, variation, { baselineResponse: baseText }).mirrored;
    push('mirrorVariant', mv === undefined ? undefined : Number(mv));
    push('mirrorBaseline', mb === undefined ? undefined : Number(mb));
  });
  return { fingerprint: fingerprintOf(keys), columns };
}
