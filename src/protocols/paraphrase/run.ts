import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { WaverConfig } from '../../config/schema.js';
import type { McItem } from '../../data/mc/mc-item.js';
import { InputError } from '../../errors.js';
import { describeProvider } from '../../models/registry.js';
import { toModelSpec } from '../../models/spec.js';
import type { ModelEstimate } from '../../run/estimate.js';
import { plannedModels } from '../../run/plan.js';
import { estimateRole } from '../../run/roles.js';
import { estimateSuite, type RunResult, runSuite } from '../../run/run-suite.js';
import type { Suite } from '../../run/types.js';
import { openStore } from '../../store/store.js';
import type { PooledOptions } from '../types.js';
import { type ParaphraseSettings, type Phrasing, paraphraseSettings } from './config.js';
import { type McDataset, resolveMcItems } from './data/datasets.js';
import { type KeyCheck, verifyKeys } from './key-check.js';
import { shuffleSeedOf } from './phrasings.js';
import { loadParaphraseResults, type ParaphraseResults } from './results.js';
import {
  checkRewordable,
  itemsNeedingGenerator,
  REWORD_MAX_TOKENS,
  REWORD_TEMPERATURE,
  type Rewords,
  rewordItems,
  rewordTest,
} from './reword.js';
import { buildParaphraseSuite } from './suite.js';
import { REWORD_SUITE } from './suite-names.js';

/**
 * The paraphrase protocol end to end: items -> key check -> rewordings -> the `paraphrase/items`
 * suite -> runSuite -> results from the store. Every check on the user's input (dataset, keys,
 * shuffle seeds, a missing generator, model specs and files) happens in `loadParaphraseItems`,
 * before anything is written. The settings are the config's `paraphrase:` (paraphraseSettings).
 */

export interface ParaphraseItems {
  dataset: McDataset;
  /** After `limit`. */
  items: McItem[];
  keyCheck: KeyCheck;
  /** The phrasings asked: the settings', less `reworded` when it was left out (see loadParaphraseItems). */
  phrasings: Phrasing[];
}

/**
 * Loads and checks everything the run needs from the user's input. Writes nothing but the dataset
 * cache (a Hub dataset is downloaded), calls no model.
 */
export async function loadParaphraseItems(
  config: WaverConfig,
  settings: ParaphraseSettings,
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; onStage?: (stage: string, detail: string) => void } = {},
): Promise<ParaphraseItems> {
  plannedModels(config);
  checkModelFiles(config, opts.cwd);
  const dataset = await resolveMcItems(config.dataset, {
    ...(opts.env && { env: opts.env }),
    ...(opts.cwd && { cwd: opts.cwd }),
    ...(settings.fields && { fields: settings.fields }),
  });
  const items = settings.limit !== undefined ? dataset.items.slice(0, settings.limit) : dataset.items;
  // The key check first of all: a wrong key stops the run before a single call, generator included.
  const keyCheck = verifyKeys(items, { file: dataset.file });
  for (const item of items) shuffleSeedOf(item, config.seed);
  const phrasings = askedPhrasings(config, settings, items, opts.onStage);
  if (phrasings.includes('reworded')) checkRewordable(config, items);
  return { dataset, items, keyCheck, phrasings };
}

/**
 * The phrasings to ask. Items without an alternate wording need the generator for `reworded`;
 * with none configured and the phrasings not chosen, `reworded` is left out with a warning
 * (docs/paraphrase.md#reworded), so a named dataset runs without a generator. Chosen, it stays,
 * and checkRewordable says what is missing.
 */
function askedPhrasings(
  config: WaverConfig,
  settings: ParaphraseSettings,
  items: readonly McItem[],
  onStage?: (stage: string, detail: string) => void,
): Phrasing[] {
  const needing = itemsNeedingGenerator(items).length;
  if (!settings.phrasings.includes('reworded') || needing === 0) return settings.phrasings;
  if (config.generator !== undefined || settings.phrasingsGiven) return settings.phrasings;
  const kept = settings.phrasings.filter((p) => p !== 'reworded');
  onStage?.(
    'warning',
    `${needing} of ${items.length} item(s) have no alternate wording and no generator is configured: the 'reworded' phrasing is left out (asking ${kept.join(', ')}); pass --generator SPEC to reword them, or --phrasings to choose`,
  );
  return kept;
}

/**
 * Local files named by the model specs (gguf paths, replay recordings) must exist before the
 * generator writes its suite, so that a typo'd model file leaves the store untouched.
 */
function checkModelFiles(config: WaverConfig, cwd = process.cwd()): void {
  config.models.forEach((raw, i) => {
    const spec = toModelSpec(raw, { field: `models.${i}` });
    const file = describeProvider(spec.provider)?.localFile?.(spec);
    if (file !== undefined && !existsSync(resolve(cwd, file)))
      throw new InputError(`model file not found: ${file}`, { field: `models.${i}` });
  });
}

export interface ParaphraseRun {
  items: ParaphraseItems;
  rewords: Rewords;
  suite: Suite;
  run: RunResult;
  results: ParaphraseResults;
}

/**
 * The `paraphrase/items` suite for the loaded items: every phrasing of every item not dropped
 * (a failed rewording drops the item for every model), asked `settings.repeats` times.
 */
export function paraphraseSuite(
  config: WaverConfig,
  settings: ParaphraseSettings,
  loaded: ParaphraseItems,
  rewords: Pick<Rewords, 'byItem' | 'dropped'>,
): Suite {
  const dropped = new Set(rewords.dropped.map((d) => d.item));
  const kept = loaded.items.filter((i) => !dropped.has(i.id));
  if (kept.length === 0)
    // The generator's output, not waver, is at fault: an input error (exit 2) that says why.
    throw new InputError(
      `every item was dropped: the generator could not reword any of them (first: '${rewords.dropped[0]?.item}', ${rewords.dropped[0]?.reason}); try another --generator, or leave 'reworded' out with --phrasings`,
      { field: 'generator' },
    );
  return buildParaphraseSuite(kept, {
    phrasings: loaded.phrasings,
    repeats: settings.repeats,
    runSeed: config.seed,
    dataset: loaded.dataset.name,
    ...(loaded.dataset.source && { datasetSource: loaded.dataset.source }),
    verified: new Set(loaded.keyCheck.verified.map((v) => v.item)),
    rewords,
  });
}

/** The run config the items suite is sent with: the protocol's repeats. */
function itemsConfig(config: WaverConfig, settings: ParaphraseSettings): WaverConfig {
  return { ...config, repeats: settings.repeats };
}

export async function runParaphrase(
  config: WaverConfig,
  items: ParaphraseItems,
  opts: PooledOptions & { onRewordStart?: (n: number) => void },
): Promise<ParaphraseRun> {
  const settings = paraphraseSettings(config);
  let rewords: Rewords = { byItem: new Map(), dropped: [], fromAlternate: 0, fromGenerator: 0 };
  if (items.phrasings.includes('reworded')) {
    const needing = itemsNeedingGenerator(items.items).length;
    if (needing > 0) opts.onRewordStart?.(needing);
    // The generator's run gets no progress callback: the bar belongs to the items run.
    rewords = await rewordItems(config, items.items, {
      env: opts.env,
      fetch: opts.fetch,
      signal: opts.signal,
      onRunEnd: opts.onRunEnd,
      pool: opts.pool,
    });
  }
  const suite = paraphraseSuite(config, settings, items, rewords);
  const run = await runSuite(itemsConfig(config, settings), suite, opts);
  const store = openStore(run.store);
  try {
    const results = loadParaphraseResults(store, suite.hash, {
      models: run.models.map((m) => m.identity),
      seed: config.seed,
      resamples: settings.resamples,
      minCoverage: config.minCoverage,
    });
    return { items, rewords, suite, run, results };
  } finally {
    store.close();
  }
}

/**
 * `--dry-run`: calls, tokens and cost of the generator's rewordings (when some items need one),
 * then of the items suite. Stems the generator would reword are estimated from the original stem;
 * as an item whose rewording fails is dropped, the items' calls are then a bound. Writes nothing.
 */
export async function estimateParaphrase(
  config: WaverConfig,
  items: ParaphraseItems,
  opts: PooledOptions,
): Promise<ModelEstimate[]> {
  const settings = paraphraseSettings(config);
  const byItem = new Map(
    items.items.map((i) => [
      i.id,
      { text: i.alternates?.[0] ?? i.stem, source: { kind: 'alternate' as const } },
    ]),
  );
  const suite = paraphraseSuite(config, settings, items, { byItem, dropped: [] });
  const needing = items.phrasings.includes('reworded') ? itemsNeedingGenerator(items.items) : [];
  const rewords = [
    { temperature: REWORD_TEMPERATURE, maxTokens: REWORD_MAX_TOKENS, tests: needing.map(rewordTest) },
  ];
  const estimates =
    needing.length > 0 ? await estimateRole(config, 'generator', REWORD_SUITE, rewords, opts) : [];
  const sut = { role: 'model', stage: suite.name, bound: needing.length > 0 } as const;
  estimates.push(...(await estimateSuite(itemsConfig(config, settings), suite, opts, sut)));
  return estimates;
}
