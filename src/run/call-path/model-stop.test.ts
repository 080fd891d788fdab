import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../models/errors.js';
import { ScriptedProvider } from '../../test-support/scripted-provider.js';
import { callPath } from './call-path.js';
import { ModelStopped } from './model-stop.js';
import { wrapProvider } from './wrap-provider.js';

const ask = (prompt: string) => ({ messages: [{ role: 'user' as const, content: prompt }] });
const limits = { timeoutMs: 5_000, maxRetries: 3, backoff: { baseMs: 1, capMs: 2 } };

describe('modelStop middleware', () => {
  it('after a refused key no further try goes on the wire, for any caller; the refusal itself is not retried', async () => {
    const refused = new ProviderError('auth', 'm: HTTP 401 bad key', { status: 401 });
    const bare = new ScriptedProvider((prompt) => (prompt === 'first' ? { fail: refused } : { ok: 'fine' }));
    const provider = wrapProvider(bare, callPath(limits));
    await expect(provider.generate(ask('first'))).rejects.toBe(refused);
    const later = await provider.generate(ask('second')).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(ModelStopped);
    expect(later).toMatchObject({ kind: 'auth', status: 401, by: refused, retryable: false });
    expect((later as Error).message).toBe('not called: the model stopped at m: HTTP 401 bad key');
    expect(bare.calls).toBe(1);
  });

  it('a spent quota stops it too; a rate limit or a client error does not', async () => {
    const errors: Record<string, ProviderError> = {
      quota: new ProviderError('quota', 'quota spent', { status: 429 }),
      limited: new ProviderError('rate_limit', 'slow down', { status: 429 }),
      client: new ProviderError('client', 'bad request', { status: 400 }),
    };
    for (const [name, error] of Object.entries(errors)) {
      const bare = new ScriptedProvider((prompt, nth) =>
        prompt === 'first' && nth === 0 ? { fail: error } : { ok: 'fine' },
      );
      const provider = wrapProvider(bare, callPath({ ...limits, maxRetries: 0 }));
      await expect(provider.generate(ask('first'))).rejects.toBe(error);
      const next = provider.generate(ask('second'));
      if (error.stopsModel) await expect(next, name).rejects.toBeInstanceOf(ModelStopped);
      else await expect(next, name).resolves.toMatchObject({ text: 'fine' });
    }
  });

  it('a call waiting for a retry when another call is refused its key is not tried again', async () => {
    const refused = new ProviderError('auth', 'bad key', { status: 401 });
    let releaseRetry: () => void = () => {};
    const retryDue = new Promise<void>((resolve) => {
      releaseRetry = resolve;
    });
    const bare = new ScriptedProvider((prompt) =>
      prompt === 'flaky' ? { fail: new ProviderError('server', 'boom', { status: 500 }) } : { fail: refused },
    );
    const provider = wrapProvider(bare, callPath(limits, { sleep: () => retryDue, random: () => 0 }));
    const flaky = provider.generate(ask('flaky')).catch((e: unknown) => e);
    await expect(provider.generate(ask('key'))).rejects.toBe(refused);
    releaseRetry();
    expect(await flaky).toBeInstanceOf(ModelStopped);
    expect(bare.callsByPrompt.get('flaky')).toBe(1);
  });
});
