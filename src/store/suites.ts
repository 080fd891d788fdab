import type { Suite, SuiteTest } from '../domain/suites.js';
import type { SuiteModel, SuiteSummary } from './records.js';
import { now } from './rows.js';
import { cellCountsSource } from './schema.js';
import type { Statements } from './statements.js';

/** Suites and their tests: stored once per hash, found by hash, name or the runs that ran them. */

/** Stores a suite and its tests once (a suite is identified by its hash). */
export function saveSuite(st: Statements, suite: Suite): void {
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

export function hasSuite(st: Statements, hash: string): boolean {
  return st.prepared('SELECT 1 FROM suites WHERE hash = ?').get(hash) !== undefined;
}

export function getSuite(st: Statements, hash: string): Suite | undefined {
  const row = st.prepared('SELECT hash, name FROM suites WHERE hash = ?').get(hash) as
    | { hash: string; name: string }
    | undefined;
  if (!row) return undefined;
  const tests = (
    st.prepared('SELECT json FROM tests WHERE suite_hash = ? ORDER BY position').all(hash) as {
      json: string;
    }[]
  ).map((t) => JSON.parse(t.json) as SuiteTest);
  return { name: row.name, hash: row.hash, tests };
}

export function getTest(st: Statements, suiteHash: string, testId: string): SuiteTest | undefined {
  const json = st
    .prepared('SELECT json FROM tests WHERE suite_hash = ? AND test_id = ?')
    .pluck()
    .get(suiteHash, testId) as string | undefined;
  return json === undefined ? undefined : (JSON.parse(json) as SuiteTest);
}

export function listSuites(st: Statements): SuiteSummary[] {
  const rows = st
    .prepared(
      `SELECT s.hash, s.name, s.created_at, (SELECT count(*) FROM tests t WHERE t.suite_hash = s.hash) AS tests
       FROM suites s ORDER BY s.created_at, s.rowid`,
    )
    .all() as { hash: string; name: string; created_at: string; tests: number }[];
  return rows.map((r) => ({ hash: r.hash, name: r.name, createdAt: r.created_at, tests: r.tests }));
}

export function findSuitesByPrefix(st: Statements, prefix: string): { hash: string; name: string }[] {
  // A range of the primary key rather than LIKE, which cannot use it. Hashes are lowercase hex.
  const low = prefix.toLowerCase();
  return st
    .prepared('SELECT hash, name FROM suites WHERE hash >= ? AND hash < ? ORDER BY hash LIMIT 2')
    .all(low, `${low}\u{10ffff}`) as { hash: string; name: string }[];
}

export function suiteName(st: Statements, hash: string): string | undefined {
  return st.prepared('SELECT name FROM suites WHERE hash = ?').pluck().get(hash) as string | undefined;
}

export function suitesWithCellsNamed(st: Statements, name: string): string[] {
  return st
    .prepared(
      `SELECT s.hash FROM suites s JOIN runs r ON r.suite_hash = s.hash
       WHERE s.name = ? AND EXISTS (SELECT 1 FROM cells c WHERE c.suite_hash = s.hash)
       GROUP BY s.hash ORDER BY max(r.started_at) DESC, max(r.rowid) DESC`,
    )
    .pluck()
    .all(name) as string[];
}

export function suiteRunsNamed(st: Statements, name: string): string[] {
  return st
    .prepared(
      `SELECT s.hash FROM suites s JOIN runs r ON r.suite_hash = s.hash
       WHERE s.name = ? ORDER BY r.started_at DESC, r.rowid DESC`,
    )
    .pluck()
    .all(name) as string[];
}

export function modelsOfSuite(st: Statements, suiteHash: string): SuiteModel[] {
  return (
    st
      .prepared(
        `SELECT DISTINCT model, model_identity FROM ${cellCountsSource(st)}
         WHERE suite_hash = ? AND n > 0 ORDER BY model_identity`,
      )
      .all(suiteHash) as { model: string; model_identity: string }[]
  ).map((r) => ({ model: r.model, modelIdentity: r.model_identity }));
}

export function modelLabels(st: Statements, suiteHash: string | undefined): string[] {
  return st
    .prepared(
      `SELECT DISTINCT model FROM ${cellCountsSource(st)}
       WHERE n > 0 AND (@suite IS NULL OR suite_hash = @suite) ORDER BY model`,
    )
    .pluck()
    .all({ suite: suiteHash ?? null }) as string[];
}
