import { InputError } from '../../../errors.js';
import type { Capabilities, GenerateRequest } from '../../../models/types.js';
import { auxPut } from '../../../run/aux-cache.js';
import { suiteOf } from '../../../run/suite.js';
import type { Suite, SuiteTest } from '../../../run/types.js';
import type { CellWrite, Store } from '../../../store/store.js';
import { hashOf } from '../../../util/hash.js';
import { WAVER_VERSION } from '../../../version.js';
import type { SagoModelRecord } from '../axes.js';
import type { SagoConfig } from '../config.js';
import { type ImportedRun, type SagoManifest, saveManifest } from '../manifest.js';
import type { SagoTestMeta } from '../result-types.js';
import { RESPONSES_SUITE } from '../suite-names.js';
import { type CheckCount, checkRuns, type ImportChecks } from './checks.js';
import {
  findRunFolders,
  type NumericColumn,
  type RunFolder,
  type RunRow,
  readRunFolder,
} from './run-folders.js';

/**
 * `waver import sago-runs`: the SAGO authors' recorded runs as waver suites (docs/sago.md#import).
 * One `sago/responses` suite per model, holding every row of its runs as two tests — the variant
 * (`prompt_pert`) and its own baseline (`prompt_orig`, role `pair-baseline`: each row of the
 * authors' files has a separately sampled baseline response) — with the recorded responses as
 * cells of the model `sago-runs:<model>`, the recorded measures as `measure` rows marked imported,
 * and a manifest naming the run folders and their metadata. Everything is read and checked first,
 * then written in one transaction.
 */

/** The measure row of one imported variant: the recorded columns of its CSV row. */
export const RECORD_MEASURE = 'sago-runs-record';

export interface RecordedRow {
  imported: true;
  source: 'sago-runs';
  run: string;
  line: number;
  values: Partial<Record<NumericColumn, number | null>>;
}

/** The record request of a variant test (aux kind `measure`, identity the imported model's). */
export function recordRequest(identity: string, suiteHash: string, testId: string) {
  return { measure: RECORD_MEASURE, model: identity, suite: suiteHash, test: testId };
}

/** The imported model's identity: its name as the authors recorded it, marked as imported. */
export function importedIdentity(model: string): string {
  return `sago-runs:${model}`;
}

/** An imported model exposes nothing: its axes come from the recorded columns (imported-results.ts). */
const NO_CAPABILITIES: Capabilities = {
  chat: true,
  tokenLogprobs: false,
  topLogprobs: 0,
  fullDistribution: false,
  scoreContinuation: false,
  embeddings: false,
};

interface ModelPlan {
  model: string;
  identity: string;
  runs: RunFolder[];
  suite: Suite;
  /** Per test: the response text and the request it answered. */
  cells: { testId: string; key: string; text: string; request: GenerateRequest }[];
  records: { testId: string; row: RecordedRow }[];
  datasets: { name: string; prompts: number }[];
  checks: ImportChecks;
}

export interface SagoRunsPlan {
  runs: RunFolder[];
  models: ModelPlan[];
  checks: ImportChecks;
}

export interface ImportedSuite {
  model: string;
  identity: string;
  suiteHash: string;
  tests: number;
  runs: string[];
  datasets: { name: string; prompts: number }[];
}

/** Reads and checks every run folder under `dirs`; writes nothing. */
export function planSagoRunsImport(dirs: readonly string[]): SagoRunsPlan {
  const runs = findRunFolders(dirs)
    .map(readRunFolder)
    .sort((a, b) => a.folder.localeCompare(b.folder));
  const byModel = new Map<string, RunFolder[]>();
  for (const run of runs) byModel.set(run.model, [...(byModel.get(run.model) ?? []), run]);
  const models = [...byModel].map(([model, modelRuns]) => modelPlan(model, modelRuns));
  const all = (pick: (c: ImportChecks) => CheckCount): CheckCount => ({
    checked: models.reduce((n, m) => n + pick(m.checks).checked, 0),
    mismatches: models.flatMap((m) => pick(m.checks).mismatches),
  });
  return {
    runs,
    models,
    checks: {
      bleu: all((c) => c.bleu),
      deltas: all((c) => c.deltas),
      baselineLogprob: all((c) => c.baselineLogprob),
      mirroring: all((c) => c.mirroring),
    },
  };
}

function modelPlan(model: string, runs: RunFolder[]): ModelPlan {
  const identity = importedIdentity(model);
  const tests: SuiteTest[] = [];
  const cells: ModelPlan['cells'] = [];
  const rows: { testId: string; run: RunFolder; row: RunRow }[] = [];
  const prompts = new Map<string, RowAt & { text: string }>();
  const seen = new Map<string, RowAt>();
  const datasets = new Map<string, Set<string>>();
  for (const run of runs) {
    for (const row of run.rows) {
      const promptKey = `${run.dataset}::${row.promptId}`;
      const id = `${promptKey}::${row.family}/${row.subtype}/${row.strength}/${row.place}`;
      checkRowIsNew(run, row, prompts.get(promptKey), seen.get(id));
      if (!prompts.has(promptKey)) prompts.set(promptKey, { text: row.promptOrig, run, line: row.line });
      seen.set(id, { run, line: row.line });
      const ids = datasets.get(run.dataset) ?? new Set<string>();
      ids.add(row.promptId);
      datasets.set(run.dataset, ids);
      const pair = rowTests(run, row, id, identity);
      tests.push(...pair.tests);
      cells.push(...pair.cells);
      rows.push({ testId: id, run, row });
    }
  }
  const suite = suiteOf(RESPONSES_SUITE, tests);
  const records = rows.map(({ testId, run, row }) => ({
    testId,
    row: {
      imported: true as const,
      source: 'sago-runs' as const,
      run: run.folder,
      line: row.line,
      values: Object.fromEntries(Object.entries(row.values).map(([c, v]) => [c, v ?? null])),
    },
  }));
  return {
    model,
    identity,
    runs,
    suite,
    cells,
    records,
    datasets: [...datasets].map(([name, ids]) => ({ name, prompts: ids.size })),
    checks: checkRuns(runs),
  };
}

/** Where a row was read. */
interface RowAt {
  run: RunFolder;
  line: number;
}

/** A row must not give its prompt id another prompt, nor repeat a variation of its prompt. */
function checkRowIsNew(
  run: RunFolder,
  row: RunRow,
  first: (RowAt & { text: string }) | undefined,
  twin: RowAt | undefined,
): void {
  if (first && first.text !== row.promptOrig)
    throw new InputError(
      `prompt ${row.promptId} of ${run.dataset} differs from the one in ${first.run.folder} line ${first.line} (same id, another prompt)`,
      { file: run.csv, line: row.line, field: 'prompt_orig' },
    );
  if (twin)
    throw new InputError(
      `a second row for prompt ${row.promptId}, ${row.subtype} at strength ${row.strength} (${row.place}); the first is ${twin.run.folder} line ${twin.line}`,
      { file: run.csv, line: row.line, field: 'strength' },
    );
}

/** A row's two tests (its own baseline, then the variant) and their recorded responses as cells. */
function rowTests(
  run: RunFolder,
  row: RunRow,
  id: string,
  identity: string,
): { tests: SuiteTest[]; cells: ModelPlan['cells'] } {
  const coordinates = {
    dataset: run.dataset,
    promptId: row.promptId,
    family: row.family,
    subtype: row.subtype,
    strength: row.strength,
    position: row.place as SagoTestMeta['position'],
    imported: { run: run.folder, line: row.line },
  };
  const pair: SagoTestMeta = { ...coordinates, role: 'pair-baseline', pairOf: id };
  const variant: SagoTestMeta = { ...coordinates, role: 'variant', generator: 'recorded' };
  const params = {
    ...(run.temperature !== undefined && { temperature: run.temperature }),
    ...(run.maxTokens !== undefined && { maxTokens: run.maxTokens }),
  };
  const cells: ModelPlan['cells'] = [];
  for (const [testId, prompt, text, side] of [
    [`${id}::orig`, row.promptOrig, row.responseOrig, 'orig'],
    [id, row.promptPert, row.responsePert, 'pert'],
  ] as const)
    cells.push({
      testId,
      // One recorded response each: two rows with the same prompt hold different samples.
      key: hashOf({ source: 'sago-runs', identity, run: run.folder, line: row.line, side }),
      text,
      request: { messages: [{ role: 'user', content: prompt }], ...params },
    });
  return {
    tests: [
      { id: `${id}::orig`, prompt: row.promptOrig, meta: { ...pair } },
      { id, prompt: row.promptPert, meta: { ...variant } },
    ],
    cells,
  };
}

/** Shortened for the manifest: counts, and the first mismatches of each check. */
const KEPT_MISMATCHES = 20;

function keptChecks(checks: ImportChecks): ImportChecks {
  const keep = (c: CheckCount) => ({
    checked: c.checked,
    mismatches: c.mismatches.slice(0, KEPT_MISMATCHES),
  });
  return {
    bleu: keep(checks.bleu),
    deltas: keep(checks.deltas),
    baselineLogprob: keep(checks.baselineLogprob),
    mirroring: keep(checks.mirroring),
  };
}

/**
 * Writes the plan in one transaction: every suite, cell, record and manifest, or nothing. The
 * manifest's settings are the sago settings the results are computed with.
 */
export function writeSagoRunsImport(
  store: Store,
  plan: SagoRunsPlan,
  ctx: { settings: SagoConfig; seed: number; minCoverage: number },
): ImportedSuite[] {
  return store.transaction(() =>
    plan.models.map((m) => {
      store.suites.save(m.suite);
      const params = sharedParams(m.runs);
      const runId = store.runs.begin({
        suiteHash: m.suite.hash,
        config: {
          import: 'sago-runs',
          models: [m.model],
          runs: m.runs.map((r) => r.folder),
          ...(Object.keys(params).length > 0 && { params }),
        },
        waverVersion: WAVER_VERSION,
      });
      const writes: CellWrite[] = m.cells.map((c) => ({
        kind: 'done',
        cell: {
          suiteHash: m.suite.hash,
          testId: c.testId,
          model: m.model,
          modelIdentity: m.identity,
          repeat: 0,
          runId,
          key: c.key,
          request: c.request,
          result: { text: c.text, finishReason: 'other', usage: { inputTokens: 0, outputTokens: 0 } },
          attempts: [],
        },
      }));
      store.cells.write(writes);
      for (const r of m.records)
        auxPut(store, 'measure', m.identity, recordRequest(m.identity, m.suite.hash, r.testId), r.row);
      store.runs.finish(runId, 'complete');
      const record: SagoModelRecord = {
        label: m.model,
        identity: m.identity,
        provider: 'replay',
        capabilities: { ...NO_CAPABILITIES },
      };
      const manifest: SagoManifest = {
        version: 1,
        responsesSuite: m.suite.hash,
        models: [record],
        seed: ctx.seed,
        minCoverage: ctx.minCoverage,
        settings: {
          ...ctx.settings,
          n: Math.max(...m.datasets.map((d) => d.prompts)),
          structural: 'generator',
        },
        datasets: m.datasets.map((d) => ({ name: d.name, available: d.prompts, n: d.prompts })),
        rejected: [],
        source: { kind: 'sago-runs', runs: m.runs.map(importedRun), checks: keptChecks(m.checks) },
      };
      saveManifest(store, manifest);
      return {
        model: m.model,
        identity: m.identity,
        suiteHash: m.suite.hash,
        tests: m.suite.tests.length,
        runs: m.runs.map((r) => r.folder),
        datasets: m.datasets,
      };
    }),
  );
}

function importedRun(r: RunFolder): ImportedRun {
  return {
    folder: r.folder,
    model: r.model,
    dataset: r.dataset,
    style: r.style,
    rows: r.rows.length,
    columns: r.columns,
    metadata: r.metadata,
  };
}

/** temperature and max_tokens when every run of the model used the same. */
function sharedParams(runs: readonly RunFolder[]): { temperature?: number; maxTokens?: number } {
  const one = <T>(xs: (T | undefined)[]) => (new Set(xs).size === 1 ? xs[0] : undefined);
  const temperature = one(runs.map((r) => r.temperature));
  const maxTokens = one(runs.map((r) => r.maxTokens));
  return {
    ...(temperature !== undefined && { temperature }),
    ...(maxTokens !== undefined && { maxTokens }),
  };
}
