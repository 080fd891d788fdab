import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isHfDatasetSpec, parseHfDatasetSpec } from '../../../data/dataset-spec.js';
import { contentName } from '../../../data/identity.js';
import { GSM_SYMBOLIC } from '../../../data/named/gsm-symbolic.js';
import { GSM8K } from '../../../data/named/gsm8k.js';
import type { ChoiceDataset, NamedDataset, OpenDataset } from '../../../data/named-dataset.js';
import { loadGsmSymbolic } from '../../../data/number/gsm-symbolic.js';
import { loadGsm8k } from '../../../data/number/gsm8k.js';
import { loadLadderSeedsCsv } from '../../../data/number/seeds-csv.js';
import { openPromptsFromHub } from '../../../data/open/from-hub.js';
import { type DatasetSource, localFileEntry, localFolderEntry } from '../../../data/provenance.js';
import { isRecordFile, looksLikePath } from '../../../data/records.js';
import { namedDataset, namedDatasetOfRepo, namedDatasets } from '../../../data/registry.js';
import {
  type DataOptions,
  explicitDataDir,
  hubSpecOf,
  isOnHub,
  type LoadedRecords,
  localLabel,
  namedFileSource,
  namedLicence,
  notOnHub,
  readHubRecords,
  readLocalRecords,
  readNamedFromHub,
} from '../../../data/sources.js';
import { InputError } from '../../../errors.js';
import { type AnswerType, answerTypeOf, type Seed } from '../types.js';
import { choiceSeedOf } from './choice-seeds.js';
import type { LadderFields } from './fields.js';
import { GRADE_SCHOOL_SEEDS } from './grade-school.js';
import { gsmSymbolicSeeds, seedsFromRecords } from './seed-records.js';
import { textSeedOf } from './text-seeds.js';

/**
 * Where the ladder's seed problems come from (docs/datasets.md): the built-in problems, a named
 * dataset of number, choice or text answers from the datasets layer's registry (src/data/registry.ts),
 * a `hf:` dataset, or a file. A named dataset is read from its Hugging Face Hub home, or from the
 * data directory when one is set (`WAVER_DATA_DIR`, laid out as docs/datasets.md#offline describes).
 * Every seed of a dataset carries its record (commit, files' sha256, licence), which the suite
 * builder writes into each test. Each named dataset has one answer type (docs/ladder.md#answer-types);
 * a file's is `--answer-type`, else read from its records.
 */

/** The answer types the ladder asks (docs/ladder.md#answer-types). */
const LADDER_TYPES: readonly AnswerType[] = ['number', 'choice', 'text'];

/** The named dataset a name (or alias) stands for, among those the ladder reads. */
function ladderDataset(dataset: string): NamedDataset | undefined {
  return namedDataset(dataset, LADDER_TYPES);
}

/** The answer type of a named dataset (a name or alias), or undefined for anything else. */
function namedAnswerType(dataset: string | undefined): AnswerType | undefined {
  if (dataset === undefined || dataset.toLowerCase() === 'builtin') return 'number';
  return ladderDataset(dataset)?.answerType as AnswerType | undefined;
}

export interface LadderSeedOptions extends DataOptions {
  /** A data directory holding the named datasets; default env WAVER_DATA_DIR, else none (the Hub). */
  dataDir?: string;
  /** Keep only the first N seeds (a quick run). */
  limit?: number;
  /** Field mapping for files and `hf:` datasets in another layout (the `ladder.fields` config). */
  fields?: LadderFields;
  /**
   * The seeds' answer type (`ladder.answerType`, `--answer-type`): needed only where the records
   * cannot tell; a named dataset of another type is an InputError.
   */
  answerType?: AnswerType;
}

/**
 * The seeds of a dataset. `builtin` (the default): waver's own grade-school problems. `gsm8k`: the
 * GSM8K test split. `gsm-symbolic`: the 100 GSM8K problems the GSM-Symbolic templates come from.
 * `ladder-seeds`: the paper's `gsm8k_symbolic100.csv` (the same 100; local only). `hf:...`: a Hub
 * dataset. Anything else is a path: a `.jsonl`, `.json`, `.csv` or `.parquet` file of records
 * (GSM8K's columns, the paper's seed CSV, GSM-Symbolic's release, or mapped by `fields`), or a
 * folder of GSM-Symbolic templates.
 */
export async function resolveLadderSeeds(
  dataset: string | undefined,
  opts: LadderSeedOptions = {},
): Promise<Seed[]> {
  const named = namedAnswerType(dataset);
  if (named !== undefined && opts.answerType !== undefined && opts.answerType !== named)
    throw new InputError(
      `dataset '${dataset ?? 'builtin'}' has ${named} answers, not ${opts.answerType}: drop --answer-type or name another dataset`,
      { field: 'answerType' },
    );
  const seeds = await loadNamed(dataset ?? 'builtin', opts);
  if (seeds.length === 0) throw new InputError('the dataset has no seed problems', { field: 'dataset' });
  const types = new Set(seeds.map(answerTypeOf));
  if (opts.answerType !== undefined && !types.has(opts.answerType))
    throw new InputError(
      `the dataset's seeds have ${[...types].join(', ')} answers, not ${opts.answerType}: drop --answer-type`,
      { field: 'answerType' },
    );
  if (types.size > 1)
    throw new InputError(`the seeds mix answer types (${[...types].join(', ')}): one type per suite`, {
      field: 'dataset',
    });
  if (opts.limit !== undefined) {
    if (!Number.isInteger(opts.limit) || opts.limit < 1)
      throw new InputError(`expected a positive number of seeds, got ${opts.limit}`, { field: 'seeds' });
    return seeds.slice(0, opts.limit);
  }
  return seeds;
}

async function loadNamed(dataset: string, opts: LadderSeedOptions): Promise<Seed[]> {
  if (dataset === 'builtin')
    // A copy, so a caller that edits its seeds cannot change the built-in set.
    return GRADE_SCHOOL_SEEDS.map((s) => ({ ...s }));
  if (isHfDatasetSpec(dataset)) return loadHub(dataset, opts);
  const named = ladderDataset(dataset);
  if (named?.answerType === 'choice') return loadChoiceNamed(named, opts);
  if (named?.answerType === 'text') return loadTextNamed(named as OpenDataset, opts);
  if (named !== undefined) return loadNumberNamed(named, opts);
  return loadPath(dataset, opts);
}

/** A named dataset of number answers: its file under the data directory, else its Hub repository. */
async function loadNumberNamed(named: NamedDataset, opts: LadderSeedOptions): Promise<Seed[]> {
  const dir = explicitDataDir(opts);
  if (dir !== undefined) return loadLocalNumber(named, dir, opts.fields);
  if (named.name === 'ladder-seeds')
    throw new InputError(
      "'ladder-seeds' is the ladder paper's gsm8k_symbolic100.csv, which is not on the Hugging Face Hub: pass that file as --dataset FILE, or use --dataset gsm-symbolic (the same 100 problems, from apple/GSM-Symbolic)",
      { field: 'dataset' },
    );
  if (!isOnHub(named)) throw notOnHub(named);
  const loaded = await readNamedFromHub(named, opts);
  return withSource(hubSeeds(named, loaded, named.hub.split, opts.fields), loaded.source);
}

async function loadHub(text: string, opts: LadderSeedOptions): Promise<Seed[]> {
  const spec = parseHfDatasetSpec(text);
  const known = namedDatasetOfRepo(spec.repo, spec.config, LADDER_TYPES);
  // A named dataset's repository without a config or split means that dataset's own.
  const ref = known?.hub;
  const full =
    ref && spec.config === undefined && spec.split === undefined ? { ...hubSpecOf(ref), ...spec } : spec;
  const loaded = await readHubRecords(text, full, { ...opts, ...(ref && { known: ref }) });
  const split = loaded.source.hub?.split ?? 'data';
  const type = known?.answerType as AnswerType | undefined;
  if (type !== undefined && opts.answerType !== undefined && opts.answerType !== type)
    throw new InputError(`dataset '${text}' has ${type} answers, not ${opts.answerType}`, {
      field: 'answerType',
    });
  return withSource(hubDatasetSeeds(text, spec.repo, known, loaded, split, opts), loaded.source);
}

/** A `hf:` dataset's seeds: a named one's by its own reader, any other by the field fallbacks. */
function hubDatasetSeeds(
  text: string,
  repo: string,
  known: NamedDataset | undefined,
  loaded: LoadedRecords,
  split: string,
  opts: LadderSeedOptions,
): Seed[] {
  if (known?.answerType === 'number') return hubSeeds(known, loaded, split, opts.fields);
  if (known?.answerType === 'choice' && opts.fields === undefined)
    return known.choice.fromHub(loaded.records).map(choiceSeedOf);
  if (known?.answerType === 'text' && opts.fields === undefined)
    return openPromptsFromHub(known.name, known.open, loaded.records).map(textSeedOf);
  const type = (known?.answerType as AnswerType | undefined) ?? opts.answerType;
  return seedsFromRecords(loaded.records, {
    prefix: `${repo.split('/')[1]}-${split}`,
    label: text,
    ...(opts.fields && { fields: opts.fields }),
    ...(type && { answerType: type }),
  });
}

/** A number dataset's Hub rows: GSM-Symbolic's originals, else GSM8K's columns (or the mapped fields). */
function hubSeeds(
  named: NamedDataset,
  loaded: LoadedRecords,
  split: string,
  fields: LadderFields | undefined,
): Seed[] {
  if (named.name === GSM_SYMBOLIC.name) return gsmSymbolicSeeds(loaded.records, `hf:${named.hub?.repo}`);
  // GSM8K's own numbering: `gsm8k-test-<index>`, the index GSM-Symbolic's `original_id` uses.
  return seedsFromRecords(loaded.records, {
    prefix: `${named.name}-${split}`,
    label: `${named.name} ${split}`,
    fields: fields ?? { question: 'question', answer: 'answer' },
  });
}

/** A named multiple-choice dataset: its file under the data directory, else its Hub repository. */
async function loadChoiceNamed(d: ChoiceDataset, opts: LadderSeedOptions): Promise<Seed[]> {
  const dir = explicitDataDir(opts) ?? dataDirOrHub(d);
  if (dir !== undefined) {
    const path = needFile(join(dir, d.file), d.name);
    return withSource(d.choice.load(path).map(choiceSeedOf), namedFileSource(d, path));
  }
  const loaded = await readNamedFromHub(d as ChoiceDataset & { hub: NonNullable<NamedDataset['hub']> }, opts);
  return withSource(d.choice.fromHub(loaded.records).map(choiceSeedOf), loaded.source);
}

/** A named short-answer dataset: its file under the data directory, else its Hub repository. */
async function loadTextNamed(d: OpenDataset, opts: LadderSeedOptions): Promise<Seed[]> {
  const dir = explicitDataDir(opts) ?? dataDirOrHub(d);
  if (dir !== undefined) {
    const path = needFile(join(dir, d.file), d.name);
    return withSource(d.open.load(path, d.file).map(textSeedOf), namedFileSource(d, path));
  }
  const loaded = await readNamedFromHub(d as OpenDataset & { hub: NonNullable<NamedDataset['hub']> }, opts);
  return withSource(openPromptsFromHub(d.name, d.open, loaded.records).map(textSeedOf), loaded.source);
}

/** A number dataset under the data directory: GSM8K's JSONL, the paper's seed CSV, GSM-Symbolic's templates, or records. */
async function loadLocalNumber(
  named: NamedDataset,
  dir: string,
  fields: LadderFields | undefined,
): Promise<Seed[]> {
  const path = needFile(join(dir, named.file), named.name);
  if (named.name !== GSM_SYMBOLIC.name) return loadNumberFile(named, path, fields);
  const test = join(dir, GSM8K.file);
  const hasTest = existsSync(test);
  return withSource(loadGsmSymbolic(path, hasTest ? { gsm8kTest: test } : {}), {
    name: named.name,
    files: [localFolderEntry(path, named.file), ...(hasTest ? [localFileEntry(test, GSM8K.file)] : [])],
    ...namedLicence(named),
  });
}

/** A number dataset's file: GSM8K's JSONL, the paper's seed CSV, or a registered dataset's records. */
async function loadNumberFile(
  named: NamedDataset,
  path: string,
  fields: LadderFields | undefined,
): Promise<Seed[]> {
  const files = [localFileEntry(path, named.file)];
  if (named.name === GSM8K.name) return withSource(loadGsm8k(path), { name: named.name, files });
  if (named.name === 'ladder-seeds') return withSource(loadLadderSeedsCsv(path), { name: named.name, files });
  // A registered number dataset's file: the field fallbacks (or the mapping), named by the dataset.
  const { records } = await readLocalRecords(path, { label: named.file, declared: named.name });
  const seeds = seedsFromRecords(records, {
    prefix: named.name,
    label: named.file,
    answerType: 'number',
    ...(fields && { fields }),
  });
  return withSource(seeds, { name: named.name, files, ...namedLicence(named) });
}

async function loadPath(dataset: string, opts: LadderSeedOptions): Promise<Seed[]> {
  const path = resolve(opts.cwd ?? process.cwd(), dataset);
  if (!existsSync(path)) {
    if (looksLikePath(dataset))
      throw new InputError('cannot read dataset: no such file', { file: dataset, field: 'dataset' });
    throw new InputError(
      `unknown dataset '${dataset}': not one of ${['builtin', ...namedDatasets(LADDER_TYPES).map((d) => d.name)].join(', ')}, an hf:OWNER/NAME dataset, or a file or folder`,
      { field: 'dataset' },
    );
  }
  // A local file or folder is what it holds, never its path, name or format
  // (docs/datasets.md#identity): its seeds are named, and so perturbed, by its content's name.
  const label = localLabel(dataset);
  if (statSync(path).isDirectory()) return withSource(loadGsmSymbolic(path), templatesSource(path));
  if (!isRecordFile(path))
    throw new InputError(
      'cannot tell the seed format: expected a .jsonl, .json, .csv or .parquet file of records, or a folder of GSM-Symbolic templates',
      { file: path },
    );
  // Read by what the records hold, not the extension (docs/decisions.md#e32-datasets-are-read-by-what-their-records-hold):
  // the paper's seed CSV keeps its own reader (its ids and gold cross-check), GSM-Symbolic's release
  // file gives its 100 originals, and every other file goes through the one set of field fallbacks.
  const loaded = await readLocalRecords(path);
  const first = loaded.records[0]?.value;
  if (opts.fields === undefined && /\.csv$/i.test(path) && isPaperSeedRecord(first))
    return withSource(loadLadderSeedsCsv(path), loaded.source);
  if (opts.fields === undefined && isGsmSymbolicRecord(first))
    return withSource(gsmSymbolicSeeds(loaded.records, label), {
      ...loaded.source,
      ...namedLicence(GSM_SYMBOLIC),
    });
  return withSource(
    seedsFromRecords(loaded.records, {
      prefix: loaded.source.name,
      label,
      ...(opts.answerType && { answerType: opts.answerType }),
      ...(opts.fields && { fields: opts.fields }),
    }),
    loaded.source,
  );
}

/** A folder of GSM-Symbolic templates, named by its files' content (docs/datasets.md#identity). */
function templatesSource(path: string): DatasetSource {
  const entry = localFolderEntry(path, 'templates');
  return { name: contentName('templates', entry.sha256), files: [entry] };
}

/** The ladder paper's seed CSV names each row's GSM8K original (`original_id`) beside its `question`. */
function isPaperSeedRecord(value: unknown): boolean {
  const v = value as Record<string, unknown> | undefined;
  return v?.original_id !== undefined && v.question !== undefined && v.original_question === undefined;
}

/** A GSM-Symbolic instance names its GSM8K original. */
function isGsmSymbolicRecord(value: unknown): boolean {
  const v = value as Record<string, unknown> | undefined;
  return typeof v?.original_question === 'string' && v.original_id !== undefined;
}

/** No data directory set: a dataset on the Hub comes from there (undefined); one that is not cannot be read. */
function dataDirOrHub(d: NamedDataset): undefined {
  if (isOnHub(d)) return undefined;
  throw notOnHub(d);
}

function withSource(seeds: Seed[], source: DatasetSource): Seed[] {
  return seeds.map((s) => ({ ...s, dataset: source }));
}

function needFile(path: string, dataset: string): string {
  if (!existsSync(path))
    throw new InputError(
      dataset === 'ladder-seeds'
        ? `dataset '${dataset}' not found in the data directory (WAVER_DATA_DIR): ${path} is missing; it is the ladder paper's gsm8k_symbolic100.csv (neuroloft-ai/stability on GitHub, not on the Hugging Face Hub): put it there, pass it as --dataset FILE, or use --dataset gsm-symbolic (the same 100 problems)`
        : `dataset '${dataset}' not found in the data directory (WAVER_DATA_DIR): ${path} is missing; unset WAVER_DATA_DIR to download it from the Hugging Face Hub, or pass a file`,
      { file: path },
    );
  return path;
}
