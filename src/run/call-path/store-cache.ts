import type { ModelProvider, ScoreResult } from '../../models/types.js';
import type { Store } from '../../store/store.js';
import { assertNoSecrets } from '../../util/secrets.js';
import { auxKey } from '../aux-cache.js';
import type { ProviderCall, ProviderMiddleware } from './middleware.js';
import { wrapProvider } from './wrap-provider.js';

/**
 * The answers a store holds for one model (its identity), as the "run" path's cache reads and
 * keeps them: a generation's response under its cache key (`cache-key.ts`, which holds its repeat),
 * a teacher-forced score under its aux key (`aux-cache.ts`).
 */
export class StoredAnswers {
  constructor(
    private readonly store: Store,
    readonly identity: string,
  ) {}

  /** The stored answer of `call` under `key`, or undefined. */
  get(call: ProviderCall, key: string): unknown {
    if (call.kind === 'generate') return this.store.responses.get(key);
    const json = this.store.aux.get(key);
    return json === undefined ? undefined : JSON.parse(json);
  }

  /** Keeps a score's answer; an answer stored first stays. */
  putScore(call: Extract<ProviderCall, { kind: 'score' }>, key: string, result: ScoreResult): void {
    assertNoSecrets(call.request, 'aux request');
    this.store.aux.insert({
      key,
      kind: 'score',
      identity: this.identity,
      requestJson: JSON.stringify(call.request),
      resultJson: JSON.stringify(result),
    });
  }
}

/**
 * The store as the outermost middleware of the "run" path (docs/decisions.md E45), like a caching
 * middleware of the Vercel AI SDK's `wrapLanguageModel`: a call whose answer the store holds is
 * answered from it, and takes no try, rate-limit token, slot or budget; the caller's observer is
 * told (`onStored`), so the engine links the cell to the stored answer instead of storing a new one.
 *
 * - A generation is looked up under the cache key its caller passes (`cacheKey`: the key holds the
 *   repeat, and repeats are separate calls, E1); one without a key is a sample nobody keeps, and
 *   goes through. Its new answer is kept by its caller, the engine's writer, with its cell and
 *   attempts in one commit (E17), not here.
 * - A score is a function of its request: looked up and kept under its aux key.
 * - An embedding goes through: what the store keeps of embeddings is the protocol's reading of one
 *   or more calls (a pooled vector, one row for a text's word prefixes), kept under the same keys
 *   by `auxCall`, not a call's answer.
 */
export function storeCache(answers: StoredAnswers): ProviderMiddleware {
  return async <T>(
    call: ProviderCall,
    options: Parameters<ProviderMiddleware>[1],
    next: (o: typeof options) => Promise<T>,
  ) => {
    if (call.kind === 'embed') return next(options);
    const key = call.kind === 'generate' ? options.cacheKey : auxKey('score', answers.identity, call.request);
    if (key === undefined) return next(options);
    const stored = answers.get(call, key);
    if (stored !== undefined) {
      options.observer?.onStored?.();
      return stored as T;
    }
    const result = await next(options);
    if (call.kind === 'score') answers.putScore(call, key, result as ScoreResult);
    return result;
  };
}

/**
 * A provider that has its path already (a pool's) with the store's cache around it, outermost as
 * in the "run" path: its calls the store answers make no try, and its new scores are kept.
 */
export function storeCached(store: Store, provider: ModelProvider): ModelProvider {
  return wrapProvider(provider, [storeCache(new StoredAnswers(store, provider.identity))], {
    keepOpen: true,
  });
}
