import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsvRows } from '../../../data/csv.js';
import { InputError } from '../../../errors.js';
import { openStore, type Store } from '../../../store/store.js';
import {
  independentMissing,
  independentSgs,
  sagoRunsDir,
} from '../../../test-support/protocols/sago/import/independent-sgs.js';
import { bleuPair } from '../../../text-measures/bleu.js';
import { SagoConfig } from '../config.js';
import { latestManifest } from '../manifest.js';
import { loadSagoResults } from '../results.js';
import { sgsTable } from '../tables.js';
import { RESULTS_FILE } from './run-folders.js';
import { planSagoRunsImport, writeSagoRunsImport } from './sago-runs.js';

const EPS = [0.01, 0.05, 0.1];
const fixtures = sagoRunsDir ?? '';
const runDirs = () =>
  readdirSync(fixtures, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(fixtures, e.name))
    .sort();

function imported(dirs: readonly string[], opts: { reference?: boolean } = {}) {
  const store = openStore(':memory:');
  const plan = planSagoRunsImport(dirs);
  const settings = SagoConfig.parse({ reference: opts.reference ?? true });
  const suites = writeSagoRunsImport(store, plan, { settings, seed: 0, minCoverage: 0.9 });
  const results = suites.map((s) => loadSagoResults(store, s.suiteHash));
  return { store, plan, suites, results };
}

/** A copy of the fixture runs to alter: CSV text is changed by `edit(folderName, csvText)`. */
function alteredCopy(edit: (folder: string, csv: string) => string): string {
  const root = mkdtempSync(join(tmpdir(), 'waver-sago-runs-'));
  for (const dir of runDirs()) {
    const name = dir.slice(fixtures.length + 1);
    mkdirSync(join(root, name));
    copyFileSync(join(dir, 'metadata.json'), join(root, name, 'metadata.json'));
    writeFileSync(join(root, name, RESULTS_FILE), edit(name, readFileSync(join(dir, RESULTS_FILE), 'utf8')));
  }
  return root;
}

/** Rewrites one field of one CSV record (1-based record index, header excluded). */
function setField(csv: string, record: number, column: string, value: string): string {
  const rows = parseCsvRows(csv);
  const header = rows[0]?.values ?? [];
  const k = header.indexOf(column);
  const row = rows[record];
  if (!row || k < 0) throw new Error(`no record ${record} / column ${column}`);
  row.values[k] = value;
  return `${rows.map((r) => r.values.map(quote).join(',')).join('\n')}\n`;
}

function dropColumn(csv: string, column: string): string {
  const rows = parseCsvRows(csv);
  const k = rows[0]?.values.indexOf(column) ?? -1;
  return `${rows
    .map((r) =>
      r.values
        .filter((_, j) => j !== k)
        .map(quote)
        .join(','),
    )
    .join('\n')}\n`;
}

const quote = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The line a record starts on in a run's CSV (responses hold line breaks, so not record + 1). */
function lineOf(root: string, folderPart: string, record: number): number {
  const name = readdirSync(root).find((n) => n.includes(folderPart)) ?? '';
  return parseCsvRows(readFileSync(join(root, name, RESULTS_FILE), 'utf8'))[record]?.line ?? -1;
}

function suitesIn(store: Store): number {
  return store.suites.list().length;
}

const withFixtures = sagoRunsDir ? describe : describe.skip;
const withPython = independentMissing === undefined ? it : it.skip;

withFixtures(
  `waver import sago-runs on the authors' recorded runs ${sagoRunsDir ? '' : '(skipped: ../shared/fixtures/sago-runs is not there)'}`,
  () => {
    it('stores one suite per model with every row as a variant and its own baseline, and the metadata in the manifest', () => {
      const { store, suites } = imported([fixtures]);
      expect(suites.map((s) => [s.model, s.tests, s.runs.length])).toEqual([
        ['claude-sonnet-4-6', 256, 2],
        ['gpt-5.4', 416, 2],
      ]);
      const manifest = latestManifest(store, suites[0]?.suiteHash);
      expect(manifest?.source?.runs.map((r) => [r.style, r.rows, r.columns, r.metadata.dataset])).toEqual([
        ['inter_vs_imper', 32, 22, 'simpleqa_verified'],
        ['letter_case', 96, 22, 'simpleqa_verified'],
      ]);
      expect(
        (manifest?.source?.runs[0]?.metadata.config as Record<string, unknown> | undefined)?.max_tokens,
      ).toBe(100);
      const cells = store.cells.ofRepeat(suites[0]?.suiteHash ?? '', 'sago-runs:claude-sonnet-4-6', 0);
      expect(cells).toHaveLength(256);
      expect(cells.every((c) => c.status === 'done')).toBe(true);
    });

    it("waver's BLEU of each recorded pair equals the bleu column, and every delta column follows from its raw one", () => {
      const { plan } = imported([fixtures]);
      expect(plan.checks.bleu).toEqual({ checked: 336, mismatches: [] });
      expect(plan.checks.deltas.checked).toBeGreaterThan(1000);
      expect(plan.checks.deltas.mismatches).toEqual([]);
      expect(plan.checks.baselineLogprob).toEqual({ checked: 32, mismatches: [] });
      // waver's port of the authors' noise rules gives the recorded verdict on every letter-case row.
      expect(plan.checks.mirroring).toEqual({ checked: 192, mismatches: [] });
    });

    it('reports a recorded value that does not follow, naming run, line and column', () => {
      const root = alteredCopy((folder, csv) =>
        folder.includes('gpt_5_4_trivia_qa_letter_case')
          ? setField(setField(csv, 20, 'delta_bleu', '12.5'), 21, 'bleu', '50')
          : csv,
      );
      const { plan } = imported([root]);
      expect(plan.checks.deltas.mismatches).toContainEqual(
        expect.objectContaining({
          run: 'run_gpt_5_4_trivia_qa_letter_case_20260501_032456',
          column: 'delta_bleu',
          recorded: 12.5,
        }),
      );
      expect(plan.checks.bleu.mismatches).toEqual([
        expect.objectContaining({
          run: 'run_gpt_5_4_trivia_qa_letter_case_20260501_032456',
          column: 'bleu',
          recorded: 50,
        }),
      ]);
    });

    withPython(
      `SGS per model x dataset x axis equals an independent numpy/scipy computation from the CSV files ${independentMissing ?? ''}`,
      () => {
        const { results } = imported([fixtures]);
        const ours = results.flatMap(sgsTable).filter((r) => r.dataset !== 'total');
        const theirs = independentSgs(runDirs(), EPS);
        expect(ours.map((r) => `${r.model}/${r.dataset}/${r.axis}`).sort()).toEqual(
          theirs.map((r) => `${r.model}/${r.dataset}/${r.axis}`).sort(),
        );
        for (const t of theirs) {
          const o = ours.find((r) => r.model === t.model && r.dataset === t.dataset && r.axis === t.axis);
          expect(o?.n).toBe(t.n);
          expect(o?.sgs).toBeCloseTo(t.sgs, 10);
          expect(o?.sd).toBeCloseTo(t.sd, 10);
          for (const e of EPS) expect(o?.p[String(e)]).toBeCloseTo(t.p[String(e)] as number, 10);
        }
        // The figures docs/fidelity.md#sago compares with the paper's Table 1 and Table 6.
        const at = (model: string, axis: string) =>
          ours.find((r) => r.model === model && r.axis === axis)?.sgs;
        expect(at('gpt-5.4', 'bleu')).toBeCloseTo(0.485, 3);
        expect(at('gpt-5.4', 'entropy')).toBeCloseTo(0.0967, 4);
        expect(at('claude-sonnet-4-6', 'bleu')).toBeCloseTo(0.362, 3);
      },
    );

    withPython(
      `reads the 21-column version of the file (no delta_entropy) to the same SGS ${independentMissing ?? ''}`,
      () => {
        const root = alteredCopy((_, csv) => dropColumn(csv, 'delta_entropy'));
        const { plan, results } = imported([root]);
        expect(plan.runs.every((r) => r.columns === 21)).toBe(true);
        const full = imported([fixtures]).results.flatMap(sgsTable);
        const short = results.flatMap(sgsTable);
        expect(short.map((r) => [r.model, r.axis, r.sgs])).toEqual(full.map((r) => [r.model, r.axis, r.sgs]));
      },
    );

    it("--paper reads Delta as the paper writes it: against the row's own baseline response, not the strength-0 row", () => {
      const reference = imported([fixtures]).results.flatMap(sgsTable);
      const { store, suites, results } = imported([fixtures], { reference: false });
      const paper = results.flatMap(sgsTable);
      const bleu = (rows: typeof paper, model: string) =>
        rows.find((r) => r.model === model && r.axis === 'bleu' && r.dataset !== 'total')?.sgs;
      expect(bleu(paper, 'claude-sonnet-4-6')).toBeGreaterThan(
        (bleu(reference, 'claude-sonnet-4-6') ?? 1) + 0.05,
      );
      // One cell by hand: BLEU(y_v, y) - BLEU(y, y) of that row's own responses, in the reference BLEU mode.
      const r = results[0];
      const suite = store.suites.get(suites[0]?.suiteHash ?? '');
      const cells = new Map(
        store.cells
          .ofRepeat(suite?.hash ?? '', 'sago-runs:claude-sonnet-4-6', 0)
          .map((c) => [c.testId, c.text ?? '']),
      );
      const col = r?.variations.findIndex((v) => v.key === 'noise/casing/10/global') ?? -1;
      const id = 'simpleqa_verified::0::noise/casing/10/global';
      const expected =
        bleuPair(cells.get(id) ?? '', cells.get(`${id}::orig`) ?? '', 'sago-reference').score -
        bleuPair(cells.get(`${id}::orig`) ?? '', cells.get(`${id}::orig`) ?? '', 'sago-reference').score;
      const V = r?.variations.length ?? 0;
      expect(r?.models[0]?.table.deltas.bleu?.[0 * V + col]).toBeCloseTo(expected, 12);
      // The strength-0 rows are in V in the paper's reading (register strength 0 is one of its levels).
      expect(r?.variations.some((v) => v.key === 'noise/casing/0/global')).toBe(true);
    });
  },
);

withFixtures(
  'bad input to waver import sago-runs: one error naming file, line and column, nothing written',
  () => {
    const expectInputError = (
      root: string,
      match: { line?: number; field?: string; message: RegExp; file?: RegExp },
    ) => {
      let error: unknown;
      try {
        planSagoRunsImport([root]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      const e = error as InputError;
      expect(e.message).toMatch(match.message);
      if (match.line !== undefined) expect(e.line).toBe(match.line);
      if (match.field !== undefined) expect(e.field).toBe(match.field);
      expect(e.file).toMatch(match.file ?? /full_results_all_models\.csv$/);
    };

    it('a missing column', () => {
      const root = alteredCopy((folder, csv) =>
        folder.includes('politeness') ? dropColumn(csv, 'bleu') : csv,
      );
      expectInputError(root, { line: 1, field: 'bleu', message: /missing column 'bleu'/ });
    });

    it('a row with another prompt for the same id', () => {
      const root = alteredCopy((folder, csv) =>
        folder.includes('claude_sonnet_4_6_simpleqa_verified_letter_case')
          ? setField(csv, 3, 'prompt_orig', 'What is a pulsar?')
          : csv,
      );
      expectInputError(root, {
        line: lineOf(root, 'claude_sonnet_4_6_simpleqa_verified_letter_case', 3),
        field: 'prompt_orig',
        message: /prompt 2 of simpleqa_verified differs/,
      });
    });

    it('a value that is not a number', () => {
      const root = alteredCopy((folder, csv) =>
        folder.includes('gpt_5_4_trivia_qa_politeness') ? setField(csv, 5, 'entropy_shift', 'high') : csv,
      );
      expectInputError(root, {
        line: lineOf(root, 'gpt_5_4_trivia_qa_politeness', 5),
        field: 'entropy_shift',
        message: /expected a number, got 'high'/,
      });
    });

    it('leaves a store untouched', () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-sago-runs-store-'));
      const path = join(dir, 'store.db');
      const store = openStore(path);
      writeSagoRunsImport(
        store,
        planSagoRunsImport([
          join(fixtures, readdirSync(fixtures).filter((n) => n.startsWith('run_'))[0] ?? ''),
        ]),
        {
          settings: SagoConfig.parse({ reference: true }),
          seed: 0,
          minCoverage: 0.9,
        },
      );
      const before = suitesIn(store);
      const bad = alteredCopy((_, csv) => setField(csv, 1, 'bleu', 'x'));
      expect(() => planSagoRunsImport([bad])).toThrow(InputError);
      expect(suitesIn(store)).toBe(before);
      store.close();
    });
  },
);
