import type { WaverConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import type { ModelProvider, ScoreRequest, ScoreResult } from '../../models/types.js';
import { auxGet } from '../../run/aux-cache.js';
import { storeCached } from '../../run/call-path/store-cache.js';
import { plannedModels } from '../../run/plan.js';
import type { RunResult } from '../../run/run-suite.js';
import { openStore, type Store } from '../../store/store.js';
import type { PooledOptions } from '../types.js';
import type { SpreadSettings } from './config.js';
import type { SpreadTest } from './suite.js';

/**
 * Choices by log-likelihood (docs/spread.md#scoring), as FormatSpread ranks its output classes:
 * for a model that scores text (gguf, `waver serve`, a server with echo log-probs), each option's
 * label, bare as the answer field would hold it, is scored teacher-forced after the cell's prompt;
 * the most likely label is the model's choice. The scores go through the model's one call path
 * and the store's cache (a stored score makes no call; a rerun resumes). A chat-only model's cells
 * are read from its reply, and the results say which way each model was scored.
 */

export function optionScoreRequest(test: SpreadTest, k: number): ScoreRequest {
  return { messages: [{ role: 'user', content: test.prompt }], continuation: test.meta.bare[k] ?? '' };
}

/** The options' stored log-likelihoods of a cell, or undefined unless every option has one. */
export function storedOptionScores(store: Store, identity: string, test: SpreadTest): number[] | undefined {
  const out: number[] = [];
  for (let k = 0; k < test.meta.options.length; k++) {
    const s = auxGet<ScoreResult>(store, 'score', identity, optionScoreRequest(test, k));
    if (s === undefined) return undefined;
    out.push(s.logprob);
  }
  return out;
}

/** A run's model with its one call path's `score`, or the reason it cannot score text. */
export type ScoringModel = { label: string; identity: string } & (
  | { score: NonNullable<ModelProvider['score']>; reason?: undefined }
  | { score?: undefined; reason: string }
);

/**
 * The run's models as scorers, each through the store's cache (a stored score makes no call):
 * the one place that says whether a model scores text, for the options and for POSIX alike.
 */
export async function scoringModels(
  store: Store,
  config: WaverConfig,
  run: RunResult,
  opts: PooledOptions,
): Promise<ScoringModel[]> {
  const out: ScoringModel[] = [];
  for (const planned of plannedModels(config)) {
    const outcome = run.models.find((m) => m.label === planned.label);
    if (!outcome) continue;
    const provider = storeCached(store, await opts.pool.get(planned.spec));
    const at = { label: planned.label, identity: outcome.identity };
    out.push(
      provider.score && provider.capabilities.scoreContinuation
        ? { ...at, score: provider.score.bind(provider) }
        : { ...at, reason: `${planned.label} cannot score text (a chat-only API)` },
    );
  }
  return out;
}

/** Why a model's choices are read from its replies, or undefined when they are scored. */
export type ScoringNote = { model: string; reason: string };

/** Scores the options of every answered cell of the run's models that can score; notes the others. */
export async function scoreOptions(
  store: Store,
  config: WaverConfig,
  settings: SpreadSettings,
  run: RunResult,
  tests: readonly SpreadTest[],
  opts: PooledOptions,
): Promise<ScoringNote[]> {
  const notes: ScoringNote[] = [];
  if (settings.scoring === 'reply') return notes;
  const byId = new Map(tests.map((t) => [t.id, t]));
  for (const model of await scoringModels(store, config, run, opts)) {
    const { score } = model;
    if (!score) {
      const reason = `${model.reason}: its choices are read from its replies`;
      if (settings.scoring === 'loglik') throw new InputError(reason, { field: 'spread.scoring' });
      notes.push({ model: model.label, reason });
      continue;
    }
    for (const cell of store.cells.all({
      suiteHash: run.suite.hash,
      modelIdentity: model.identity,
      status: 'done',
    })) {
      opts.signal?.throwIfAborted();
      const test = byId.get(cell.testId);
      if (!test) continue;
      // A label the model cannot take leaves the cell read from its reply, counted by the results.
      await Promise.all(
        test.meta.options.map((_, k) =>
          score(optionScoreRequest(test, k), { signal: opts.signal }).catch(() => undefined),
        ),
      );
    }
  }
  return notes;
}

/** `f` with the run's store open, closed after. */
export async function withStore<T>(run: RunResult, f: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(run.store);
  try {
    return await f(store);
  } finally {
    store.close();
  }
}
