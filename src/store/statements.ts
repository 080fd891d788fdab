import type Database from 'better-sqlite3';

/**
 * A store's prepared statements by their SQL, each prepared on first use and kept for the store's
 * life: preparing costs more than a lookup, and preparing lazily lets a reader open a store whose
 * tables the writer has not made yet.
 */
export class Statements {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  prepared(sql: string): Database.Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }
}
