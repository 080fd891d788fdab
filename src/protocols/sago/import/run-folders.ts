import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type CsvRecord, parseCsv, requireColumns } from '../../../data/csv.js';
import { InputError } from '../../../errors.js';
import type { VariationFamily, VariationSubtype } from '../variations/types.js';

/**
 * The SAGO authors' run folders (`results/<group>/run_<model>_<dataset>_<style>_<timestamp>/`),
 * as their `experiments/run_closed_models.py` writes them: `full_results_all_models.csv`, one row
 * per prompt and strength (the prompt and its variant, the model's response to each, and the
 * measures of the pair), and `metadata.json` (model, dataset, style, max_tokens, temperature).
 * The CSV has 21 columns, or 22 in files rewritten later (`delta_entropy` appended). Every value is
 * checked here, before anything is written: a bad one is an InputError naming file, line and column.
 */

export const RESULTS_FILE = 'full_results_all_models.csv';
export const METADATA_FILE = 'metadata.json';

/** The 21 columns every version of the file has, in its order. */
export const RUN_COLUMNS = [
  'model',
  'prompt_id',
  'place',
  'strength',
  'category',
  'prompt_orig',
  'prompt_pert',
  'bertscore_prompt',
  'response_orig',
  'response_pert',
  'bleu',
  'bertscore_response',
  'activation_similarity',
  'delta_log_prob',
  'entropy_shift',
  'mirroring_rate',
  'delta_bleu',
  'delta_bertscore_prompt',
  'delta_bertscore_response',
  'delta_activation_similarity',
  'delta_mirroring_rate',
] as const;
/** Appended by the later version of the file. */
export const OPTIONAL_COLUMNS = ['delta_entropy'] as const;

/** The measure columns: empty (no value) or a number. */
export const NUMERIC_COLUMNS = [
  'bertscore_prompt',
  'bleu',
  'bertscore_response',
  'activation_similarity',
  'delta_log_prob',
  'entropy_shift',
  'mirroring_rate',
  'delta_bleu',
  'delta_bertscore_prompt',
  'delta_bertscore_response',
  'delta_activation_similarity',
  'delta_mirroring_rate',
  'delta_entropy',
] as const;
export type NumericColumn = (typeof NUMERIC_COLUMNS)[number];

/** A style of the authors' runs as waver's variation coordinates. */
interface StyleMap {
  family: VariationFamily;
  subtype: VariationSubtype | 'form';
  /** The strength of the style's baseline row (the reference's BASELINE_STRENGTH). */
  baseline: number | 'interrogative';
}

/** The authors' style names (`utils/compute_delta_metrics.py` BASELINE_STRENGTH) and waver's coordinates. */
export const STYLES: Readonly<Record<string, StyleMap>> = {
  spacing: { family: 'noise', subtype: 'spacing', baseline: 0 },
  punctuation: { family: 'noise', subtype: 'punctuation', baseline: 0 },
  letter_case: { family: 'noise', subtype: 'casing', baseline: 0 },
  politeness: { family: 'register', subtype: 'politeness', baseline: 0 },
  length_variation: { family: 'structural', subtype: 'length', baseline: 1 },
  inter_vs_imper: { family: 'structural', subtype: 'form', baseline: 'interrogative' },
};

export interface RunRow {
  /** 1-based line of the CSV record. */
  line: number;
  promptId: string;
  place: string;
  family: VariationFamily;
  subtype: VariationSubtype;
  /** Graded strength, or 1 for the sentence forms (waver's convention). */
  strength: number;
  /** This row is its style's baseline row (strength 0, length 1.0, the interrogative form). */
  styleBaseline: boolean;
  promptOrig: string;
  promptPert: string;
  responseOrig: string;
  responsePert: string;
  values: Record<NumericColumn, number | undefined>;
}

export interface RunFolder {
  dir: string;
  folder: string;
  csv: string;
  model: string;
  dataset: string;
  style: string;
  columns: number;
  metadata: Record<string, unknown>;
  maxTokens?: number;
  temperature?: number;
  rows: RunRow[];
}

/**
 * The run folders under each argument: the folder itself when it holds the results file, else
 * its `run_*` subfolders (one or two levels down, e.g. `results/` or `results/closed_models/`).
 */
export function findRunFolders(dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new InputError('not a directory', { file: dir });
    const found = runFoldersIn(dir, 2);
    if (found.length === 0)
      throw new InputError(
        `no SAGO run folder here: expected ${RESULTS_FILE} in it or in its run_* folders`,
        {
          file: dir,
        },
      );
    out.push(...found);
  }
  return [...new Set(out)];
}

function runFoldersIn(dir: string, depth: number): string[] {
  if (existsSync(join(dir, RESULTS_FILE))) return [dir];
  if (depth === 0) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .flatMap((name) => {
      const sub = join(dir, name);
      return name.startsWith('run_')
        ? existsSync(join(sub, RESULTS_FILE))
          ? [sub]
          : []
        : runFoldersIn(sub, depth - 1);
    });
}

/** Reads and checks one run folder. */
export function readRunFolder(dir: string): RunFolder {
  const metaFile = join(dir, METADATA_FILE);
  const csv = join(dir, RESULTS_FILE);
  const metadata = readMetadata(metaFile);
  const text = (field: string) => {
    const v = metadata[field];
    if (typeof v !== 'string' || v === '')
      throw new InputError(`metadata.${field} must be a non-empty string`, { file: metaFile, field });
    return v;
  };
  const model = text('model');
  const dataset = text('dataset');
  const style = text('style');
  const map = STYLES[style];
  if (!map)
    throw new InputError(`unknown style '${style}' (known: ${Object.keys(STYLES).join(', ')})`, {
      file: metaFile,
      field: 'style',
    });
  const config = (metadata.config ?? {}) as Record<string, unknown>;
  const optionalNumber = (field: string) => {
    const v = config[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new InputError(`metadata.config.${field} must be a number`, { file: metaFile, field });
    return v;
  };
  const maxTokens = optionalNumber('max_tokens');
  const temperature = optionalNumber('temperature');

  let body: string;
  try {
    body = readFileSync(csv, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file: csv });
  }
  const table = parseCsv(body, csv);
  requireColumns(table, RUN_COLUMNS, csv);
  const known = new Set<string>([...RUN_COLUMNS, ...OPTIONAL_COLUMNS]);
  const extra = table.header.find((h) => !known.has(h));
  if (extra !== undefined)
    throw new InputError(
      `unknown column '${extra}' (a SAGO run file has ${RUN_COLUMNS.length} or 22 columns)`,
      {
        file: csv,
        line: 1,
        field: extra,
      },
    );
  if (table.records.length === 0) throw new InputError('no rows', { file: csv, line: 2 });
  const rows = table.records.map((r) => rowOf(r, csv, model, map));
  return {
    dir,
    folder: basename(dir),
    csv,
    model,
    dataset,
    style,
    columns: table.header.length,
    metadata,
    ...(maxTokens !== undefined && { maxTokens }),
    ...(temperature !== undefined && { temperature }),
    rows,
  };
}

function readMetadata(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file });
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new InputError('metadata must be a JSON object', { file });
    return parsed as Record<string, unknown>;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not JSON: ${(e as Error).message}`, { file });
  }
}

/** A Python float as pandas writes it (`1.0`, `-0.0`, `1e-05`, `nan`); empty is no value. */
function numberOf(value: string, where: { file: string; line: number; field: string }): number | undefined {
  const v = value.trim();
  if (v === '' || v.toLowerCase() === 'nan') return undefined;
  const n = Number(v);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v) || !Number.isFinite(n))
    throw new InputError(`expected a number, got '${value}'`, where);
  return n;
}

function rowOf(r: CsvRecord, file: string, model: string, style: StyleMap): RunRow {
  const at = (field: string) => ({ file, line: r.line, field });
  const f = r.fields as Record<string, string>;
  if (f.model !== model)
    throw new InputError(`model '${f.model}' differs from metadata.json's '${model}'`, at('model'));
  const promptId = (f.prompt_id ?? '').trim();
  if (!/^\d+$/.test(promptId))
    throw new InputError(`expected a prompt id (an integer), got '${f.prompt_id}'`, at('prompt_id'));
  const place = (f.place ?? '').trim();
  if (!['global', 'prefix', 'suffix'].includes(place))
    throw new InputError(`expected place global, prefix or suffix, got '${f.place}'`, at('place'));
  const raw = (f.strength ?? '').trim();
  let subtype: VariationSubtype;
  let strength: number;
  let styleBaseline: boolean;
  if (style.subtype === 'form') {
    if (raw !== 'interrogative' && raw !== 'imperative')
      throw new InputError(
        `expected strength interrogative or imperative, got '${f.strength}'`,
        at('strength'),
      );
    subtype = raw;
    strength = 1;
    styleBaseline = raw === style.baseline;
  } else {
    const n = numberOf(raw, at('strength'));
    if (n === undefined) throw new InputError('strength is empty', at('strength'));
    subtype = style.subtype;
    strength = n;
    styleBaseline = n === style.baseline;
  }
  const values = Object.fromEntries(
    NUMERIC_COLUMNS.map((c) => [c, f[c] === undefined ? undefined : numberOf(f[c], at(c))]),
  ) as Record<NumericColumn, number | undefined>;
  return {
    line: r.line,
    promptId,
    place,
    family: style.family,
    subtype,
    strength,
    styleBaseline,
    promptOrig: f.prompt_orig ?? '',
    promptPert: f.prompt_pert ?? '',
    responseOrig: f.response_orig ?? '',
    responsePert: f.response_pert ?? '',
    values,
  };
}
