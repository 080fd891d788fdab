import type { GenerateRequest } from '../models/types.js';
import { canonicalJson, sha256 } from '../util/hash.js';

/**
 * The key a response is stored and found under: sha256 of the canonical JSON of
 * {identity, request, repeat}. `identity` is the provider's `identity` (provider, model, base URL,
 * chat template) and never holds an API key, so neither does the key.
 *
 * The repeat index is part of the key on purpose: repeats must be real repeated calls, not one
 * cached answer served N times, because the paraphrase protocol measures run-to-run instability
 * (a model that answers differently to the very same request). Without it every repeat would hit
 * the cache of repeat 0 and the instability would read as zero.
 */
export function cacheKey(identity: string, request: GenerateRequest, repeat: number): string {
  // The canonical JSON of {identity, repeat, request} (keys sorted), the request's written once per
  // request object: a plan shares one request among a test's models and repeats.
  return sha256(
    `{"identity":${JSON.stringify(identity)},"repeat":${JSON.stringify(repeat)},"request":${canonicalRequest(request)}}`,
  );
}

const canonical = new WeakMap<GenerateRequest, string>();

function canonicalRequest(request: GenerateRequest): string {
  let json = canonical.get(request);
  if (json === undefined) {
    json = canonicalJson(request);
    canonical.set(request, json);
  }
  return json;
}
