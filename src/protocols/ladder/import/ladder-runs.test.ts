import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsvRows } from '../../../data/csv.js';
import { InputError } from '../../../errors.js';
import { openStore } from '../../../store/store.js';
import { ladderSettings } from '../config.js';
import { familyName } from '../families/roster.js';
import { loadLadderResults } from '../results.js';
import { type Family, LEVELS } from '../types.js';
import { aggregateSummary } from './aggregates.js';
import { planLadderRunsImport, writeLadderRunsImport } from './ladder-runs.js';
import type { LadderRunFolder } from './run-folders.js';
import { ladderRunSummary, ladderRunsMarkdown } from './summary.js';
import { demoMissing, demoRunFolder } from './test-support/demo-run.js';
import { fullRunFolder, fullRunMissing } from './test-support/full-run.js';
import {
  NOTEBOOK_AGGREGATE,
  PAPER_TABLE5,
  PUBLISHED_MODELS,
  publishedMissing,
  publishedRunsFolder,
} from './test-support/published-runs.js';

const withDemo = demoMissing === undefined ? describe : describe.skip;

function importDemo(dirs: readonly string[]) {
  const store = openStore(':memory:');
  const plan = planLadderRunsImport(dirs);
  const [suite] = writeLadderRunsImport(store, plan);
  if (!suite) throw new Error('nothing imported');
  return { store, plan, suite, results: loadLadderResults(store, suite.suiteHash) };
}

/** Rewrites one field of one record of a CSV file (record 1 = the first data row). */
function setField(file: string, record: number, column: string, value: string): number {
  const rows = parseCsvRows(readFileSync(file, 'utf8'));
  const k = rows[0]?.values.indexOf(column) ?? -1;
  const row = rows[record];
  if (!row || k < 0) throw new Error(`no record ${record} / column ${column}`);
  row.values[k] = value;
  const quote = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  writeFileSync(file, `${rows.map((r) => r.values.map(quote).join(',')).join('\n')}\n`);
  return row.line;
}

withDemo(
  `waver import ladder-runs on a run folder assembled from the reference's demo eval ${demoMissing ?? ''}`,
  () => {
    it("reproduces the per-level accuracies and Collapse Points of the reference's own aggregation", () => {
      const demo = demoRunFolder();
      const { results, suite, plan } = importDemo([demo.root]);
      expect(suite).toMatchObject({
        model: 'gpt-4o-mini',
        identity: 'ladder-runs:gpt-4o-mini',
        tests: 45,
        cells: 47,
      });
      const m = results.models[0];
      if (!m) throw new Error('no model');
      expect(m.coverage).toMatchObject({ total: 47, done: 47, failed: 0 });
      expect(Object.keys(demo.accuracy).sort()).toEqual(['CI', 'CIS', 'CL', 'F', 'IQ', 'KB', 'SV']);
      for (const [family, levels] of Object.entries(demo.accuracy)) {
        const f = m.metrics.families.find((x) => x.family === (family as Family));
        expect(m.metrics.baseline.accuracy.value).toBeCloseTo(levels.L0 as number, 12);
        for (const k of LEVELS) {
          const theirs = levels[`L${k}`];
          const ours = f?.levels[k].accuracy.value;
          if (theirs === undefined) expect(ours, `${family} L${k}`).toBeUndefined();
          else expect(ours, `${family} L${k}`).toBeCloseTo(theirs, 12);
        }
        const cp = f?.collapse.status === 'collapsed' ? `L${f.collapse.level}` : f?.collapse.status;
        expect(cp, `${family} CP`).toBe(demo.collapse[family] === '' ? 'never' : demo.collapse[family]);
      }
      // The run's own metrics files agree with its rows.
      expect(plan.runs[0]?.mismatches).toEqual([]);
      // Knowledge Boundary keeps the recorded Sim, not a judge call: three rows were never judged,
      // left out of Stability and counted wrong in Accuracy (the reference's >= 0.80 on a blank).
      const kb = m.cells.filter((c) => c.family === 'KB');
      expect(kb.map((c) => c.score)).toEqual([0, undefined, undefined, undefined]);
      expect(kb.map((c) => c.correct)).toEqual([0, 0, 0, 0]);
      expect(kb[0]?.judge?.reason).toMatch(/recorded by gpt-4o-mini__demo line \d+/);
      expect(kb[1]?.judge?.status).toBe('not-run');
    });

    it('reports a recorded metrics file that does not follow from the rows', () => {
      const demo = demoRunFolder();
      const acc = join(demo.dir, 'metrics_acc.csv');
      const rows = parseCsvRows(readFileSync(acc, 'utf8'));
      const ci = rows.findIndex((r) => r.values[0] === 'CI');
      setField(acc, ci, 'L1', '0.5');
      const { plan } = importDemo([demo.root]);
      expect(plan.runs[0]?.mismatches).toEqual([
        expect.objectContaining({ family: 'CI', column: 'L1', recorded: '0.5', computed: '0.25' }),
      ]);
    });

    const expectInputError = (
      root: string,
      match: { file: RegExp; line?: number; field?: string; message: RegExp },
    ) => {
      let error: unknown;
      try {
        planLadderRunsImport([root]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      const e = error as InputError;
      expect(e.file).toMatch(match.file);
      expect(e.message).toMatch(match.message);
      if (match.line !== undefined) expect(e.line).toBe(match.line);
      if (match.field !== undefined) expect(e.field).toBe(match.field);
    };

    it('bad input: a missing column, a different prompt for the same row, a value that is not a number', () => {
      const missing = demoRunFolder();
      const evalFile = join(missing.dir, 'eval.csv');
      writeFileSync(evalFile, readFileSync(evalFile, 'utf8').replace('Sim: outputs', 'Sim: output'));
      expectInputError(missing.root, {
        file: /eval\.csv$/,
        line: 1,
        field: 'Sim: outputs',
        message: /missing column 'Sim: outputs'/,
      });

      const other = demoRunFolder();
      const line = setField(
        join(other.dir, 'responses.csv'),
        5,
        'Generated Input',
        '[QUESTION] How many apples?',
      );
      expectInputError(other.root, {
        file: /eval\.csv$/,
        line,
        field: 'Generated Input',
        message: new RegExp(`different prompt than responses\\.csv line ${line}`),
      });

      const seed = demoRunFolder();
      for (const f of ['eval.csv', 'responses.csv'])
        setField(join(seed.dir, f), 2, 'Generated Input', '[QUESTION] How many pears?');
      expectInputError(seed.root, {
        file: /eval\.csv$/,
        field: 'Generated Input',
        message: /source row 0 asks another question/,
      });

      const nan = demoRunFolder();
      const at = setField(join(nan.dir, 'eval.csv'), 7, 'Sim: outputs', 'high');
      expectInputError(nan.root, {
        file: /eval\.csv$/,
        line: at,
        field: 'Sim: outputs',
        message: /expected a number, got 'high'/,
      });
    });
  },
);

const withPython = fullRunMissing === undefined ? describe : describe.skip;

withPython(
  `waver import ladder-runs on a full run as the repository ships it: eval.csv and manifest.json only ${fullRunMissing ?? ''}`,
  () => {
    it("reproduces the reference notebooks' Table 4, Table 5 and aggregate curve, in the reference mode", () => {
      const run = fullRunFolder();
      // The repository's root: the run folder is found under experiment/output/runs/.
      const plan = planLadderRunsImport([run.root]);
      expect(plan.runs.map((p) => p.run.dir)).toEqual([run.dir]);
      expect(plan.runs[0]?.run.accuracy).toBeUndefined();
      const store = openStore(':memory:');
      const [suite] = writeLadderRunsImport(store, plan);
      if (!suite) throw new Error('nothing imported');
      const settings = ladderSettings({ ladder: { reference: true, resamples: 200 } });
      const m = loadLadderResults(store, suite.suiteHash, { settings }).models[0];
      if (!m) throw new Error('no model');
      const ref = run.reference;
      const summary = ladderRunSummary(suite, plan.runs[0] as (typeof plan.runs)[number], m);

      // Table 4: the Baseline row is the baseline's mean Sim over the answered rows, not acc(L0).
      expect(m.metrics.baseline.accuracy.value).toBeCloseTo(ref.acc0, 12);
      expect(ref.stability.Baseline).not.toBeCloseTo(ref.acc0, 6);
      expect(summary.stability.baseline.value).toBeCloseTo(ref.stability.Baseline as number, 12);
      for (const f of summary.stability.families) {
        const theirs = ref.stability[familyName(f.family)];
        expect(f.stability.value, f.family).toBeCloseTo(theirs as number, 12);
      }
      // Table 5.
      expect(Object.fromEntries(summary.collapse.families.map((f) => [f.family, f.collapse]))).toEqual(
        Object.fromEntries(Object.entries(ref.collapse).map(([f, cp]) => [f, cp === '—' ? 'never' : cp])),
      );
      expect(Object.values(ref.collapse).some((cp) => cp !== '—')).toBe(true);
      // Section 5.1: the aggregate L0..L5 curve.
      (['L0', 'L1', 'L2', 'L3', 'L4', 'L5'] as const).forEach((l, k) => {
        expect(summary.aggregate[l].value, l).toBeCloseTo(ref.aggregate[k] as number, 12);
      });
      expect(summary.mismatches).toEqual([]);
      // Figure 2 (quadrant: reference): each family at its mean Score and mean Sim, the baseline at 0.
      const q = m.metrics.quadrant;
      expect(q.xThreshold).toBeCloseTo(ref.xThreshold, 12);
      expect(q.baseline?.y).toBeCloseTo(ref.quadrant['Temporal Consistency']?.y as number, 12);
      for (const p of q.points) {
        const theirs = ref.quadrant[familyName(p.family)];
        expect(p.x, p.family).toBeCloseTo(theirs?.x as number, 12);
        expect(p.y, p.family).toBeCloseTo(theirs?.y as number, 12);
      }
    });
  },
);

(publishedMissing === undefined ? describe : describe.skip)(
  `waver import ladder-runs on the reference repository's four full runs as its snapshot holds them: metrics files, no eval.csv ${publishedMissing ?? ''}`,
  () => {
    it("gives the reference rule's Collapse Points from metrics_acc.csv, acc(L0), and says what needs eval.csv", () => {
      const published = publishedRunsFolder();
      const plan = planLadderRunsImport([published.root]);
      // Nothing to store: no rows.
      expect(plan.runs).toEqual([]);
      expect(plan.aggregatesOnly.map((r) => r.dir).sort()).toEqual(Object.values(published.dirs).sort());
      const summaries = plan.aggregatesOnly.map(aggregateSummary);
      const markdown = ladderRunsMarkdown([], summaries);
      for (const model of PUBLISHED_MODELS) {
        const s = summaries.find((x) => x.model === model);
        if (!s) throw new Error(`no summary for ${model}`);
        const ref = published.reference[model];
        // Rounding to 3 decimals decides nothing here: every comparison is further from tau than
        // the most the rounding of a value and of acc(L0) can move them (0.0005 + 0.8 x 0.0005).
        expect(ref.closest).toBeGreaterThan(0.0009);
        expect(s.collapse.rounding).toBe(0.0005);
        const got = Object.fromEntries(
          s.collapse.families.map((f) => [f.family, f.collapse === 'never' ? '—' : f.collapse]),
        );
        // Table 5, all 7 families: the reference's own rule on the file.
        expect(got).toEqual(ref.collapse);
        // ...which is the paper's (and the walkthrough notebook's) on the 24 cells outside KB.
        for (const [family, byModel] of Object.entries(PAPER_TABLE5))
          if (family !== 'KB') expect(ref.collapse[family], `${model} ${family}`).toBe(byModel[model]);
        // KB: the committed metrics_acc.csv KB row (L1 0.00-0.20) gives L1 for every model, the
        // paper L3 / L3 / L3 / L5: that row is stale, and metrics_summary.csv follows it.
        expect(ref.collapse.KB).toBe('L1');
        expect(PAPER_TABLE5.KB?.[model]).not.toBe('L1');
        expect(s.collapse.families.find((f) => f.family === 'KB')?.recorded).toBe('L1');
        expect(s.mismatches).toEqual([]);
        // Section 5.1: acc(L0) is in the file; the pooled L1..L5 need the rows.
        expect(s.aggregate.L0.value).toBe(ref.acc0);
        expect(s.aggregate.L0.value).toBeCloseTo(NOTEBOOK_AGGREGATE[model][0] as number, 9);
        for (const l of ['L1', 'L2', 'L3', 'L4', 'L5'] as const) {
          expect(s.aggregate[l].value).toBeNull();
          expect(s.aggregate[l].unavailable).toMatch(/^needs eval\.csv: the paper pools every family's rows/);
        }
        // Table 4: unavailable, never 0.
        expect(s.stability.unavailable).toMatch(/^needs eval\.csv/);
      }
      const table4 = markdown
        .split('### Table 4')
        .slice(1)
        .map((part) => part.split('### Table 5')[0] ?? '');
      expect(table4).toHaveLength(4);
      for (const part of table4) {
        expect(part.match(/unavailable: needs eval\.csv/g)).toHaveLength(8);
        expect(part).not.toMatch(/\d\.\d/);
      }
    });

    it('marks a level within the rounding of tau undecided instead of guessing', () => {
      const published = publishedRunsFolder();
      // gpt-4o-mini: tau = 0.80 x 0.887 = 0.7096; CI L1 0.619 collapses. Put CI L1 at 0.710,
      // within 0.0009 of tau: the unrounded value could lie on either side.
      const file = join(published.dirs['gpt-4o-mini'], 'metrics_acc.csv');
      writeFileSync(file, readFileSync(file, 'utf8').replace('CI,0.887,0.619,', 'CI,0.887,0.710,'));
      const s = aggregateSummary(
        planLadderRunsImport([published.dirs['gpt-4o-mini']]).aggregatesOnly[0] as LadderRunFolder,
      );
      const ci = s.collapse.families.find((f) => f.family === 'CI');
      expect(ci?.collapse).toBe('undecided');
      expect(ci?.undecided).toMatch(
        /^L1: 0\.71 is within the file's rounding \(±0\.0005\) of tau = 0\.80 x 0\.887 = 0\.7096/,
      );
      expect(s.mismatches).toContainEqual(
        expect.objectContaining({ family: 'CI', recorded: 'L1', computed: 'undecided' }),
      );
    });

    it('bad input in metrics_acc.csv: exit-2 errors naming file, line and column', () => {
      const published = publishedRunsFolder();
      const file = join(published.dirs['o4-mini'], 'metrics_acc.csv');
      const original = readFileSync(file, 'utf8');
      const cases: [string, RegExp, number, string][] = [
        [
          original.replace('CIS,0.98,0.916', 'CIS,0.98,1.916'),
          /an accuracy in \[0, 1\] expected, got 1\.916/,
          3,
          'L1',
        ],
        [original.replace('KB,0.98,', 'KB,,'), /no baseline accuracy/, 7, 'L0'],
        [original.replace('fam,L0,', 'fam,L9,'), /expected level columns L0\.\.L5, got 'L9'/, 1, 'L9'],
      ];
      for (const [text, message, line, field] of cases) {
        writeFileSync(file, text);
        let error: unknown;
        try {
          planLadderRunsImport([published.root]);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(InputError);
        expect((error as InputError).file).toBe(file);
        expect((error as InputError).message).toMatch(message);
        expect((error as InputError).line).toBe(line);
        expect((error as InputError).field).toBe(field);
      }
    });
  },
);
