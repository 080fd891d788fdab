import { tInterval } from '../../../stats/student-t.js';

/**
 * POSIX (Chatterjee et al. 2024, "POSIX: A Prompt Sensitivity Index For Large Language Models",
 * arXiv 2410.02185, Definition 3): for one item's N intent-aligned prompts x_j and the response y_k
 * the model gave to each,
 *   psi = 1 / (N (N - 1)) * sum_j sum_k | log P(y_k | x_j) - log P(y_k | x_k) | / L_{y_k},
 * the mean over ordered prompt pairs of how much a response's length-normalised log-likelihood
 * moves when its prompt is swapped for another (the j = k terms are 0). `logprob[j][k]` is
 * log P(response k | prompt j), summed over the response's tokens; `responseTokens[k]` its length.
 *
 * The authors' code (kowndinya-renduchintala/POSIX @ 8e73401, src/prompt_sensitivity_index/posix.py:78-83)
 * differs in two ways, kept as `variant: 'reference'` (docs/fidelity.md#spread): it divides by
 * `max_new_tokens` instead of each response's length, and sums |logprob[j][k] - logprob[j][j]| (two
 * responses under one prompt) instead of the paper's |logprob[j][k] - logprob[k][k]|.
 */
export interface PosixInput {
  logprob: number[][];
  responseTokens: number[];
}

export interface PosixOptions {
  /** 'paper' (default): Definition 3; 'reference': the authors' code, with `maxNewTokens`. */
  variant?: 'paper' | 'reference';
  /** The code's divisor (`PosixConfig.max_new_tokens`, 5 by default there); only for 'reference'. */
  maxNewTokens?: number;
}

export function posixIndex(input: PosixInput, options: PosixOptions = {}): number {
  const { logprob, responseTokens } = input;
  const n = logprob.length;
  if (n < 2) throw new RangeError(`posixIndex: needs at least 2 prompts, got ${n}`);
  if (responseTokens.length !== n || logprob.some((row) => row.length !== n)) {
    throw new RangeError(`posixIndex: logprob must be ${n} x ${n} and responseTokens ${n} long`);
  }
  if (responseTokens.some((l) => !(Number.isInteger(l) && l > 0))) {
    throw new RangeError('posixIndex: every responseTokens entry must be a whole number > 0');
  }
  if (logprob.some((row) => row.some((v) => !Number.isFinite(v)))) {
    throw new RangeError('posixIndex: every log-probability must be finite');
  }
  const reference = options.variant === 'reference';
  const maxNewTokens = options.maxNewTokens ?? 5;
  let psi = 0;
  for (let j = 0; j < n; j++) {
    const row = logprob[j] as number[];
    for (let k = 0; k < n; k++) {
      psi += reference
        ? Math.abs((row[k] as number) - (row[j] as number)) / maxNewTokens
        : Math.abs((row[k] as number) - ((logprob[k] as number[])[k] as number)) /
          (responseTokens[k] as number);
    }
  }
  return psi / (n * (n - 1));
}

/**
 * POSIX over a dataset (Definition 4: the mean of the items' indices), with a t interval over
 * items (the paper reports the mean only). Undefined bounds with fewer than 2 items.
 */
export function posixSummary(
  perItem: number[],
  level = 0.95,
): { value: number; lo: number | undefined; hi: number | undefined; n: number } {
  if (perItem.length === 0) throw new RangeError('posixSummary: no items');
  const value = perItem.reduce((a, b) => a + b, 0) / perItem.length;
  const n = perItem.length;
  const sd = n < 2 ? undefined : Math.sqrt(perItem.reduce((a, v) => a + (v - value) ** 2, 0) / (n - 1));
  const ci = tInterval(value, sd, n, level);
  return { value, lo: ci?.low, hi: ci?.high, n };
}
