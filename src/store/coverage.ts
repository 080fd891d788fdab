import type { CellStatus, Coverage } from '../domain/cells.js';
import type { Shard } from '../domain/suites.js';
import type {
  CellTotal,
  CoverageModel,
  FailedKind,
  ModelStatusCount,
  SuiteModelCoverage,
} from './records.js';
import { cellCountsSource } from './schema.js';
import type { Statements } from './statements.js';

/**
 * Counting cells against what a suite expects: a test's own `repeats`, else the run's, per model;
 * cells beyond them are not counted. The counts come from cell_counts (schema.ts), a few rows per
 * suite and model whatever the number of cells.
 */

const EXPECTED_CELLS = `
  SELECT coalesce(sum(coalesce(json_extract(json, '$.repeats'), @repeats)), 0)
  FROM tests WHERE suite_hash = @suite_hash`;

export function expectedCells(st: Statements, suiteHash: string, repeats: number, shard?: Shard): number {
  if (shard)
    return st
      .prepared(SHARD_EXPECTED_CELLS)
      .pluck()
      .get(shardParams(suiteHash, repeats, shard)) as number;
  return st.prepared(EXPECTED_CELLS).pluck().get({ suite_hash: suiteHash, repeats }) as number;
}

/**
 * A shard's tests (docs/decisions.md#e19-shards-deal-tests-round-robin): dealt round-robin by
 * position, so the shard's cells are found along the tests' and the cells' indexes; cell_counts
 * does not know tests, so a shard's coverage counts its cells.
 */
const IN_SHARD = `position % @shard_count = @shard_index - 1`;

const SHARD_EXPECTED_CELLS = `${EXPECTED_CELLS} AND ${IN_SHARD}`;

const SHARD_COUNTS = `
  SELECT c.status, coalesce(c.error_kind, '') AS error_kind, count(*) AS n,
         sum(CASE WHEN c.status = 'done' AND (c.attempts = 0 OR (@run_id IS NOT NULL AND c.run_id != @run_id))
                  THEN 1 ELSE 0 END) AS cached
  FROM tests t JOIN cells c
    ON c.suite_hash = t.suite_hash AND c.model_identity = @identity AND c.test_id = t.test_id
  WHERE t.suite_hash = @suite_hash AND ${IN_SHARD}
    AND c.repeat < coalesce(json_extract(t.json, '$.repeats'), @repeats)
  GROUP BY 1, 2`;

function shardParams(suiteHash: string, repeats: number, shard: Shard) {
  return { suite_hash: suiteHash, repeats, shard_index: shard.index, shard_count: shard.count };
}

/** The cells of a count row that count: those below their test's own repeats, else the run's (`repeats`). */
const COUNTED = (repeats: string) =>
  `repeat < CASE test_repeats WHEN 0 THEN ${repeats} ELSE test_repeats END`;

export function coverage(
  st: Statements,
  suiteHash: string,
  models: CoverageModel[],
  opts: { runId?: string; shard?: Shard },
): Coverage {
  const cov: Coverage = { total: 0, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} };
  const { shard } = opts;
  const counts = shard
    ? st.prepared(SHARD_COUNTS)
    : st.prepared(`
    SELECT status, error_kind, sum(n) AS n,
           sum(CASE WHEN status = 'done' AND (stored OR (@run_id IS NOT NULL AND run_id != @run_id))
                    THEN n ELSE 0 END) AS cached
    FROM ${cellCountsSource(st)}
    WHERE suite_hash = @suite_hash AND model_identity = @identity AND ${COUNTED('@repeats')}
    GROUP BY status, error_kind`);
  const expected = new Map<number, number>(); // by repeats: reading every test once per model is slow
  for (const m of models) {
    let total = expected.get(m.repeats);
    if (total === undefined) {
      total = expectedCells(st, suiteHash, m.repeats, shard);
      expected.set(m.repeats, total);
    }
    cov.total += total;
    const rows = counts.all({
      suite_hash: suiteHash,
      identity: m.identity,
      repeats: m.repeats,
      run_id: opts.runId ?? null,
      ...(shard && { shard_index: shard.index, shard_count: shard.count }),
    }) as { status: CellStatus; error_kind: string; n: number; cached: number }[];
    for (const r of rows) {
      if (r.status === 'done') {
        cov.done += r.n;
        cov.cached += r.cached;
      } else {
        cov.failed += r.n;
        const kind = r.error_kind || 'unknown';
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
  shard?: Shard,
): FailedKind[] {
  const rows = st
    .prepared(
      `SELECT coalesce(c.error_kind, 'unknown') AS kind, count(*) AS n, min(c.id) AS first, c.error_message AS message
       FROM cells c JOIN tests t ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
       WHERE c.suite_hash = @suite_hash AND c.model_identity = @identity AND c.status = 'failed'
         AND c.repeat < coalesce(json_extract(t.json, '$.repeats'), @repeats)
         AND (@shard_count IS NULL OR t.position % @shard_count = @shard_index - 1)
       GROUP BY coalesce(c.error_kind, 'unknown') ORDER BY n DESC, first`,
    )
    .all({
      suite_hash: suiteHash,
      identity,
      repeats,
      shard_index: shard?.index ?? null,
      shard_count: shard?.count ?? null,
    }) as {
    kind: string;
    n: number;
    message: string | null;
  }[];
  return rows.map((r) => ({ kind: r.kind, count: r.n, ...(r.message !== null && { message: r.message }) }));
}

/** Coverage of a suite for each model identity with cells (by identity), the tests read once. */
export function coverageByModel(st: Statements, suiteHash: string, repeats: number): SuiteModelCoverage[] {
  const total = expectedCells(st, suiteHash, repeats);
  const rows = st
    .prepared(
      `SELECT model_identity, max(model), status, error_kind,
              sum(CASE WHEN ${COUNTED('@repeats')} THEN n ELSE 0 END),
              sum(CASE WHEN stored AND ${COUNTED('@repeats')} THEN n ELSE 0 END)
       FROM ${cellCountsSource(st)} WHERE suite_hash = @suite AND n > 0
       GROUP BY model_identity, status, error_kind ORDER BY model_identity`,
    )
    .raw()
    .all({ suite: suiteHash, repeats }) as [string, string, CellStatus, string, number, number][];
  const out = new Map<string, SuiteModelCoverage>();
  for (const [modelIdentity, model, status, kind, counted, stored] of rows) {
    let m = out.get(modelIdentity);
    if (!m) {
      m = {
        suiteHash,
        modelIdentity,
        model,
        coverage: { total, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} },
      };
      out.set(modelIdentity, m);
    }
    if (model > m.model) m.model = model;
    if (status === 'done') {
      m.coverage.done += counted;
      m.coverage.cached += stored;
    } else if (counted > 0) {
      m.coverage.failed += counted;
      const k = kind || 'unknown';
      m.coverage.errorsByKind[k] = (m.coverage.errorsByKind[k] ?? 0) + counted;
    }
  }
  return [...out.values()].map((m) => {
    m.coverage.pending = total - m.coverage.done - m.coverage.failed;
    return m;
  });
}

/** Each test's repeats: its own, else its suite's in @fallback ({hash: repeats} as JSON), else 1. */
const TEST_REPEATS = `coalesce(json_extract(json, '$.repeats'), json_extract(@fallback, '$."' || suite_hash || '"'), 1)`;

const EXPECTED_BY_SUITE = `SELECT suite_hash, sum(${TEST_REPEATS}) FROM tests GROUP BY suite_hash`;

const RUN_REPEATS = `coalesce(json_extract(@fallback, '$."' || suite_hash || '"'), 1)`;

type PairCounts = [
  suiteHash: string,
  modelIdentity: string,
  model: string,
  firstCell: number,
  status: CellStatus,
  kind: string,
  counted: number,
  stored: number,
];

/** Every (suite, model identity) with cells, from the counts and one pass over the tests. */
export function coverageOfEverySuite(
  st: Statements,
  repeatsBySuite: Record<string, number>,
): SuiteModelCoverage[] {
  const fallback = JSON.stringify(repeatsBySuite);
  const expected = new Map(st.prepared(EXPECTED_BY_SUITE).raw().all({ fallback }) as [string, number][]);
  const rows = st
    .prepared(
      `SELECT suite_hash, model_identity, max(model), min(first_id), status, error_kind,
              sum(CASE WHEN ${COUNTED(RUN_REPEATS)} THEN n ELSE 0 END),
              sum(CASE WHEN stored AND ${COUNTED(RUN_REPEATS)} THEN n ELSE 0 END)
       FROM ${cellCountsSource(st)} WHERE n > 0
       GROUP BY suite_hash, model_identity, status, error_kind`,
    )
    .raw()
    .all({ fallback }) as PairCounts[];
  const pairs = new Map<string, SuiteModelCoverage & { first: number }>();
  for (const [suiteHash, modelIdentity, model, first, status, kind, counted, stored] of rows) {
    const key = `${suiteHash}\u0000${modelIdentity}`;
    let p = pairs.get(key);
    if (!p) {
      const total = expected.get(suiteHash) ?? 0;
      p = {
        suiteHash,
        modelIdentity,
        model,
        first,
        coverage: { total, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} },
      };
      pairs.set(key, p);
    }
    if (model > p.model) p.model = model;
    p.first = Math.min(p.first, first);
    if (status === 'done') {
      p.coverage.done += counted;
      p.coverage.cached += stored;
    } else if (counted > 0) {
      p.coverage.failed += counted;
      const k = kind || 'unknown';
      p.coverage.errorsByKind[k] = (p.coverage.errorsByKind[k] ?? 0) + counted;
    }
  }
  return [...pairs.values()]
    .sort((a, b) => a.first - b.first)
    .map(({ first: _, ...p }) => {
      p.coverage.pending = p.coverage.total - p.coverage.done - p.coverage.failed;
      return p;
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
        `SELECT model, status, sum(n) AS n, sum(CASE WHEN run_id = @run THEN n ELSE 0 END) AS mine
         FROM ${cellCountsSource(st)}
         WHERE suite_hash = @suite AND ${COUNTED('@repeats')}
         GROUP BY model, status HAVING sum(n) > 0`,
      )
      .all({ suite: suiteHash, run: runId, repeats }) as {
      model: string;
      status: CellStatus;
      n: number;
      mine: number;
    }[]
  ).map((r) => ({ model: r.model, status: r.status, count: r.n, byRun: r.mine }));
}

/** Done cells of a suite and model identity, whatever their repeat (of the shard's tests when given). */
export function doneCellCount(
  st: Statements,
  suiteHash: string,
  modelIdentity: string,
  shard?: Shard,
): number {
  if (shard)
    return st
      .prepared(
        `SELECT count(*) FROM tests t JOIN cells c
           ON c.suite_hash = t.suite_hash AND c.model_identity = @identity AND c.test_id = t.test_id
         WHERE t.suite_hash = @suite_hash AND ${IN_SHARD} AND c.status = 'done'`,
      )
      .pluck()
      .get({
        suite_hash: suiteHash,
        identity: modelIdentity,
        shard_index: shard.index,
        shard_count: shard.count,
      }) as number;
  return st
    .prepared(
      `SELECT coalesce(sum(n), 0) FROM ${cellCountsSource(st)}
       WHERE suite_hash = ? AND model_identity = ? AND status = 'done'`,
    )
    .pluck()
    .get(suiteHash, modelIdentity) as number;
}

/** Stored cells per suite, model identity and status, whatever their repeat. */
export function cellTotals(st: Statements, suiteHash: string | undefined): CellTotal[] {
  return (
    st
      .prepared(
        `SELECT suite_hash, model_identity, max(model), status, sum(n) FROM ${cellCountsSource(st)}
         WHERE n > 0 AND (@suite IS NULL OR suite_hash = @suite)
         GROUP BY suite_hash, model_identity, status ORDER BY suite_hash, model_identity, status`,
      )
      .raw()
      .all({ suite: suiteHash ?? null }) as [string, string, string, CellStatus, number][]
  ).map(([suiteHash, modelIdentity, model, status, count]) => ({
    suiteHash,
    modelIdentity,
    model,
    status,
    count,
  }));
}
