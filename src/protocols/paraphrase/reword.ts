import type { WaverConfig } from '../../config/schema.js';
import type { McItem } from '../../data/mc/mc-item.js';
import { normaliseText } from '../../data/mc/mc-rules.js';
import { InputError } from '../../errors.js';
import { roleSpec, runRole } from '../../run/roles.js';
import type { RunSuiteOptions } from '../../run/run-suite.js';
import type { SuiteTest } from '../../run/types.js';
import type { RewordSource } from './phrasings.js';
import { REWORD_SUITE } from './suite-names.js';

/**
 * The reworded phrasing's stem: the item's first alternate wording when it has one, else a
 * rewrite by the generator role, made through runSuite (suite `paraphrase/reword`, stored and
 * cached like every call) and accepted only if it keeps every number and differs from the
 * original (docs/paraphrase.md#reworded). Which of the two was used is recorded in each test.
 */

/** Greedy: a reword is made once and reused, so it should not depend on sampling luck. */
export const REWORD_TEMPERATURE = 0;
export const REWORD_MAX_TOKENS = 512;

export const REWORD_SYSTEM = 'You rewrite questions in different words without changing what they ask.';

export function rewordTest(item: McItem): SuiteTest {
  return {
    id: item.id,
    system: REWORD_SYSTEM,
    prompt: [
      'Reword the following question so that it asks exactly the same thing in different words.',
      'Keep every number, name, unit and condition. Do not answer it, do not list any options, and do not add anything else.',
      'Reply with the reworded question only.',
      '',
      `Question: ${item.stem}`,
    ].join('\n'),
    meta: { item: item.id, stem: item.stem },
  };
}

const NUMBER = /\d+(?:[.,]\d+)*/g;

/** The generator's reply as a stem, or why it cannot be one. */
export function acceptReword(
  stem: string,
  reply: string,
): { ok: true; text: string } | { ok: false; reason: string } {
  const text = reply
    .trim()
    .replace(/^(?:reworded(?:\s+question)?|question|rewrite)\s*:\s*/i, '')
    .replace(/^["“”'‘’]+|["“”'‘’]+$/g, '')
    .trim();
  if (text === '') return { ok: false, reason: 'empty rewrite' };
  if (normaliseText(text) === normaliseText(stem))
    return { ok: false, reason: 'the rewrite is the original' };
  const have = text.match(NUMBER) ?? [];
  for (const n of stem.match(NUMBER) ?? []) {
    const needed = (stem.match(NUMBER) ?? []).filter((x) => x === n).length;
    if (have.filter((x) => x === n).length < needed)
      return { ok: false, reason: `the rewrite drops the number ${n}` };
  }
  if (text.length > 3 * stem.length + 80)
    return { ok: false, reason: 'the rewrite is more than three times as long' };
  return { ok: true, text };
}

export interface Rewords {
  byItem: Map<string, { text: string; source: RewordSource }>;
  /** Items whose rewrite failed: left out of the suite for every model, with the reason. */
  dropped: { item: string; reason: string }[];
  fromAlternate: number;
  fromGenerator: number;
  generator?: string;
}

/** Items that need the generator (no alternate wording). */
export function itemsNeedingGenerator(items: readonly McItem[]): McItem[] {
  return items.filter((i) => !i.alternates?.[0]);
}

/**
 * Fails before anything is written when some item needs the generator and none is configured.
 */
export function checkRewordable(config: WaverConfig, items: readonly McItem[]): void {
  const needing = itemsNeedingGenerator(items);
  if (needing.length === 0) return;
  if (config.generator === undefined)
    throw new InputError(
      `${needing.length} item(s) have no alternate wording (first: '${needing[0]?.id}') and no generator is configured: pass --generator SPEC to reword them, or leave 'reworded' out of paraphrase.phrasings`,
      { field: 'generator' },
    );
  roleSpec(config, 'generator');
}

export async function rewordItems(
  config: WaverConfig,
  items: readonly McItem[],
  opts: RunSuiteOptions = {},
): Promise<Rewords> {
  const byItem = new Map<string, { text: string; source: RewordSource }>();
  for (const item of items) {
    const alternate = item.alternates?.[0];
    if (alternate) byItem.set(item.id, { text: alternate, source: { kind: 'alternate' } });
  }
  const needing = itemsNeedingGenerator(items);
  const rewords: Rewords = { byItem, dropped: [], fromAlternate: byItem.size, fromGenerator: 0 };
  if (needing.length === 0) return rewords;
  checkRewordable(config, items);
  const result = await runRole(
    config,
    'generator',
    REWORD_SUITE,
    [{ temperature: REWORD_TEMPERATURE, maxTokens: REWORD_MAX_TOKENS, tests: needing.map(rewordTest) }],
    opts,
  );
  rewords.generator = result.identity;
  for (const item of needing) {
    const answer = result.answers.get(item.id);
    if (!answer?.ok) {
      rewords.dropped.push({
        item: item.id,
        reason: `generator call failed: ${answer?.ok === false ? answer.error : 'no answer'}`,
      });
      continue;
    }
    const accepted = acceptReword(item.stem, answer.text);
    if (!accepted.ok) {
      rewords.dropped.push({ item: item.id, reason: `rewrite rejected: ${accepted.reason}` });
      continue;
    }
    byItem.set(item.id, { text: accepted.text, source: { kind: 'generator', generator: result.identity } });
    rewords.fromGenerator++;
  }
  return rewords;
}
