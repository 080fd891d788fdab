import { ProviderError } from '../../models/errors.js';
import type { ProviderMiddleware } from './middleware.js';

/** Thrown instead of a try once the model is stopped: this call was not made. */
export class ModelStopped extends ProviderError {
  constructor(
    /** The error that stopped the model. */
    readonly by: ProviderError,
  ) {
    super(
      by.kind,
      `not called: the model stopped at ${by.message}`,
      by.status === undefined ? {} : { status: by.status },
    );
  }
}

/**
 * Once a try fails with an error no later call can mend (a refused key, a spent quota:
 * `ProviderError.stopsModel`), no further try of this provider goes on the wire: each is refused
 * with `ModelStopped` before it starts, for every caller of the provider (cells, roles, scores),
 * until the command ends (docs/decisions.md#e35-a-refused-key-or-a-spent-quota-stops-the-model).
 * It sits inside the retry, concurrency and rate-limit waits, so a call that waited is refused too.
 */
export function modelStop(): ProviderMiddleware {
  let stoppedBy: ProviderError | undefined;
  return async (_call, options, next) => {
    if (stoppedBy) throw new ModelStopped(stoppedBy);
    try {
      return await next(options);
    } catch (error) {
      if (error instanceof ProviderError && error.stopsModel) stoppedBy ??= error;
      throw error;
    }
  };
}
