import type { AuxResultRow } from './records.js';
import { now } from './rows.js';
import type { Statements } from './statements.js';

/** aux_results: results of calls that are not chat generations, by key (see run/aux-cache.ts). */

export function auxResult(st: Statements, key: string): string | undefined {
  return st.prepared('SELECT result_json FROM aux_results WHERE key = ?').pluck().get(key) as
    | string
    | undefined;
}

export function insertAuxResult(st: Statements, row: AuxResultRow): void {
  st.prepared(
    `INSERT INTO aux_results (key, kind, identity, request_json, result_json, created_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
  ).run(row.key, row.kind, row.identity, row.requestJson, row.resultJson, now());
}

export function putAuxResult(st: Statements, row: AuxResultRow): void {
  st.prepared(
    `INSERT INTO aux_results (key, kind, identity, request_json, result_json, created_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET result_json = excluded.result_json, created_at = excluded.created_at`,
  ).run(row.key, row.kind, row.identity, row.requestJson, row.resultJson, now());
}

export function countAuxResults(st: Statements, filter: { kind?: string; identity?: string }): number {
  return st
    .prepared(
      'SELECT count(*) FROM aux_results WHERE (@kind IS NULL OR kind = @kind) AND (@identity IS NULL OR identity = @identity)',
    )
    .pluck()
    .get({ kind: filter.kind ?? null, identity: filter.identity ?? null }) as number;
}
