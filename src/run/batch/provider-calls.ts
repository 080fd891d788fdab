import { DEFAULT_RETRY_POLICY, retryDelayMs, type SleepFn } from '../call-path/retry.js';

type Call<T> = (signal: AbortSignal) => Promise<T>;

/** Provider calls with the run's timeout, retried after retryable errors with backoff. */
export interface ProviderCalls {
  /** A submission: not cut short by a stop, since the provider may accept it as the answer is lost. */
  submission<T>(fn: Call<T>): Promise<T>;
  /** A poll or a download: a stop aborts it. */
  query<T>(fn: Call<T>): Promise<T>;
}

export interface ProviderCallsOptions {
  maxRetries: number;
  /** Per try. */
  timeoutMs: number;
  signal: AbortSignal;
  sleep: SleepFn;
  random: () => number;
  onRetry: () => void;
}

export function providerCalls(opts: ProviderCallsOptions): ProviderCalls {
  const { signal } = opts;
  const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: opts.maxRetries };
  const withRetries = async <T>(fn: Call<T>, stoppable: boolean): Promise<T> => {
    for (let retry = 0; ; retry++) {
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      try {
        return await fn(stoppable ? AbortSignal.any([signal, timeout]) : timeout);
      } catch (error) {
        const delay = signal.aborted ? undefined : retryDelayMs(error, retry, policy, opts.random);
        if (delay === undefined) throw error;
        opts.onRetry();
        await opts.sleep(delay, signal);
      }
    }
  };
  return {
    submission: (fn) => withRetries(fn, false),
    query: (fn) => withRetries(fn, true),
  };
}
