import type Database from 'better-sqlite3';

/**
 * A store's prepared statements by their SQL, each prepared on first use and kept for the store's
 * life: preparing costs more than a lookup, and preparing lazily lets a reader open a store whose
 * tables the writer has not made yet.
 */
export class Statements {
  private readonly cache = new Map<string, Database.Statement>();
  private readonly indexes = new Map<string, boolean>();

  constructor(readonly db: Database.Database) {}

  prepared(sql: string): Database.Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  /**
   * `INDEXED BY name` where the store has that index, else nothing: a store an older waver made,
   * opened read-only, is read without it (as it was then), not refused.
   */
  indexedBy(name: string): string {
    let has = this.indexes.get(name);
    if (has === undefined) {
      has =
        this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !==
        undefined;
      this.indexes.set(name, has);
    }
    return has ? `INDEXED BY ${name}` : '';
  }
}
