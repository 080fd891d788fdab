import { InputError } from '../errors.js';

/**
 * A store that is not there, with what makes one: every command that reads a store says it the
 * same way, naming the flag the path came from where there is one. Its own module, light: a
 * command checks the path before it loads SQLite.
 */
export function storeNotFound(path: string, field?: string): InputError {
  return new InputError(
    `store not found: a run writes one (waver run, ladder, sago or paraphrase)${field ? `; ${field} names another` : ''}`,
    { file: path, ...(field && { field }) },
  );
}
