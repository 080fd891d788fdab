import type Database from 'better-sqlite3';
import type { Store } from '../../store/store.js';

/**
 * A store's own connection, for tests that rewrite rows no store method writes (ids and clocks
 * made deterministic), break the schema on purpose or read a connection's settings. Code asks the
 * store's query objects instead.
 */
export function connectionOf(store: Store): Database.Database {
  return (store as unknown as { db: Database.Database }).db;
}
