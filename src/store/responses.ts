import type { StoredResponse } from './records.js';
import { type ResponseRow, toResponse } from './rows.js';
import type { Statements } from './statements.js';

/** Stored responses (the cache), by the cache key of their request. */
export class ResponseQueries {
  constructor(private readonly st: Statements) {}

  get(key: string): StoredResponse | undefined {
    const row = this.st.prepared('SELECT * FROM responses WHERE key = ?').get(key) as ResponseRow | undefined;
    return row && toResponse(row);
  }

  /** The text of the response stored under `key`. */
  text(key: string): string | undefined {
    return this.st.prepared('SELECT text FROM responses WHERE key = ?').pluck().get(key) as
      | string
      | undefined;
  }

  /** Whether a response is stored under `key`. */
  has(key: string): boolean {
    return this.st.prepared('SELECT 1 FROM responses WHERE key = ?').get(key) !== undefined;
  }
}
