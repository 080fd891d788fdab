import { ProviderError } from '../models/errors.js';
import type { CellError } from './types.js';

/** What a failed call is stored as. Anything that is not a ProviderError is a bug somewhere: 'internal'. */
export function toCellError(error: unknown): CellError {
  if (error instanceof ProviderError) {
    return {
      kind: error.kind,
      message: error.message,
      ...(error.status !== undefined ? { status: error.status } : {}),
    };
  }
  const message =
    error instanceof Error ? `${error.name}: ${error.message}` : `non-error thrown: ${String(error)}`;
  return { kind: 'internal', message };
}
