import { ProviderError } from '../../models/errors.js';
import { describeProvider } from '../../models/registry.js';
import type { EmbedRequest, EmbedResult, ModelProvider } from '../../models/types.js';
import { auxCall, auxGet } from '../../run/aux-cache.js';
import type { Store } from '../../store/store.js';
import { tokenEmbeddingsByPrefix } from '../../text-measures/bertscore.js';

/**
 * Embeddings SAGO asks for, always through the aux cache (so the report finds them in the store):
 * a pooled vector per text (activation, embedding cosine, the cosine meaning filter), every layer's
 * hidden state (activation over all layers; docs/sago.md#activation) and word-prefix vectors
 * (BERTScore's contextual token embeddings; docs/sago.md#bertscore).
 */

/** The aux request of a pooled embedding (the provider's own EmbedRequest). */
export function pooledRequest(text: string): { input: string[] } {
  return { input: [text] };
}

/** The aux request of a text's hidden states after every layer (the provider's own EmbedRequest). */
export function layerStatesRequest(text: string): { input: string[]; layers: 'all' } {
  return { input: [text], layers: 'all' };
}

/** The aux request of a text's word-prefix embeddings. */
export function wordPrefixRequest(text: string): { mode: 'word-prefix'; text: string } {
  return { mode: 'word-prefix', text };
}

/** End offsets of the whitespace-separated words of a text: the prefixes embedded for BERTScore. */
export function wordEnds(text: string): number[] {
  const ends: number[] = [];
  for (const m of text.matchAll(/\S+/g)) ends.push((m.index as number) + m[0].length);
  return ends;
}

/** A text's pooled embedding (stored, or asked and stored); undefined for empty text. */
export function pooledEmbedding(
  store: Store,
  provider: ModelProvider,
  text: string,
  signal?: AbortSignal,
): Promise<number[] | undefined> {
  return storedEmbedding(
    store,
    provider,
    text,
    pooledRequest(text),
    (r) => r.embeddings[0],
    'embedding',
    signal,
  );
}

/**
 * A text's last-token hidden state after every layer, embedding layer first (stored, or asked and
 * stored); undefined for empty text. Only a provider with `capabilities.hiddenLayers` gives them.
 */
export function layerStates(
  store: Store,
  provider: ModelProvider,
  text: string,
  signal?: AbortSignal,
): Promise<number[][] | undefined> {
  const request = layerStatesRequest(text);
  return storedEmbedding(store, provider, text, request, (r) => r.layerStates?.[0], 'layer states', signal);
}

/** What `take` reads of the provider's answer to `request`, through the aux cache; undefined for empty text. */
async function storedEmbedding<T>(
  store: Store,
  provider: ModelProvider,
  text: string,
  request: EmbedRequest,
  take: (result: EmbedResult) => T | undefined,
  what: string,
  signal?: AbortSignal,
): Promise<T | undefined> {
  if (text.trim() === '' || !provider.embed) return undefined;
  const embed = provider.embed.bind(provider);
  return auxCall(
    store,
    'embed',
    provider.identity,
    request,
    async () => {
      const value = take(await embed(request, { signal }));
      if (!value) throw new ProviderError('bad_response', `${provider.identity}: no ${what} returned`);
      return value;
    },
    { signal },
  );
}

/** What the activation axis reads of a text: its pooled final state, or every layer's (`activationLayers`). */
export function activationStates(
  store: Store,
  provider: ModelProvider,
  text: string,
  layers: 'final' | 'mean',
  signal?: AbortSignal,
): Promise<unknown> {
  return layers === 'mean'
    ? layerStates(store, provider, text, signal)
    : pooledEmbedding(store, provider, text, signal);
}

/**
 * The hidden state at the end of each word prefix of `text` (one embed call per word, stored as
 * one aux row). For a causal model whose embedding is its last token's final hidden state, the
 * state at a word's last token given the words before it is that token's contextual embedding.
 */
export async function wordPrefixEmbeddings(
  store: Store,
  provider: ModelProvider,
  text: string,
  signal?: AbortSignal,
): Promise<number[][] | undefined> {
  if (text.trim() === '' || !provider.embed) return undefined;
  const embed = provider.embed.bind(provider);
  return auxCall(
    store,
    'embed',
    provider.identity,
    wordPrefixRequest(text),
    async () => {
      const vectors = await tokenEmbeddingsByPrefix(wordEnds(text), async (prefix) => {
        const r = await embed({ input: [text.slice(0, prefix.at(-1) as number)] }, { signal });
        const v = r.embeddings[0];
        if (!v) throw new ProviderError('bad_response', `${provider.identity}: no embedding returned`);
        return v;
      });
      return vectors.map((v) => Array.from(v));
    },
    { signal },
  );
}

/** Stored pooled embedding (read-only). */
export function storedPooled(store: Store, identity: string, text: string): number[] | undefined {
  if (text.trim() === '') return undefined;
  return auxGet<number[]>(store, 'embed', identity, pooledRequest(text));
}

/** Stored every-layer hidden states (read-only). */
export function storedLayerStates(store: Store, identity: string, text: string): number[][] | undefined {
  if (text.trim() === '') return undefined;
  return auxGet<number[][]>(store, 'embed', identity, layerStatesRequest(text));
}

/** Stored word-prefix embeddings (read-only). */
export function storedWordPrefix(store: Store, identity: string, text: string): number[][] | undefined {
  if (text.trim() === '') return undefined;
  return auxGet<number[][]>(store, 'embed', identity, wordPrefixRequest(text));
}

/** Whether an embedder gives contextual token embeddings (word-prefix) under a `bertscore` setting. */
export function tokenLevelEmbedder(
  provider: Pick<ModelProvider, 'provider'>,
  mode: 'auto' | 'word-prefix' | 'off',
): boolean {
  if (mode === 'off') return false;
  if (mode === 'word-prefix') return true;
  // auto: one call per word is cheap in process, costly over an API.
  return describeProvider(provider.provider)?.inProcess === true;
}
