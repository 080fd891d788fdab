import type { ScoreResult } from '../../models/types.js';
import { auxGet } from '../../run/aux-cache.js';
import type { SuiteTest } from '../../run/types.js';
import type { Store, StoredCell } from '../../store/store.js';
import { bleuPair } from '../../text-measures/bleu.js';
import { meanTokenEntropy, sequenceLogprob } from './axes.js';
import type { SagoConfig } from './config.js';
import { fingerprintOf, groupTests, type PromptGroup, type PromptRow, promptRowRequest } from './measures.js';
import { detectMirroring } from './mirroring.js';
import type { SagoTest } from './test-meta.js';
import type { Variation } from './variations/types.js';

/**
 * Per-response values of one prompt, derived from the stored responses (docs/sago.md#store):
 * `bleu` = BLEU(response, baseline response) in the run's mode (the baseline's own entry is
 * BLEU(y, y)); `logprob` and `entropy` from the generation's tokens or the teacher-forced score;
 * `mirrorVariant` / `mirrorBaseline` = m(y_v, v) and m(y, v) of the rule detectors (spacing,
 * punctuation, case, length) as 1/0 — politeness needs the judge and is read at load time.
 *
 * With `deltaBaseline: strength-zero` the row also holds the second baseline sample y' (the
 * baseline test's repeat 1): one more entry at the end of `bleu`, `logprob` and `entropy`, and
 * `mirrorZero` = m(y', v) at v's zero strength (the reference code's strength-0 row).
 */

export type FeatureSettings = Pick<
  SagoConfig,
  'bleuMode' | 'confidence' | 'mirroringRules' | 'deltaBaseline'
>;

export const FEATURE_COLUMNS = [
  'bleu',
  'logprob',
  'entropy',
  'mirrorVariant',
  'mirrorBaseline',
  'mirrorZero',
] as const;

export function featuresRequest(
  model: string,
  suiteHash: string,
  group: PromptGroup,
  settings: FeatureSettings,
) {
  return promptRowRequest('response-features', model, suiteHash, group, {
    bleuMode: settings.bleuMode,
    confidence: settings.confidence,
    mirroringRules: settings.mirroringRules,
    deltaBaseline: settings.deltaBaseline,
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
export function variationOf({ id, prompt, meta }: SagoTest): Variation {
  const { family, subtype, strength, position } = meta;
  if (family === undefined || subtype === undefined || strength === undefined || position === undefined)
    throw new Error(`test ${id} is not a variant (its meta has no variation)`);
  return { family, subtype, strength, position, text: prompt, generator: meta.generator ?? 'rules' };
}

/**
 * The variation as the strength-0 row sees it: the same subtype at its zero strength (length 1,
 * otherwise 0) on the unvaried prompt.
 */
export function zeroVariation(v: Variation, prompt: string): Variation {
  return { ...v, strength: v.subtype === 'length' ? 1 : 0, text: prompt } as Variation;
}

/**
 * The features row of a prompt from its stored cells; undefined when the baseline has no response.
 * `zero` is the second baseline sample when the settings ask for one (a missing one gives nulls).
 */
export function featureRow(
  store: Store,
  identity: string,
  group: PromptGroup<SagoTest>,
  cells: ReadonlyMap<string, StoredCell>,
  settings: FeatureSettings,
  zero?: StoredCell,
): PromptRow | undefined {
  const base = cells.get(group.baseline.id);
  if (base?.status !== 'done') return undefined;
  const baseText = base.response?.text ?? '';
  const withZero = settings.deltaBaseline === 'strength-zero';
  const zeroText = withZero && zero?.status === 'done' ? (zero.response?.text ?? '') : undefined;
  const rules = { baselineResponse: baseText, rules: settings.mirroringRules };
  const tests = groupTests(group);
  const columns: PromptRow['columns'] = Object.fromEntries(FEATURE_COLUMNS.map((c) => [c, []]));
  const push = (name: (typeof FEATURE_COLUMNS)[number], v: number | undefined) => {
    (columns[name] as (number | null)[]).push(v === undefined || !Number.isFinite(v) ? null : v);
  };
  const confidence = (test: SuiteTest, cell: StoredCell, text: string) => {
    if (settings.confidence === 'teacher-forced') {
      const scored = auxGet<ScoreResult>(store, 'score', identity, scoreRequest(test, text));
      return { logprob: scored?.logprob, entropy: scored ? meanTokenEntropy(scored.tokens) : undefined };
    }
    return {
      logprob: sequenceLogprob(text, cell.response?.tokens),
      entropy: meanTokenEntropy(cell.response?.tokens),
    };
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
    const { logprob, entropy } = confidence(test, cell, text);
    push('bleu', bleuPair(text, baseText, settings.bleuMode).score);
    push('logprob', logprob);
    push('entropy', entropy);
    const variation = j === 0 ? undefined : variationOf(test);
    if (!variation || variation.subtype === 'politeness') {
      push('mirrorVariant', undefined);
      push('mirrorBaseline', undefined);
      push('mirrorZero', undefined);
      return;
    }
    const mirrored = (t: string, v: Variation) => {
      const m = detectMirroring(t, v, rules).mirrored;
      return m === undefined ? undefined : Number(m);
    };
    push('mirrorVariant', mirrored(text, variation));
    push('mirrorBaseline', mirrored(baseText, variation));
    push(
      'mirrorZero',
      zeroText === undefined
        ? undefined
        : mirrored(zeroText, zeroVariation(variation, group.baseline.prompt)),
    );
  });
  if (withZero) {
    keys.push(zeroText === undefined ? undefined : zero?.responseKey);
    const z = zeroText === undefined || !zero ? undefined : confidence(group.baseline, zero, zeroText);
    push('bleu', zeroText === undefined ? undefined : bleuPair(zeroText, baseText, settings.bleuMode).score);
    push('logprob', z?.logprob);
    push('entropy', z?.entropy);
  }
  return { fingerprint: fingerprintOf(keys), columns };
}
