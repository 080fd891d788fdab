import * as crypto from 'node:crypto';

/**
 * JSON with object keys sorted and `undefined` members dropped, so equal values always hash
 * equally whatever order their keys were written in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * Node's one-shot `crypto.hash` (20.12 and later) spares a Hash object per digest, and a warm run
 * makes one digest per cell (its cache key); earlier Node 20 releases use the Hash object.
 */
const oneShot = (
  crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }
).hash;

export function sha256(text: string | Uint8Array): string {
  return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}

/** sha256 of the canonical JSON of a value. */
export function hashOf(value: unknown): string {
  return sha256(canonicalJson(value));
}
