import type { CellStatus, Coverage } from '../run/types.js';
import type { CoverageModel, FailedKind, ModelStatusCount, SuiteModelCoverage } from './records.js';
import type { Statements } from './statements.js';

/**
 * Counting cells against what a suite expects: a test's own `repeats`, else the run's, per model;
 * cells beyond them are not counted.
 */

const EXPECTED_CELLS = `
  SELECT coalesce(sum(coalesce(json_extract(json, '$.repeats'), @repeats)), 0)
  FROM tests WHERE suite_hash = @suite_hash`;

export function expectedCells(st: Statements, suiteHash: string, repeats: number): number {
  return st.prepared(EXPECTED_CELLS).pluck().get({ suite_hash: suiteHash, repeats }) as number;
}

export function coverage(
  st: Statements,
  suiteHash: string,
  models: CoverageModel[],
  opts: { runId?: string },
): Coverage {
  const cov: Coverage = { total: 0, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} };
  const counts = st.prepared(`
    SELECT status, error_kind, count(*) AS n,
           sum(CASE WHEN status = 'done' AND (attempts = 0 OR (@run_id IS NOT NULL AND run_id != @run_id))
                    THEN 1 ELSE 0 END) AS cached
    FROM cells c JOIN tests t ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
    WHERE c.suite_hash = @suite_hash AND c.model_identity = @identity
      AND c.repeat < coalesce(json_extract(t.json, '$.repeats'), @repeats)
    GROUP BY status, error_kind`);
  for (const m of models) {
    cov.total += expectedCells(st, suiteHash, m.repeats);
    const rows = counts.all({
      suite_hash: suiteHash,
      identity: m.identity,
      repeats: m.repeats,
      run_id: opts.runId ?? null,
    }) as { status: CellStatus; error_kind: string | null; n: number; cached: number }[];
    for (const r of rows) {
      if (r.status === 'done') {
        cov.done += r.n;
        cov.cached += r.cached;
      } else {
        cov.failed += r.n;
        const kind = r.error_kind ?? 'unknown';
        cov.errorsByKind[kind] = (cov.errorsByKind[kind] ?? 0) + r.n;
      }
    }
  }
  cov.pending = cov.total - cov.done - cov.failed;
  return cov;
}

/**
 * A suite and model identity's failed cells (those coverage() counts) by kind, most frequent first,
 * each with the message of its first cell: SQLite takes a bare column from the row min() picks.
 */
export function failedKinds(
  st: Statements,
  suiteHash: string,
  identity: string,
  repeats: number,
): FailedKind[] {
  const rows = st
    .prepared(
      `SELECT coalesce(c.error_kind, 'unknown') AS kind, count(*) AS n, min(c.id) AS first, c.error_message AS message
       FROM cells c JOIN tests t ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
       WHERE c.suite_hash = @suite_hash AND c.model_identity = @identity AND c.status = 'failed'
         AND c.repeat < coalesce(json_extract(t.json, '$.repeats'), @repeats)
       GROUP BY coalesce(c.error_kind, 'unknown') ORDER BY n DESC, first`,
    )
    .all({ suite_hash: suiteHash, identity, repeats }) as {
    kind: string;
    n: number;
    message: string | null;
  }[];
  return rows.map((r) => ({ kind: r.kind, count: r.n, ...(r.message !== null && { message: r.message }) }));
}

/** Each test's repeats: its own, else its suite's in @fallback ({hash: repeats} as JSON), else 1. */
const TEST_REPEATS = `coalesce(json_extract(json, '$.repeats'), json_extract(@fallback, '$."' || suite_hash || '"'), 1)`;

const EXPECTED_BY_SUITE = `SELECT suite_hash, sum(${TEST_REPEATS}) FROM tests GROUP BY suite_hash`;

const COUNTS_BY_PAIR = `
  WITH tr AS MATERIALIZED (SELECT suite_hash, test_id, ${TEST_REPEATS} AS repeats FROM tests)
  SELECT c.suite_hash, c.model_identity, max(c.model), min(c.id) AS first,
         sum(c.status = 'done' AND c.repeat < coalesce(tr.repeats, -1)),
         sum(c.status = 'done' AND c.attempts = 0 AND c.repeat < coalesce(tr.repeats, -1)),
         sum(c.status = 'failed' AND c.repeat < coalesce(tr.repeats, -1))
  FROM cells c LEFT JOIN tr ON tr.suite_hash = c.suite_hash AND tr.test_id = c.test_id
  GROUP BY c.suite_hash, c.model_identity ORDER BY first`;

// Failed cells by kind: only pairs with failures, counted in a second small query.
const FAILED_KINDS_BY_PAIR = `
  WITH tr AS MATERIALIZED (SELECT suite_hash, test_id, ${TEST_REPEATS} AS repeats FROM tests)
  SELECT c.suite_hash, c.model_identity, coalesce(c.error_kind, 'unknown'), count(*)
  FROM cells c JOIN tr ON tr.suite_hash = c.suite_hash AND tr.test_id = c.test_id
  WHERE c.status = 'failed' AND c.repeat < tr.repeats
  GROUP BY c.suite_hash, c.model_identity, c.error_kind`;

type PairCounts = [
  suiteHash: string,
  modelIdentity: string,
  model: string,
  firstCell: number,
  done: number,
  cached: number,
  failed: number,
];
type PairKindCount = [suiteHash: string, modelIdentity: string, kind: string, count: number];

/**
 * In three grouped queries for the whole store: coverage() per pair re-reads every test's JSON for
 * every cell, which a large store feels.
 */
export function coverageOfEverySuite(
  st: Statements,
  repeatsBySuite: Record<string, number>,
): SuiteModelCoverage[] {
  const fallback = JSON.stringify(repeatsBySuite);
  const expected = new Map(st.prepared(EXPECTED_BY_SUITE).raw().all({ fallback }) as [string, number][]);
  const rows = st.prepared(COUNTS_BY_PAIR).raw().all({ fallback }) as PairCounts[];
  const kinds = st.prepared(FAILED_KINDS_BY_PAIR).raw().all({ fallback }) as PairKindCount[];
  const errorsOf = new Map<string, Record<string, number>>();
  for (const [hash, identity, kind, n] of kinds) {
    const key = `${hash}\u0000${identity}`;
    const e = errorsOf.get(key) ?? {};
    e[kind] = (e[kind] ?? 0) + n;
    errorsOf.set(key, e);
  }
  return rows.map(([suiteHash, modelIdentity, model, , done, cached, failed]) => {
    const total = expected.get(suiteHash) ?? 0;
    return {
      suiteHash,
      modelIdentity,
      model,
      coverage: {
        total,
        done,
        failed,
        pending: total - done - failed,
        cached,
        errorsByKind: errorsOf.get(`${suiteHash}\u0000${modelIdentity}`) ?? {},
      },
    };
  });
}

export function modelStatusCounts(
  st: Statements,
  suiteHash: string,
  runId: string,
  repeats: number,
): ModelStatusCount[] {
  return (
    st
      .prepared(
        `SELECT c.model, c.status, count(*) AS n, sum(c.run_id = @run) AS mine
         FROM cells c JOIN tests t ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
         WHERE c.suite_hash = @suite AND c.repeat < coalesce(json_extract(t.json, '$.repeats'), @repeats)
         GROUP BY c.model, c.status`,
      )
      .all({ suite: suiteHash, run: runId, repeats }) as {
      model: string;
      status: CellStatus;
      n: number;
      mine: number;
    }[]
  ).map((r) => ({ model: r.model, status: r.status, count: r.n, byRun: r.mine }));
}
