import { InputError } from '../errors.js';
import { ProviderError } from '../models/errors.js';
import { boundedFetch } from '../models/lean-fetch.js';
import { describeProvider } from '../models/registry.js';
import type { ModelSpec } from '../models/spec.js';
import type { FetchFn } from '../models/types.js';

/** Only whether the server answers matters: a longer body is not read. */
const REACH_BODY_BYTES = 64 * 1024;

/**
 * Before a run writes anything, makes sure an HTTP model's endpoint answers at all. Any HTTP
 * status counts as reachable (auth and model errors surface per cell, with their reason); only a
 * network failure — refused, unknown host, no route, timeout — stops the run here with one clear line.
 */
export async function checkReachable(
  spec: ModelSpec,
  opts: { env?: NodeJS.ProcessEnv; fetch?: FetchFn; timeoutMs?: number } = {},
): Promise<void> {
  const env = opts.env ?? process.env;
  const endpoint = describeProvider(spec.provider)?.endpoint;
  const base = spec.baseURL ?? (endpoint && (env[endpoint.baseURLEnv] ?? endpoint.defaultBaseURL));
  if (!base) return; // in-process or recorded models: nothing to reach
  // The SDKs' own fetch (lean-fetch.ts): the global fetch would load and start a second HTTP
  // client for this one request, a good part of a small run's start-up.
  const doFetch = opts.fetch ?? boundedFetch(REACH_BODY_BYTES);
  try {
    const res = await doFetch(base, { method: 'GET', signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) });
    await res.arrayBuffer();
  } catch (e) {
    if (e instanceof ProviderError) return; // it answered, with a body past the cap
    // Node's socket errors carry the code; fetch's wrap it as their cause.
    const err = e as { code?: string; name?: string; cause?: { code?: string; message?: string } };
    const reason = err.cause?.code ?? err.code ?? err.cause?.message ?? err.name ?? String(e);
    throw new InputError(
      `cannot reach ${base} for model '${spec.label ?? spec.model}' (${reason}); is the server running and the URL right?`,
      {
        field: 'models',
      },
    );
  }
}
