import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../models/types.js';
import { cacheKey } from './cache-key.js';

const request: GenerateRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'What is 2 + 2?' },
  ],
  temperature: 0,
  maxTokens: 64,
};
const identity = 'openai:gpt-4o-mini@https://api.openai.com/v1';

describe('cacheKey', () => {
  it('is a stable sha256 hex for the same inputs', () => {
    const a = cacheKey(identity, request, 0);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKey(identity, structuredClone(request), 0)).toBe(a);
  });

  it('ignores key order and undefined members', () => {
    const reordered = {
      maxTokens: 64,
      temperature: 0,
      messages: request.messages,
      seed: undefined,
    } as GenerateRequest;
    expect(cacheKey(identity, reordered, 0)).toBe(cacheKey(identity, request, 0));
  });

  it('changes with the identity, any parameter, the prompt and the repeat index', () => {
    const base = cacheKey(identity, request, 0);
    const variants = [
      cacheKey('openai:gpt-4o-mini@http://127.0.0.1:8080/v1', request, 0),
      cacheKey(identity, { ...request, temperature: 0.7 }, 0),
      cacheKey(identity, { ...request, maxTokens: 65 }, 0),
      cacheKey(identity, { ...request, seed: 1 }, 0),
      cacheKey(identity, { ...request, logprobs: true }, 0),
      cacheKey(identity, { ...request, messages: [{ role: 'user', content: 'What is 2 + 3?' }] }, 0),
      cacheKey(identity, request, 1),
    ];
    for (const v of variants) expect(v).not.toBe(base);
    expect(new Set(variants).size).toBe(variants.length);
  });
});
