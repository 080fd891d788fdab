import { describe, expect, it } from 'vitest';
import { withoutSecrets } from './secrets.js';

describe('withoutSecrets', () => {
  it('drops secret-named members at any depth and keeps the rest', () => {
    expect(
      withoutSecrets({
        apiKey: 'a',
        api_key: 'b',
        nested: [{ Authorization: 'c', maxTokens: 5, apiKeyEnv: 'OPENAI_API_KEY' }],
        password: 'd',
      }),
    ).toEqual({ nested: [{ maxTokens: 5, apiKeyEnv: 'OPENAI_API_KEY' }] });
  });
});
