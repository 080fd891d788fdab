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

/** Each test's repeats: its own, else its suite's in @fallback ({hash: repeats} as JSON), else 1. */
const TEST_REPEATS = `coalesce(json_extract(json, '$.repeats'), json_extract(@fallback, '$."' || suite_hash || '"'), 1)`;

const EXPECTED_BY_SUITE = `SELECT suite_hash, sum(${TEST_REPEATS}) AS expected FROM tests GROUP BY suite_hash`;

const RUN_REPEATS = `coalesce(json_extract(@fallback, '$."' || suite_hash || '"'), 1)`;

/** A suite and model identity's cells of one status and error kind, as cell_counts sums them. */
interface PairCountRow {
  suite_hash: string;
  model_identity: string;
  model: string;
  /** The id of the pair's first cell. */
  first_id: number;
  status: CellStatus;
  error_kind: string;
  /** Cells that count (below their repeats). */
  counted: number;
  /** Of them, cells stored with no call. */
  stored: number;
}

/** Counting a suite's cells, from cell_counts (schema.ts) where it can. */
export class CoverageQueries {
  constructor(private readonly st: Statements) {}

  /**
   * Coverage of a suite for some models, from the store alone: total = the sum over tests of
   * their repeats (a test's own `repeats`, else the model's) per model; pending = total - done -
   * failed. With `runId`, `cached` counts done cells that run did not call for (written earlier,
   * or linked to a stored response); without, cells stored with no call. With `shard`, of the
   * shard's tests only (docs/decisions.md#e19-shards-deal-tests-round-robin).
   */
  of(suiteHash: string, models: CoverageModel[], opts: { runId?: string; shard?: Shard } = {}): Coverage {
    const cov: Coverage = { total: 0, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} };
    const { shard } = opts;
    const counts = shard
      ? this.st.prepared(SHARD_COUNTS)
      : this.st.prepared(`
      SELECT status, error_kind, sum(n) AS n,
             sum(CASE WHEN status = 'done' AND (stored OR (@run_id IS NOT NULL AND run_id != @run_id))
                      THEN n ELSE 0 END) AS cached
      FROM ${cellCountsSource(this.st)}
      WHERE suite_hash = @suite_hash AND model_identity = @identity AND ${COUNTED('@repeats')}
      GROUP BY status, error_kind`);
    const expected = new Map<number, number>(); // by repeats: reading every test once per model is slow
    for (const m of models) {
      let total = expected.get(m.repeats);
      if (total === undefined) {
        total = this.expected(suiteHash, m.repeats, shard);
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

  /** How many cells a suite expects of one model with `repeats` (tests with their own repeats keep them; of a shard's tests when given). */
  expected(suiteHash: string, repeats: number, shard?: Shard): number {
    if (shard)
      return this.st
        .prepared(SHARD_EXPECTED_CELLS)
        .pluck()
        .get(shardParams(suiteHash, repeats, shard)) as number;
    return this.st.prepared(EXPECTED_CELLS).pluck().get({ suite_hash: suiteHash, repeats }) as number;
  }

  /**
   * A suite and model identity's failed cells (those `of` counts) by kind, most frequent first,
   * each with the message of its first cell: SQLite takes a bare column from the row min() picks.
   */
  failedKinds(suiteHash: string, identity: string, repeats: number, shard?: Shard): FailedKind[] {
    const rows = this.st
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

  /**
   * Coverage of a suite for each model identity that has cells in it, with `repeats` for the
   * tests that set none, as `of` counts it without a run; by identity. The tests are read once.
   */
  byModel(suiteHash: string, repeats: number): SuiteModelCoverage[] {
    const total = this.expected(suiteHash, repeats);
    const rows = this.st
      .prepared(
        `SELECT model_identity, max(model) AS model, status, error_kind,
                sum(CASE WHEN ${COUNTED('@repeats')} THEN n ELSE 0 END) AS counted,
                sum(CASE WHEN stored AND ${COUNTED('@repeats')} THEN n ELSE 0 END) AS stored
         FROM ${cellCountsSource(this.st)} WHERE suite_hash = @suite AND n > 0
         GROUP BY model_identity, status, error_kind ORDER BY model_identity`,
      )
      .all({ suite: suiteHash, repeats }) as Omit<PairCountRow, 'suite_hash' | 'first_id'>[];
    const out = new Map<string, SuiteModelCoverage>();
    for (const r of rows) {
      let m = out.get(r.model_identity);
      if (!m) {
        m = {
          suiteHash,
          modelIdentity: r.model_identity,
          model: r.model,
          coverage: { total, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} },
        };
        out.set(r.model_identity, m);
      }
      if (r.model > m.model) m.model = r.model;
      addCounts(m.coverage, r);
    }
    return [...out.values()].map((m) => {
      m.coverage.pending = total - m.coverage.done - m.coverage.failed;
      return m;
    });
  }

  /**
   * Coverage of every (suite, model identity) that has cells, in the order of their first cell, as
   * `of` counts it without a run: `repeatsBySuite` holds the repeats of a suite's tests that do not
   * set their own (1 for a suite not in it). From the counts and one pass over the tests.
   */
  everySuite(repeatsBySuite: Record<string, number>): SuiteModelCoverage[] {
    const fallback = JSON.stringify(repeatsBySuite);
    const expected = new Map(
      (
        this.st.prepared(EXPECTED_BY_SUITE).all({ fallback }) as { suite_hash: string; expected: number }[]
      ).map((r) => [r.suite_hash, r.expected]),
    );
    const rows = this.st
      .prepared(
        `SELECT suite_hash, model_identity, max(model) AS model, min(first_id) AS first_id, status, error_kind,
                sum(CASE WHEN ${COUNTED(RUN_REPEATS)} THEN n ELSE 0 END) AS counted,
                sum(CASE WHEN stored AND ${COUNTED(RUN_REPEATS)} THEN n ELSE 0 END) AS stored
         FROM ${cellCountsSource(this.st)} WHERE n > 0
         GROUP BY suite_hash, model_identity, status, error_kind`,
      )
      .all({ fallback }) as PairCountRow[];
    const pairs = new Map<string, SuiteModelCoverage & { first: number }>();
    for (const r of rows) {
      const key = `${r.suite_hash}\u0000${r.model_identity}`;
      let p = pairs.get(key);
      if (!p) {
        const total = expected.get(r.suite_hash) ?? 0;
        p = {
          suiteHash: r.suite_hash,
          modelIdentity: r.model_identity,
          model: r.model,
          first: r.first_id,
          coverage: { total, done: 0, failed: 0, pending: 0, cached: 0, errorsByKind: {} },
        };
        pairs.set(key, p);
      }
      if (r.model > p.model) p.model = r.model;
      p.first = Math.min(p.first, r.first_id);
      addCounts(p.coverage, r);
    }
    return [...pairs.values()]
      .sort((a, b) => a.first - b.first)
      .map(({ first: _, ...p }) => {
        p.coverage.pending = p.coverage.total - p.coverage.done - p.coverage.failed;
        return p;
      });
  }

  /** A suite's counted cells by model label and status, and how many of them `runId` wrote last. */
  modelStatusCounts(suiteHash: string, runId: string, repeats: number): ModelStatusCount[] {
    return (
      this.st
        .prepared(
          `SELECT model, status, sum(n) AS n, sum(CASE WHEN run_id = @run THEN n ELSE 0 END) AS mine
           FROM ${cellCountsSource(this.st)}
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

  /** How many cells of a suite and model identity are stored done (any repeat; of a shard's tests when given). */
  doneCount(suiteHash: string, modelIdentity: string, shard?: Shard): number {
    if (shard)
      return this.st
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
    return this.st
      .prepared(
        `SELECT coalesce(sum(n), 0) FROM ${cellCountsSource(this.st)}
         WHERE suite_hash = ? AND model_identity = ? AND status = 'done'`,
      )
      .pluck()
      .get(suiteHash, modelIdentity) as number;
  }

  /** Stored cells per suite (or of one suite), model identity and status, whatever their repeat. */
  cellTotals(suiteHash?: string): CellTotal[] {
    return (
      this.st
        .prepared(
          `SELECT suite_hash, model_identity, max(model) AS model, status, sum(n) AS n FROM ${cellCountsSource(this.st)}
           WHERE n > 0 AND (@suite IS NULL OR suite_hash = @suite)
           GROUP BY suite_hash, model_identity, status ORDER BY suite_hash, model_identity, status`,
        )
        .all({ suite: suiteHash ?? null }) as {
        suite_hash: string;
        model_identity: string;
        model: string;
        status: CellStatus;
        n: number;
      }[]
    ).map((r) => ({
      suiteHash: r.suite_hash,
      modelIdentity: r.model_identity,
      model: r.model,
      status: r.status,
      count: r.n,
    }));
  }
}

/** A count row's cells added to a coverage: done ones (and those stored with no call), or failed ones by kind. */
function addCounts(
  coverage: Coverage,
  r: Pick<PairCountRow, 'status' | 'error_kind' | 'counted' | 'stored'>,
) {
  if (r.status === 'done') {
    coverage.done += r.counted;
    coverage.cached += r.stored;
  } else if (r.counted > 0) {
    coverage.failed += r.counted;
    const kind = r.error_kind || 'unknown';
    coverage.errorsByKind[kind] = (coverage.errorsByKind[kind] ?? 0) + r.counted;
  }
}
