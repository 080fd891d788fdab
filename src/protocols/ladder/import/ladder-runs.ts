import type { GenerateRequest } from '../../../models/types.js';
import { auxPut } from '../../../run/aux-cache.js';
import { suiteOf } from '../../../run/suite.js';
import type { Suite, SuiteTest } from '../../../run/types.js';
import type { CellWrite, Store } from '../../../store/store.js';
import { hashOf } from '../../../util/hash.js';
import { WAVER_VERSION } from '../../../version.js';
import { collapses } from '../collapse.js';
import { familyCodes } from '../families/roster.js';
import { LADDER_TESTS_SUITE } from '../suite-names.js';
import { type Family, type LadderTest, LEVELS } from '../types.js';
import { type RecordedLadderScores, recordedScoresRequest, recordedSlot } from './recorded.js';
import {
  findLadderRunFolders,
  type LadderRunFolder,
  type LadderRunRow,
  readLadderRunFolder,
} from './run-folders.js';

/**
 * `waver import ladder-runs` (docs/ladder.md#import): each run folder of the ladder reference as a
 * `ladder/tests` suite — a seed's baseline rows as one baseline test with that many repeats, every
 * perturbed row as a test with its family, requested and measured level and magnitude — its
 * replies as cells of `ladder-runs:<model>`, and the scores the run recorded as one measure row
 * marked imported, so the ladder's tables count each cell as the run did. Read and checked first,
 * written in one transaction.
 */

export function importedLadderIdentity(model: string): string {
  return `ladder-runs:${model}`;
}

interface RunPlan {
  run: LadderRunFolder;
  identity: string;
  suite: Suite;
  cells: { testId: string; repeat: number; key: string; request: GenerateRequest; row: LadderRunRow }[];
  record: RecordedLadderScores;
  reference: ReferenceAggregate;
  mismatches: AggregateMismatch[];
}

export interface LadderRunsPlan {
  /** The folders with an eval.csv: imported as suites. */
  runs: RunPlan[];
  /** The folders with the metrics files only: nothing to store, summarised from the aggregates (./aggregates.ts). */
  aggregatesOnly: LadderRunFolder[];
}

/** The reference's own aggregation of a run: per family, accuracy by level, and the Collapse Point. */
export interface ReferenceAggregate {
  baseline: number;
  tau: number;
  accuracy: Map<Family, Map<string, number>>;
  collapse: Map<Family, string | undefined>;
}

export interface AggregateMismatch {
  file: string;
  family: Family;
  column: string;
  recorded: string;
  computed: string;
}

/**
 * The reference's aggregation over a run's rows, as `experiment/run_sut_model.py` computes it: a
 * row is correct when `Sim: outputs` reaches the threshold (no score is wrong); acc(L0) is the
 * baseline rows' share (1 when there is none); each family's accuracy per classified level; the
 * Collapse Point the first level L1..L5 with a value below 0.80 x acc(L0).
 */
export function referenceAggregate(rows: readonly LadderRunRow[], threshold: number): ReferenceAggregate {
  const correct = (r: LadderRunRow) => (r.score !== undefined && r.score >= threshold ? 1 : 0);
  const base = rows.filter((r) => r.family === 'baseline');
  const baseline = base.length === 0 ? 1 : base.reduce((n, r) => n + correct(r), 0) / base.length;
  const tau = 0.8 * baseline;
  const accuracy = new Map<Family, Map<string, number>>();
  const collapse = new Map<Family, string | undefined>();
  for (const f of familyCodes()) {
    const of = rows.filter((r) => r.family === f);
    if (of.length === 0) continue;
    const levels = new Map<string, number>([['L0', baseline]]);
    for (const k of LEVELS) {
      const at = of.filter((r) => r.measuredLevel === k);
      if (at.length > 0) levels.set(`L${k}`, at.reduce((n, r) => n + correct(r), 0) / at.length);
    }
    accuracy.set(f, levels);
    collapse.set(
      f,
      LEVELS.map((k) => `L${k}`).find((l) => {
        const a = levels.get(l);
        // The Collapse Point rule on the reference's side: the floats as computed, no slack.
        return a !== undefined && collapses(a, baseline, 0.8, 0);
      }),
    );
  }
  return { baseline, tau, accuracy, collapse };
}

/** numpy's round to 3 decimals (x * 1000 rounded half to even, / 1000), as pandas writes the CSV. */
function round3(x: number): number {
  const y = x * 1000;
  const f = Math.floor(y);
  const d = y - f;
  return (d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f) / 1000;
}

/** The recorded metrics files against the reference's aggregation of the rows. */
function compareRecorded(run: LadderRunFolder, ref: ReferenceAggregate): AggregateMismatch[] {
  const out: AggregateMismatch[] = [];
  const families = new Set<Family>([...ref.accuracy.keys(), ...(run.accuracy?.keys() ?? [])]);
  for (const f of families) {
    const ours = ref.accuracy.get(f);
    const theirs = run.accuracy?.get(f);
    const columns = new Set<string>([...(ours?.keys() ?? []), ...(theirs?.keys() ?? [])]);
    for (const l of columns) {
      if (!run.accFile) break;
      const a = ours?.get(l);
      const b = theirs?.get(l);
      if (a === undefined && b === undefined) continue;
      if (a === undefined || b === undefined || Math.abs(round3(a) - b) > 1e-9)
        out.push({
          file: run.accFile,
          family: f,
          column: l,
          recorded: String(b ?? ''),
          computed: String(a ?? ''),
        });
    }
    if (run.collapse && run.summaryFile) {
      const a = ref.collapse.get(f);
      const b = run.collapse.get(f);
      if (run.collapse.has(f) && a !== b)
        out.push({ file: run.summaryFile, family: f, column: 'CP', recorded: b ?? '', computed: a ?? '' });
    }
  }
  return out;
}

/** Reads and checks every run folder under `dirs`; writes nothing. */
export function planLadderRunsImport(dirs: readonly string[]): LadderRunsPlan {
  const folders = findLadderRunFolders(dirs).map(readLadderRunFolder);
  return {
    runs: folders.filter((f) => f.evalFile !== undefined).map(runPlan),
    aggregatesOnly: folders.filter((f) => f.evalFile === undefined),
  };
}

function runPlan(run: LadderRunFolder): RunPlan {
  const identity = importedLadderIdentity(run.model);
  const seedId = (row: LadderRunRow) => `${run.dataset}-${row.sourceRow}`;
  const tests: SuiteTest[] = [];
  const baselineOf = new Map<number, { test: SuiteTest; rows: LadderRunRow[] }>();
  const placed: { test: SuiteTest; row: LadderRunRow; repeat: number }[] = [];
  const questionOf = new Map<number, string>();
  for (const row of run.rows)
    if (row.family === 'baseline' && !questionOf.has(row.sourceRow))
      questionOf.set(row.sourceRow, row.text.replace(/^\[QUESTION\]\s*/, ''));
  run.rows.forEach((row, index) => {
    const original = row.original ?? questionOf.get(row.sourceRow) ?? '';
    const gold = row.gold ?? Number.NaN;
    if (row.family === 'baseline') {
      let entry = baselineOf.get(row.sourceRow);
      if (!entry) {
        const meta: Omit<LadderTest, 'id'> = {
          seedId: seedId(row),
          family: 'baseline',
          requestedLevel: 0,
          measuredLevel: 0,
          original,
          text: row.text,
          gold,
          gates: [],
        };
        entry = { test: { id: `${seedId(row)}::baseline`, prompt: row.text, meta: { ...meta } }, rows: [] };
        baselineOf.set(row.sourceRow, entry);
        tests.push(entry.test);
      }
      placed.push({ test: entry.test, row, repeat: entry.rows.length });
      entry.rows.push(row);
      return;
    }
    const sim = row.sim ?? Number.NaN;
    // The recorded magnitude (`Score`) where the row has one: 1 - SIM in floats can differ in the last digit.
    const magnitude = row.magnitude ?? 1 - sim;
    const meta: Omit<LadderTest, 'id'> = {
      seedId: seedId(row),
      family: row.family,
      requestedLevel: row.requestedLevel,
      measuredLevel: row.measuredLevel,
      severity: {
        sim,
        magnitude,
        score: magnitude,
        level: row.measuredLevel === 0 ? undefined : row.measuredLevel,
        via: 'band',
      },
      original,
      text: row.text,
      gold,
      gates: [],
    };
    // The row's position keeps two rows of one seed, family and level (two attempts) apart.
    const test = {
      id: `${seedId(row)}::${row.family}::L${row.measuredLevel}::${index}`,
      prompt: row.text,
      meta: { ...meta },
    };
    tests.push(test);
    placed.push({ test, row, repeat: 0 });
  });
  for (const { test, rows } of baselineOf.values()) if (rows.length > 1) test.repeats = rows.length;
  const suite = suiteOf(LADDER_TESTS_SUITE, tests);
  const cells = placed.map(({ test, row, repeat }) => ({
    testId: test.id,
    repeat,
    key: hashOf({ source: 'ladder-runs', identity, run: run.folder, line: row.line }),
    request: { messages: [{ role: 'user' as const, content: test.prompt }] },
    row,
  }));
  const record: RecordedLadderScores = {
    imported: true,
    source: 'ladder-runs',
    run: run.folder,
    threshold: run.threshold,
    cells: Object.fromEntries(
      cells.map((c) => [recordedSlot(c.testId, c.repeat), { sim: c.row.score ?? null, line: c.row.line }]),
    ),
  };
  const reference = referenceAggregate(run.rows, run.threshold);
  return { run, identity, suite, cells, record, reference, mismatches: compareRecorded(run, reference) };
}

export interface ImportedLadderSuite {
  run: string;
  model: string;
  identity: string;
  suiteHash: string;
  tests: number;
  cells: number;
}

/** Writes the plan in one transaction: every suite, cell and record, or nothing. */
export function writeLadderRunsImport(store: Store, plan: LadderRunsPlan): ImportedLadderSuite[] {
  return store.transaction(() =>
    plan.runs.map((p) => {
      store.suites.save(p.suite);
      const runId = store.runs.begin({
        suiteHash: p.suite.hash,
        config: {
          import: 'ladder-runs',
          models: [p.run.model],
          run: p.run.folder,
          ...(p.run.manifest && { manifest: p.run.manifest }),
        },
        waverVersion: WAVER_VERSION,
      });
      const writes: CellWrite[] = p.cells.map((c) => {
        const ref = {
          suiteHash: p.suite.hash,
          testId: c.testId,
          model: p.run.model,
          modelIdentity: p.identity,
          repeat: c.repeat,
          runId,
          request: c.request,
          attempts: [],
        };
        return c.row.ok
          ? {
              kind: 'done',
              cell: {
                ...ref,
                key: c.key,
                result: {
                  text: c.row.response,
                  finishReason: 'other',
                  usage: { inputTokens: 0, outputTokens: 0 },
                },
              },
            }
          : {
              kind: 'failed',
              cell: {
                ...ref,
                error: {
                  kind: 'server',
                  message: `the imported run recorded Run Status '${c.row.runStatus}'`,
                },
              },
            };
      });
      store.cells.write(writes);
      auxPut(store, 'measure', p.identity, recordedScoresRequest(p.suite.hash, p.identity), p.record);
      store.runs.finish(runId, 'complete');
      return {
        run: p.run.folder,
        model: p.run.model,
        identity: p.identity,
        suiteHash: p.suite.hash,
        tests: p.suite.tests.length,
        cells: p.cells.length,
      };
    }),
  );
}
