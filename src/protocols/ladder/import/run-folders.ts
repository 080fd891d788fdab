import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type CsvRecord, type CsvTable, readCsv, requireColumns } from '../../../data/csv.js';
import { InputError } from '../../../errors.js';
import { familyCodes, familyName, isFamilyCode, keepsNoAnswer } from '../families/roster.js';
import type { Family, Level } from '../types.js';

/**
 * The ladder reference's run folders (`experiment/output/runs/<name>__<dataset>/`, written by its
 * `experiment/run_sut_model.py`): `eval.csv` (one row per test call with the evaluator's columns:
 * `GT: <key>`, `Sim: <key>`, `Sim: outputs`, `Judge Method`..., and `Raw Response` where the run
 * kept it); optional beside it `responses.csv` (the same rows before scoring, checked row for row
 * against eval.csv), `metrics_acc.csv` (per family, accuracy by level L0..L5, rounded to 3
 * decimals), `metrics_summary.csv` (per family, the Collapse Point) and `manifest.json`. A folder
 * needs eval.csv or metrics_acc.csv: without eval.csv (as the repository's four full runs reach a
 * copy whose large files were left out) only the aggregates are read, and what needs the rows is
 * unavailable (./aggregates.ts). Every value is checked here: a bad one is an InputError naming
 * file, line and column.
 */

export const EVAL_FILE = 'eval.csv';
export const RESPONSES_FILE = 'responses.csv';
export const ACC_FILE = 'metrics_acc.csv';
export const SUMMARY_FILE = 'metrics_summary.csv';
export const MANIFEST_FILE = 'manifest.json';

/** The reference's correctness threshold on `Sim: outputs` when the manifest names none. */
export const DEFAULT_THRESHOLD = 0.8;

export const BASELINE_CATEGORY = 'Temporal Consistency';

/** The family a reference run's `Category` names (its name, `Semantic Variation`), if any. */
function familyOfCategory(category: string): Family | undefined {
  return familyCodes().find((f) => familyName(f) === category);
}

const EVAL_COLUMNS = [
  'Category',
  'Classified Level',
  'Source Row',
  'Generated Input',
  'Sim: outputs',
] as const;
const RESPONSE_COLUMNS = ['Category', 'Source Row', 'Generated Input'] as const;
/** How deep under an argument a run folder is looked for: the repository root is four above one. */
const SEARCH_DEPTH = 4;

export interface LadderRunRow {
  /** 1-based line of the eval.csv record. */
  line: number;
  sourceRow: number;
  family: Family | 'baseline';
  requestedLevel: Level | 0;
  measuredLevel: Level | 0;
  attempt?: number;
  text: string;
  original?: string;
  sim?: number;
  gold?: number | 'unanswerable';
  /** The test's perturbation magnitude (`Score`, 1 - SIM), where the row records it. */
  magnitude?: number;
  /** The recorded score in [0, 1] (`Sim: outputs`); undefined when the evaluator gave none (a failed call, no prediction). */
  score?: number;
  ok: boolean;
  runStatus: string;
  response: string;
  judgeMethod?: string;
  judgeReason?: string;
}

export interface LadderRunFolder {
  dir: string;
  folder: string;
  /** The eval.csv read; absent for a folder holding only the metrics files (`rows` is then empty). */
  evalFile?: string;
  model: string;
  dataset: string;
  threshold: number;
  manifest?: Record<string, unknown>;
  rows: LadderRunRow[];
  /** metrics_acc.csv: family -> level name (`L0`..`L5`) -> accuracy, undefined where empty; absent without the file. */
  accuracy?: Map<Family, Map<string, number | undefined>>;
  /** The most decimals a value of metrics_acc.csv is written with (3: the reference rounds them). */
  accDecimals?: number;
  accFile?: string;
  /** metrics_summary.csv: family -> Collapse Point (`L3`, or undefined for none); absent without the file. */
  collapse?: Map<Family, string | undefined>;
  summaryFile?: string;
}

/**
 * The run folders under each argument: the folder itself when it holds eval.csv or
 * metrics_acc.csv, else its subfolders down to four levels (so the repository's root finds
 * `experiment/output/runs/*`); hidden folders are skipped.
 */
export function findLadderRunFolders(dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new InputError('not a directory', { file: dir });
    const found = foldersIn(dir, SEARCH_DEPTH);
    if (found.length === 0)
      throw new InputError(
        `no ladder run folder here: expected ${EVAL_FILE} or ${ACC_FILE} in it or in its subfolders`,
        {
          file: dir,
        },
      );
    out.push(...found);
  }
  return [...new Set(out)];
}

function foldersIn(dir: string, depth: number): string[] {
  if (existsSync(join(dir, EVAL_FILE)) || existsSync(join(dir, ACC_FILE))) return [dir];
  if (depth === 0) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort()
    .flatMap((name) => foldersIn(join(dir, name), depth - 1));
}

function optional(dir: string, name: string): string | undefined {
  const file = join(dir, name);
  return existsSync(file) ? file : undefined;
}

/** Reads and checks one run folder. */
export function readLadderRunFolder(dir: string): LadderRunFolder {
  const evalFile = optional(dir, EVAL_FILE);
  const accFile = optional(dir, ACC_FILE);
  const folder = basename(dir);
  const manifest = existsSync(join(dir, MANIFEST_FILE)) ? readJson(join(dir, MANIFEST_FILE)) : undefined;
  // The folder is `<model>__<dataset>`; the manifest names both when it is there.
  const [namePart, datasetPart] = folder.includes('__') ? folder.split('__', 2) : [folder, undefined];
  const model = stringOr(manifest?.sut_model, namePart as string);
  const dataset = stringOr(manifest?.dataset, datasetPart ?? 'dataset');
  const threshold = typeof manifest?.threshold === 'number' ? manifest.threshold : DEFAULT_THRESHOLD;
  const summaryFile = join(dir, SUMMARY_FILE);
  const metrics = {
    ...(manifest && { manifest }),
    ...(accFile && { ...readAccuracy(accFile), accFile }),
    ...(existsSync(summaryFile) && { collapse: readCollapse(summaryFile), summaryFile }),
  };
  if (!evalFile) {
    if (!accFile) throw new InputError(`neither ${EVAL_FILE} nor ${ACC_FILE} here`, { file: dir });
    return { dir, folder, model, dataset, threshold, rows: [], ...metrics };
  }
  const responsesFile = optional(dir, RESPONSES_FILE);
  const evals = readCsv(evalFile);
  requireColumns(evals, EVAL_COLUMNS, evalFile);
  const responses = responsesFile ? readCsv(responsesFile) : undefined;
  if (responses && responsesFile) {
    requireColumns(responses, RESPONSE_COLUMNS, responsesFile);
    if (responses.records.length !== evals.records.length)
      throw new InputError(
        `${responses.records.length} rows, but ${EVAL_FILE} has ${evals.records.length} (the evaluator keeps every row, in order)`,
        { file: responsesFile },
      );
  }
  const rows = evals.records.map((r, i) => rowOf(r, responses?.records[i], evals, evalFile));
  checkSeeds(rows, evalFile);
  return { dir, folder, evalFile, model, dataset, threshold, rows, ...metrics };
}

function stringOr(v: unknown, fallback: string): string {
  return typeof v === 'string' && v !== '' ? v : fallback;
}

function readJson(file: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch (e) {
    throw new InputError(`not JSON: ${(e as Error).message}`, { file });
  }
  throw new InputError('expected a JSON object', { file });
}

type Where = { file: string; line: number; field: string };

function numberOf(
  value: string | undefined,
  where: Where,
  blanks: readonly string[] = [''],
): number | undefined {
  const v = (value ?? '').trim();
  if (blanks.includes(v) || v.toLowerCase() === 'nan' || v === 'None') return undefined;
  const n = Number(v);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v) || !Number.isFinite(n))
    throw new InputError(`expected a number, got '${value}'`, where);
  return n;
}

function levelOf(value: string | undefined, where: Where): Level | 0 {
  const m = /^L([0-5])$/.exec((value ?? '').trim());
  if (!m) throw new InputError(`expected a level L0..L5, got '${value}'`, where);
  return Number(m[1]) as Level | 0;
}

function rowOf(
  r: CsvRecord,
  response: CsvRecord | undefined,
  evals: CsvTable,
  evalFile: string,
): LadderRunRow {
  const f = r.fields;
  const at = (field: string): Where => ({ file: evalFile, line: r.line, field });
  const category = (f.Category ?? '').trim();
  const family = category === BASELINE_CATEGORY ? 'baseline' : familyOfCategory(category);
  if (!family) throw new InputError(`unknown category '${category}'`, at('Category'));
  const sourceRow = numberOf(f['Source Row'], at('Source Row'));
  if (sourceRow === undefined || !Number.isInteger(sourceRow))
    throw new InputError(`expected a row index, got '${f['Source Row']}'`, at('Source Row'));
  const text = f['Generated Input'] ?? '';
  if (
    response &&
    (response.fields['Generated Input'] !== text || Number(response.fields['Source Row']) !== sourceRow)
  )
    throw new InputError(
      `a different prompt than ${RESPONSES_FILE} line ${response.line} for the same row (the evaluator keeps rows in order)`,
      at('Generated Input'),
    );
  const measuredLevel = levelOf(f['Classified Level'], at('Classified Level'));
  const requestedLevel = f['Target Level'] ? levelOf(f['Target Level'], at('Target Level')) : measuredLevel;
  if ((family === 'baseline') !== (measuredLevel === 0))
    throw new InputError(`level ${f['Classified Level']} for ${category}`, at('Classified Level'));
  const gtColumn = evals.header.find((h) => h.startsWith('GT: '));
  const gtText = gtColumn ? (f[gtColumn] ?? '').trim() : '';
  const gold = keepsNoAnswer(family)
    ? ('unanswerable' as const)
    : gtColumn
      ? numberOf(gtText.replace(/,/g, ''), at(gtColumn))
      : undefined;
  const predColumns = evals.header.filter((h) => h.startsWith('Pred: '));
  const raw = (response?.fields['Raw Response'] ?? f['Raw Response'] ?? '').trim();
  const attempt = numberOf(f.Attempt, at('Attempt'), ['', '-']);
  const sim = numberOf(f.SIM, at('SIM'), ['', '-']);
  const magnitude = numberOf(f.Score, at('Score'), ['', '-']);
  const original = (f['Original Input'] ?? '').trim();
  const runStatus = (f['Run Status'] ?? 'ok').trim() || 'ok';
  const score = numberOf(f['Sim: outputs'], at('Sim: outputs'));
  if (score !== undefined && (score < 0 || score > 1))
    throw new InputError(`a score in [0, 1] expected, got ${score}`, at('Sim: outputs'));
  return {
    line: r.line,
    sourceRow,
    family,
    requestedLevel,
    measuredLevel,
    ...(attempt !== undefined && { attempt }),
    text,
    ...(original && { original }),
    ...(sim !== undefined && { sim }),
    ...(magnitude !== undefined && { magnitude }),
    ...(gold !== undefined && { gold }),
    ...(score !== undefined && { score }),
    ok: runStatus === 'ok',
    runStatus,
    // The full reply when the run kept it, else the parsed prediction(s) it recorded.
    response: raw || predColumns.map((c) => f[c] ?? '').join('\n'),
    ...(f['Judge Method'] && { judgeMethod: f['Judge Method'] }),
    ...(f['Judge Reason'] && { judgeReason: f['Judge Reason'] }),
  };
}

/** A seed's baseline rows all ask its question; its perturbed rows name the same original. */
function checkSeeds(rows: readonly LadderRunRow[], file: string): void {
  const question = new Map<number, LadderRunRow>();
  for (const r of rows) {
    const q = r.family === 'baseline' ? r.text : r.original;
    if (q === undefined) continue;
    const norm = q.replace(/^\[QUESTION\]\s*/, '').trim();
    const first = question.get(r.sourceRow);
    if (!first) question.set(r.sourceRow, { ...r, text: norm });
    else if (first.text !== norm)
      throw new InputError(
        `source row ${r.sourceRow} asks another question than line ${first.line} (same id, another prompt)`,
        { file, line: r.line, field: r.family === 'baseline' ? 'Generated Input' : 'Original Input' },
      );
  }
}

function readAccuracy(file: string): {
  accuracy: Map<Family, Map<string, number | undefined>>;
  accDecimals: number;
} {
  const t = readCsv(file);
  const key = t.header[0] ?? '';
  const levels = t.header.slice(1);
  for (const l of levels)
    if (!/^L[0-5]$/.test(l))
      throw new InputError(`expected level columns L0..L5, got '${l}'`, { file, line: 1, field: l });
  if (!levels.includes('L0'))
    throw new InputError('missing column L0 (the baseline accuracy every Collapse Point is relative to)', {
      file,
      line: 1,
    });
  const out = new Map<Family, Map<string, number | undefined>>();
  let decimals = 0;
  for (const r of t.records) {
    const fam = (r.fields[key] ?? '').trim() as Family;
    if (!isFamilyCode(fam))
      throw new InputError(`unknown family '${fam}'`, { file, line: r.line, field: key });
    if (out.has(fam)) throw new InputError(`family '${fam}' twice`, { file, line: r.line, field: key });
    const values = new Map<string, number | undefined>();
    for (const l of levels) {
      const where = { file, line: r.line, field: l };
      const v = numberOf(r.fields[l], where);
      if (v !== undefined && (v < 0 || v > 1))
        throw new InputError(`an accuracy in [0, 1] expected, got ${v}`, where);
      values.set(l, v);
      decimals = Math.max(decimals, /\.(\d+)/.exec(r.fields[l] ?? '')?.[1]?.length ?? 0);
    }
    if (values.get('L0') === undefined)
      throw new InputError('no baseline accuracy', { file, line: r.line, field: 'L0' });
    out.set(fam, values);
  }
  return { accuracy: out, accDecimals: decimals };
}

function readCollapse(file: string): Map<Family, string | undefined> {
  const t = readCsv(file);
  requireColumns(t, ['family', 'CP'], file);
  const out = new Map<Family, string | undefined>();
  for (const r of t.records) {
    const fam = (r.fields.family ?? '').trim() as Family;
    if (!isFamilyCode(fam))
      throw new InputError(`unknown family '${fam}'`, { file, line: r.line, field: 'family' });
    const cp = (r.fields.CP ?? '').trim();
    if (cp !== '' && !/^L[1-5]$/.test(cp))
      throw new InputError(`expected L1..L5 or empty, got '${cp}'`, { file, line: r.line, field: 'CP' });
    out.set(fam, cp === '' ? undefined : cp);
  }
  return out;
}
