import type { AuxResultRow } from './records.js';
import { now } from './rows.js';
import type { Statements } from './statements.js';

const INSERT = `INSERT INTO aux_results (key, kind, identity, request_json, result_json, created_at)
  VALUES (?, ?, ?, ?, ?, ?)`;

/** aux_results: results of calls that are not chat generations, by key (see run/aux-cache.ts). */
export class AuxResultQueries {
  constructor(private readonly st: Statements) {}

  /** The result JSON stored under an aux key, or undefined when none is. */
  get(key: string): string | undefined {
    return this.st.prepared('SELECT result_json FROM aux_results WHERE key = ?').pluck().get(key) as
      | string
      | undefined;
  }

  /** Stores an aux result unless one is stored under its key already (the first result is kept). */
  insert(row: AuxResultRow): void {
    this.st
      .prepared(`${INSERT} ON CONFLICT (key) DO NOTHING`)
      .run(row.key, row.kind, row.identity, row.requestJson, row.resultJson, now());
  }

  /** Stores an aux result, replacing the result stored under its key. */
  put(row: AuxResultRow): void {
    this.st
      .prepared(
        `${INSERT} ON CONFLICT (key) DO UPDATE SET result_json = excluded.result_json, created_at = excluded.created_at`,
      )
      .run(row.key, row.kind, row.identity, row.requestJson, row.resultJson, now());
  }

  /** How many aux results are stored (of a kind and identity when given). */
  count(filter: { kind?: string; identity?: string } = {}): number {
    return this.st
      .prepared(
        'SELECT count(*) FROM aux_results WHERE (@kind IS NULL OR kind = @kind) AND (@identity IS NULL OR identity = @identity)',
      )
      .pluck()
      .get({ kind: filter.kind ?? null, identity: filter.identity ?? null }) as number;
  }
}
