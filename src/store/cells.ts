import type { FinishReason } from '../domain/calls.js';
import type { CellStatus } from '../domain/cells.js';
import type { SuiteTest } from '../domain/suites.js';
import { type CellWriters, cellWriters } from './cell-writes.js';
import type {
  CellCursor,
  CellFilter,
  CellPage,
  CellPageFilter,
  CellPageRow,
  CellText,
  CellWrite,
  FailureGroup,
  LightCell,
  SaveCellCached,
  SaveCellDone,
  SaveCellFailed,
  ScoringCell,
  StoredCell,
} from './records.js';
import { type CellRow, toCell } from './rows.js';
import type { Statements } from './statements.js';

const CELL_SELECT = `
  SELECT c.id, c.suite_hash, c.test_id, c.model, c.model_identity, c.repeat, c.status, c.response_key,
         c.request_json AS cell_request_json, c.error_kind, c.error_message, c.error_status, c.attempts,
         c.latency_ms AS cell_latency_ms, c.updated_at, c.run_id,
         r.identity AS r_identity, r.model AS r_model, r.request_json AS r_request_json, r.text, r.tokens_json,
         r.finish_reason, r.input_tokens, r.output_tokens, r.latency_ms AS r_latency_ms, r.response_model,
         r.created_at AS r_created_at
  FROM cells c LEFT JOIN responses r ON r.key = c.response_key`;

const CELLS_BY_IDS = `${CELL_SELECT} WHERE c.id IN (SELECT value FROM json_each(?))`;

const PAGE = 500;

/** Tests per page when streaming a suite's cells: a page's rows are all that is held at once. */
const TEST_PAGE = 500;

/**
 * A cell's columns a LightCell is made of, in LIGHT_COLUMNS' order and then its response's text
 * (or NULL), as `.raw()` reads them: the reads of a suite's every cell take rows as arrays, which
 * costs a quarter less than a named object per row (200,000 cells), and name them at once.
 */
type LightCellColumns = readonly [
  testId: string,
  model: string,
  modelIdentity: string,
  repeat: number,
  status: CellStatus,
  responseKey: string | null,
  errorKind: string | null,
  errorMessage: string | null,
  errorStatus: number | null,
  text: string | null,
];

/** `forScoring`'s rows: a cell's columns, then its finish reason, attempts, max tokens and system prompt. */
type ScoringExtraColumns = readonly [
  finishReason: FinishReason | null,
  attempts: number,
  maxTokens: unknown,
  system: unknown,
];
type ScoringCellColumns = readonly [...LightCellColumns, ...ScoringExtraColumns];

/** `withTests`' rows: a cell's columns, then its test's JSON. */
type TestCellColumns = readonly [...LightCellColumns, json: string];

/** The test's JSON `withTests` reads after a cell's columns. */
const testJson = (row: TestCellColumns): string => row[10];

/** The viewer's page rows, a page at a time: named, as a page is small. */
type PageRow = Pick<
  CellRow,
  | 'id'
  | 'test_id'
  | 'model'
  | 'model_identity'
  | 'repeat'
  | 'status'
  | 'response_key'
  | 'error_kind'
  | 'error_message'
  | 'error_status'
  | 'text'
> & { json: string | null; hit: number };

/** A cell's request: its own when it has one (a failed cell's), else its response's. */
const REQUEST = 'coalesce(c.request_json, r.request_json)';

const LIGHT_COLUMNS = `c.test_id, c.model, c.model_identity, c.repeat, c.status, c.response_key, c.error_kind,
  c.error_message, c.error_status`;

/** Cells: written whole when they finish, read whole, in bulk without their heavy parts, or grouped. */
export class CellQueries {
  private readonly writes: CellWriters;

  constructor(private readonly st: Statements) {
    this.writes = cellWriters(st);
  }

  /** Response, cell and attempts of a finished cell, in one transaction. */
  saveDone(c: SaveCellDone): void {
    this.writes.done.immediate(c);
  }

  /** A failed cell with its reason and attempts, in one transaction. */
  saveFailed(c: SaveCellFailed): void {
    this.writes.failed.immediate(c);
  }

  /** Done cells whose response is already stored (attempts 0), in one transaction. */
  saveCached(cells: SaveCellCached[]): void {
    if (cells.length > 0) this.writes.cached.immediate(cells);
  }

  /**
   * Several finished cells in one transaction (group commit): the engine commits the cells that
   * finished within a few milliseconds together, so a commit's cost is shared while a killed
   * process still loses only cells that were not yet committed — never half a cell.
   */
  write(writes: readonly CellWrite[]): void {
    if (writes.length > 0) this.writes.batch.immediate(writes);
  }

  /** The response key of a cell stored done, else undefined (one lookup in the cells' unique index). */
  doneKey(suiteHash: string, modelIdentity: string, testId: string, repeat: number): string | undefined {
    return this.st
      .prepared(
        `SELECT response_key FROM cells
         WHERE suite_hash = ? AND model_identity = ? AND test_id = ? AND repeat = ? AND status = 'done'`,
      )
      .pluck()
      .get(suiteHash, modelIdentity, testId, repeat) as string | undefined;
  }

  /**
   * The response key of every cell of a suite and model identity stored done, by test id and repeat
   * (`${testId}\u0000${repeat}`): a run's warm path asks this once instead of `doneKey` per cell
   * (docs/decisions.md E45). One range of the cells' unique index.
   */
  doneKeys(suiteHash: string, modelIdentity: string): Map<string, string> {
    const rows = this.st
      .prepared(
        `SELECT test_id, repeat, response_key FROM cells
         WHERE suite_hash = ? AND model_identity = ? AND status = 'done'`,
      )
      .raw()
      .iterate(suiteHash, modelIdentity) as IterableIterator<[string, number, string]>;
    const keys = new Map<string, string>();
    for (const [testId, repeat, key] of rows) keys.set(`${testId}\u0000${repeat}`, key);
    return keys;
  }

  /**
   * Cells matching the filter in a stable order: suite, model identity, test position in its
   * suite, repeat. The ids are read first and the rows a page at a time, so the order does not
   * depend on when each cell finished and the caller may write to the store while iterating.
   */
  *all(filter: CellFilter = {}): Generator<StoredCell> {
    const { where, params } = cellWhere(filter);
    const ids = this.st
      .prepared(
        `SELECT c.id FROM cells c LEFT JOIN tests t ${this.st.indexedBy('tests_key')} ON t.suite_hash = c.suite_hash AND t.test_id = c.test_id
         WHERE 1${where} ORDER BY c.suite_hash, c.model_identity, coalesce(t.position, 1e18), c.test_id, c.repeat`,
      )
      .pluck()
      .all(params) as number[];
    const page = this.st.prepared(CELLS_BY_IDS);
    for (let i = 0; i < ids.length; i += PAGE) {
      const chunk = ids.slice(i, i + PAGE);
      const rows = new Map((page.all(JSON.stringify(chunk)) as CellRow[]).map((r) => [r.id, r]));
      for (const id of chunk) {
        const row = rows.get(id);
        if (row) yield toCell(row); // gone only if deleted meanwhile
      }
    }
  }

  /**
   * A suite's cells in the order of `all`, without their requests and token log-probs: read with
   * one query that skips them, as at 20,000 cells parsing those would cost a report more than
   * everything else it reads.
   */
  light(suiteHash: string): LightCell[] {
    const rows = this.st
      .prepared(
        `SELECT ${LIGHT_COLUMNS}, r.text
         FROM cells c LEFT JOIN responses r ON r.key = c.response_key
         WHERE c.suite_hash = ?`,
      )
      .raw()
      .all(suiteHash) as LightCellColumns[];
    return this.inCellOrder(suiteHash, rows.map(toLightCell));
  }

  /**
   * A suite's cells as `light` reads them, with what scoring needs besides: the response's finish
   * reason, the attempts, and the request's output cap and system prompt (its first system
   * message), taken out of the stored request by SQLite, so no request is parsed here.
   */
  forScoring(suiteHash: string): ScoringCell[] {
    const rows = this.st
      .prepared(
        `SELECT ${LIGHT_COLUMNS}, r.text, r.finish_reason, c.attempts,
                json_extract(${REQUEST}, '$.maxTokens'),
                CASE WHEN json_extract(${REQUEST}, '$.messages[0].role') = 'system'
                     THEN json_extract(${REQUEST}, '$.messages[0].content')
                     ELSE (SELECT json_extract(m.value, '$.content') FROM json_each(${REQUEST}, '$.messages') m
                           WHERE json_extract(m.value, '$.role') = 'system' ORDER BY m.key LIMIT 1) END
         FROM cells c LEFT JOIN responses r ON r.key = c.response_key
         WHERE c.suite_hash = ?`,
      )
      .raw()
      .all(suiteHash) as ScoringCellColumns[];
    // The system prompts are a few texts sent thousands of times: one string each is kept.
    const systems = new Map<string, string>();
    const cells = rows.map((row) => {
      const cell = toLightCell(row) as ScoringCell;
      const [, , , , , , , , , , finishReason, attempts, maxTokens, system] = row;
      if (finishReason !== null && cell.status === 'done') cell.finishReason = finishReason;
      cell.attempts = attempts;
      if (typeof maxTokens === 'number') cell.maxTokens = maxTokens;
      if (typeof system === 'string') {
        if (!systems.has(system)) systems.set(system, system);
        cell.system = systems.get(system);
      }
      return cell;
    });
    return this.inCellOrder(suiteHash, cells);
  }

  /**
   * Cells sorted as `all` orders them (model identity, test position in its suite, test id, repeat).
   * Sorted here, not by SQLite: sorting in SQL carries every response text through a temporary B-tree.
   */
  private inCellOrder<C extends LightCell>(suiteHash: string, cells: C[]): C[] {
    const position = new Map(
      this.st
        .prepared(
          `SELECT test_id, position FROM tests ${this.st.indexedBy('tests_key')} WHERE suite_hash = ?`,
        )
        .raw()
        .all(suiteHash) as [testId: string, position: number][],
    );
    const at = (id: string) => position.get(id) ?? Number.MAX_SAFE_INTEGER;
    return cells.sort(
      (a, b) =>
        (a.modelIdentity < b.modelIdentity ? -1 : a.modelIdentity > b.modelIdentity ? 1 : 0) ||
        at(a.testId) - at(b.testId) ||
        (a.testId < b.testId ? -1 : a.testId > b.testId ? 1 : 0) ||
        a.repeat - b.repeat,
    );
  }

  /**
   * A suite's cells with their tests, in the order of `light`, for the given model identities
   * (each in turn), read a page of tests at a time along the tests_position and cells indexes:
   * memory stays that of one page whatever the size of the suite. Cells of tests the suite does
   * not hold are left out. Without their response texts: looking each one up (responses are keyed
   * by a hash, so in no order on disk) is most of the cost, and a caller that keeps a few asks
   * `responses.text` for those.
   */
  *withTests(
    suiteHash: string,
    identities: readonly string[],
  ): Generator<{ cell: LightCell; test: SuiteTest }> {
    const st = this.st;
    const last = st.prepared('SELECT max(position) FROM tests WHERE suite_hash = ?').pluck().get(suiteHash) as
      | number
      | null;
    if (last === null) return;
    if (!st.prepared("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'tests_position'").get()) {
      // A store opened read-only before a writer added the index (schema 4 or older): read as before, whole.
      const tests = new Map(
        (
          st.prepared('SELECT test_id, json FROM tests WHERE suite_hash = ?').all(suiteHash) as {
            test_id: string;
            json: string;
          }[]
        ).map((t) => [t.test_id, JSON.parse(t.json) as SuiteTest]),
      );
      for (const cell of this.light(suiteHash)) {
        const test = tests.get(cell.testId);
        if (test && identities.includes(cell.modelIdentity)) {
          delete cell.text;
          yield { cell, test };
        }
      }
      return;
    }
    const page = st.prepared(`
      SELECT ${LIGHT_COLUMNS}, NULL AS text, t.json
      FROM tests t
      JOIN cells c ON c.suite_hash = t.suite_hash AND c.model_identity = @identity AND c.test_id = t.test_id
      WHERE t.suite_hash = @suite AND t.position >= @from AND t.position < @to
      ORDER BY t.position, c.repeat`);
    for (const identity of identities) {
      for (let from = 0; from <= last; from += TEST_PAGE) {
        const rows = page
          .raw()
          .all({ suite: suiteHash, identity, from, to: from + TEST_PAGE }) as TestCellColumns[];
        let test: SuiteTest | undefined;
        for (const row of rows) {
          const cell = toLightCell(row);
          // A test's cells come together (by position, then repeat): its JSON is parsed once.
          if (test?.id !== cell.testId) test = JSON.parse(testJson(row)) as SuiteTest;
          yield { cell, test };
        }
      }
    }
  }

  /**
   * One page of a suite's cells for the viewer, in the order of the cells' unique index (model
   * identity, test id, repeat) after the `after` cell, filtered by model and status (each a range
   * of an index) and by a text (case-insensitive for ASCII, in the test, the response or the
   * error). A text
   * is looked for in at most `scan` cells a page, so that every page answers in bounded time
   * whatever the store holds; `next` goes on from where the page stopped (docs/decisions.md E16
   * says why there is no full-text index).
   */
  page(filter: CellPageFilter): CellPage {
    const where: string[] = ['c.suite_hash = @suite'];
    const params: Record<string, unknown> = { suite: filter.suiteHash, limit: filter.limit };
    if (filter.modelIdentity !== undefined) {
      where.push('c.model_identity = @identity');
      params.identity = filter.modelIdentity;
    }
    // A literal, not a parameter: the planner then takes the failed cells' partial index.
    if (filter.status !== undefined)
      where.push(filter.status === 'failed' ? "c.status = 'failed'" : "c.status = 'done'");
    const searching = filter.search !== undefined && filter.search !== '';
    // LIKE is case-insensitive for ASCII and cheaper than lower() per row; the test is matched in
    // its stored JSON (prompt, system, meta), so the text is matched as JSON writes it.
    const hit = searching
      ? `(r.text LIKE @q ESCAPE '\\' OR t.json LIKE @qj ESCAPE '\\' OR page.error_message LIKE @q ESCAPE '\\')`
      : '1';
    if (searching) {
      params.q = `%${likeEscaped(filter.search as string)}%`;
      params.qj = `%${likeEscaped(JSON.stringify(filter.search).slice(1, -1))}%`;
    }
    const window = this.st.prepared(
      `SELECT page.id, page.model_identity, page.model, page.test_id, page.repeat, page.status, page.response_key,
              page.error_kind, page.error_message, page.error_status, r.text, t.json, ${hit} AS hit
       FROM (SELECT * FROM cells c WHERE ${where.join(' AND ')}${filter.after || searching ? ' AND (c.model_identity, c.test_id, c.repeat) > (@ai, @at, @ar)' : ''}
             ORDER BY c.model_identity, c.test_id, c.repeat LIMIT @window) page
       LEFT JOIN responses r ON r.key = page.response_key
       LEFT JOIN tests t ON t.suite_hash = page.suite_hash AND t.test_id = page.test_id
       ORDER BY page.model_identity, page.test_id, page.repeat`,
    );
    const budget = searching ? (filter.scan ?? 5_000) : filter.limit;
    const out: CellPageRow[] = [];
    let at: CellCursor | undefined = filter.after;
    let scanned = 0;
    let exhausted = false;
    // A search reads windows that grow fourfold (a common text fills the page from the first),
    // until the page is full or `scan` cells were looked at.
    for (
      let size = searching ? 200 : filter.limit;
      out.length < filter.limit && scanned < budget;
      size *= 4
    ) {
      const n = Math.min(size, budget - scanned);
      const rows = window.all({
        ...params,
        ai: at?.modelIdentity ?? '',
        at: at?.testId ?? '',
        ar: at?.repeat ?? -1,
        window: n,
      }) as PageRow[];
      for (const row of rows) {
        scanned++;
        at = { modelIdentity: row.model_identity, testId: row.test_id, repeat: row.repeat };
        if (!row.hit) continue;
        out.push({
          id: row.id,
          cell: toLightCell([
            row.test_id,
            row.model,
            row.model_identity,
            row.repeat,
            row.status,
            row.response_key,
            row.error_kind,
            row.error_message,
            row.error_status,
            row.text,
          ]),
          ...(row.json !== null && { test: JSON.parse(row.json) as SuiteTest }),
        });
        if (out.length === filter.limit) break;
      }
      if (rows.length < n) {
        exhausted = true;
        break;
      }
    }
    return { rows: out, scanned, ...(!exhausted && at && { next: at }) };
  }

  /** A model's cells of one repeat in a suite, without their requests and tokens, in no set order. */
  ofRepeat(suiteHash: string, modelIdentity: string, repeat: number): CellText[] {
    const rows = this.st
      .prepared(
        `SELECT c.test_id, c.status, c.error_kind, c.response_key, c.attempts, r.text
         FROM cells c LEFT JOIN responses r ON r.key = c.response_key
         WHERE c.suite_hash = ? AND c.model_identity = ? AND c.repeat = ?`,
      )
      .raw()
      .all(suiteHash, modelIdentity, repeat) as [
      testId: string,
      status: CellStatus,
      errorKind: string | null,
      responseKey: string | null,
      attempts: number,
      text: string | null,
    ][];
    // As arrays, named at once: a protocol's loader reads every cell of a model (see LightCellColumns).
    return rows.map(([testId, status, errorKind, responseKey, attempts, text]) => ({
      testId,
      status,
      ...(errorKind !== null && { errorKind }),
      ...(responseKey !== null && { responseKey }),
      attempts,
      ...(text !== null && { text }),
    }));
  }

  /** Failed cells grouped by suite, model identity and error kind, in the order they were first stored. */
  failureGroups(): FailureGroup[] {
    const rows = this.st
      .prepared(
        `SELECT suite_hash, model_identity, max(model) AS model, coalesce(error_kind, 'unknown') AS kind,
                max(error_status) AS status, count(*) AS n,
                (SELECT c2.error_message FROM cells c2
                  WHERE c2.suite_hash = c.suite_hash AND c2.model_identity = c.model_identity
                    AND c2.status = 'failed' AND coalesce(c2.error_kind, 'unknown') = coalesce(c.error_kind, 'unknown')
                  ORDER BY c2.updated_at DESC, c2.id DESC LIMIT 1) AS example
         FROM cells c WHERE status = 'failed'
         GROUP BY suite_hash, model_identity, coalesce(error_kind, 'unknown') ORDER BY min(id)`,
      )
      .all() as {
      suite_hash: string;
      model_identity: string;
      model: string;
      kind: string;
      status: number | null;
      n: number;
      example: string | null;
    }[];
    return rows.map((r) => ({
      suiteHash: r.suite_hash,
      modelIdentity: r.model_identity,
      model: r.model,
      kind: r.kind,
      ...(r.status !== null && { status: r.status }),
      count: r.n,
      ...(r.example !== null && { example: r.example }),
    }));
  }
}

function cellWhere(filter: CellFilter): { where: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (column: string, name: string, value: unknown) => {
    if (value === undefined) return;
    parts.push(`c.${column} = @${name}`);
    params[name] = value;
  };
  add('suite_hash', 'suite_hash', filter.suiteHash);
  add('model', 'model', filter.model);
  add('model_identity', 'model_identity', filter.modelIdentity);
  add('test_id', 'test_id', filter.testId);
  add('status', 'status', filter.status);
  add('run_id', 'run_id', filter.runId);
  return { where: parts.map((p) => ` AND ${p}`).join(''), params };
}

function toLightCell(row: LightCellColumns | TestCellColumns | ScoringCellColumns): LightCell {
  const [
    testId,
    model,
    modelIdentity,
    repeat,
    status,
    responseKey,
    errorKind,
    errorMessage,
    errorStatus,
    text,
  ] = row;
  const cell: LightCell = { testId, model, modelIdentity, repeat, status };
  if (text !== null && status === 'done') cell.text = text;
  if (responseKey !== null) cell.responseKey = responseKey;
  if (status === 'failed')
    cell.error = {
      kind: errorKind ?? 'internal',
      message: errorMessage ?? '',
      ...(errorStatus !== null && { status: errorStatus }),
    };
  return cell;
}

/** A LIKE pattern's wildcards taken literally. */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
