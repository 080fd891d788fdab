import type { Suite, SuiteTest } from '../domain/suites.js';
import type { SuiteModel, SuiteSummary } from './records.js';
import { now } from './rows.js';
import { cellCountsSource } from './schema.js';
import type { Statements } from './statements.js';

/** Suites and their tests: stored once per hash, found by hash, name or the runs that ran them. */
export class SuiteQueries {
  constructor(private readonly st: Statements) {}

  /** Stores a suite and its tests once (a suite is identified by its hash). */
  save(suite: Suite): void {
    const st = this.st;
    st.db
      .transaction(() => {
        const inserted = st
          .prepared('INSERT OR IGNORE INTO suites (hash, name, created_at) VALUES (?, ?, ?)')
          .run(suite.hash, suite.name, now());
        if (inserted.changes === 0) return;
        const insertTest = st.prepared(
          'INSERT OR IGNORE INTO tests (suite_hash, test_id, position, json) VALUES (?, ?, ?, ?)',
        );
        suite.tests.forEach((test, position) => {
          insertTest.run(suite.hash, test.id, position, JSON.stringify(test));
        });
      })
      .immediate();
  }

  has(hash: string): boolean {
    return this.st.prepared('SELECT 1 FROM suites WHERE hash = ?').get(hash) !== undefined;
  }

  get(hash: string): Suite | undefined {
    const row = this.st.prepared('SELECT hash, name FROM suites WHERE hash = ?').get(hash) as
      | { hash: string; name: string }
      | undefined;
    if (!row) return undefined;
    // Read in the key's order and sorted here: ordered by the position index, each row would be a
    // lookup of its own in the key's B-tree (which holds the JSON), not a pass along it.
    const tests = (
      this.st.prepared('SELECT position, json FROM tests WHERE suite_hash = ?').raw().all(hash) as [
        number,
        string,
      ][]
    )
      .sort((a, b) => a[0] - b[0])
      .map(([, json]) => JSON.parse(json) as SuiteTest);
    return { name: row.name, hash: row.hash, tests };
  }

  /** A stored test of a suite. */
  test(suiteHash: string, testId: string): SuiteTest | undefined {
    const json = this.st
      .prepared('SELECT json FROM tests WHERE suite_hash = ? AND test_id = ?')
      .pluck()
      .get(suiteHash, testId) as string | undefined;
    return json === undefined ? undefined : (JSON.parse(json) as SuiteTest);
  }

  /** A suite's name, without reading its tests. */
  name(hash: string): string | undefined {
    return this.st.prepared('SELECT name FROM suites WHERE hash = ?').pluck().get(hash) as string | undefined;
  }

  /** Every suite without its tests, oldest first. */
  list(): SuiteSummary[] {
    const rows = this.st
      .prepared(
        `SELECT s.hash, s.name, s.created_at, (SELECT count(*) FROM tests t WHERE t.suite_hash = s.hash) AS tests
         FROM suites s ORDER BY s.created_at, s.rowid`,
      )
      .all() as { hash: string; name: string; created_at: string; tests: number }[];
    return rows.map((r) => ({ hash: r.hash, name: r.name, createdAt: r.created_at, tests: r.tests }));
  }

  /**
   * Suites whose hash starts with `prefix` (hex digits, any case), at most two: enough to tell a
   * unique prefix from an ambiguous one.
   */
  byPrefix(prefix: string): { hash: string; name: string }[] {
    // A range of the primary key rather than LIKE, which cannot use it. Hashes are lowercase hex.
    const low = prefix.toLowerCase();
    return this.st
      .prepared('SELECT hash, name FROM suites WHERE hash >= ? AND hash < ? ORDER BY hash LIMIT 2')
      .all(low, `${low}\u{10ffff}`) as { hash: string; name: string }[];
  }

  /** Hashes of the suites named `name` that a run stored and that have cells, most recently run first. */
  withCellsNamed(name: string): string[] {
    return this.st
      .prepared(
        `SELECT s.hash FROM suites s JOIN runs r ON r.suite_hash = s.hash
         WHERE s.name = ? AND EXISTS (SELECT 1 FROM cells c WHERE c.suite_hash = s.hash)
         GROUP BY s.hash ORDER BY max(r.started_at) DESC, max(r.rowid) DESC`,
      )
      .pluck()
      .all(name) as string[];
  }

  /** Hashes of the suites named `name`, once per run of them, newest run first. */
  runsNamed(name: string): string[] {
    return this.st
      .prepared(
        `SELECT s.hash FROM suites s JOIN runs r ON r.suite_hash = s.hash
         WHERE s.name = ? ORDER BY r.started_at DESC, r.rowid DESC`,
      )
      .pluck()
      .all(name) as string[];
  }

  /** The models that have cells in a suite (label and identity pairs), by identity. */
  models(suiteHash: string): SuiteModel[] {
    return (
      this.st
        .prepared(
          `SELECT DISTINCT model, model_identity FROM ${cellCountsSource(this.st)}
           WHERE suite_hash = ? AND n > 0 ORDER BY model_identity`,
        )
        .all(suiteHash) as { model: string; model_identity: string }[]
    ).map((r) => ({ model: r.model, modelIdentity: r.model_identity }));
  }

  /** The labels cells are stored under, of one suite or of every suite, sorted. */
  modelLabels(suiteHash?: string): string[] {
    return this.st
      .prepared(
        `SELECT DISTINCT model FROM ${cellCountsSource(this.st)}
         WHERE n > 0 AND (@suite IS NULL OR suite_hash = @suite) ORDER BY model`,
      )
      .pluck()
      .all({ suite: suiteHash ?? null }) as string[];
  }
}
