import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { catalogNameOf, HUB_DATASETS } from '../../../data/catalog.js';
import { isHfDatasetSpec, parseHfDatasetSpec } from '../../../data/dataset-spec.js';
import { contentName } from '../../../data/identity.js';
import { MC_DATASETS } from '../../../data/mc/named.js';
import { OPEN_DATASETS, openPromptsFromHub } from '../../../data/open/named.js';
import { type DatasetSource, localFileEntry, localFolderEntry } from '../../../data/provenance.js';
import { isRecordFile, looksLikePath } from '../../../data/records.js';
import {
  type DataOptions,
  explicitDataDir,
  hubSpecOf,
  type LoadedRecords,
  localLabel,
  readHubRecords,
  readLocalRecords,
  readNamedFromHub,
} from '../../../data/sources.js';
import { InputError } from '../../../errors.js';
import { type AnswerType, answerTypeOf, type Seed } from '../types.js';
import { choiceSeedOf } from './choice-seeds.js';
import type { LadderFields } from './fields.js';
import { GRADE_SCHOOL_SEEDS } from './grade-school.js';
import { loadGsmSymbolic } from './gsm-symbolic.js';
import { loadGsm8k } from './gsm8k.js';
import { gsmSymbolicSeeds, seedsFromRecords } from './seed-records.js';
import { loadLadderSeedsCsv } from './seeds-csv.js';
import { textSeedOf } from './text-seeds.js';

/**
 * Where the ladder's seed problems come from (docs/datasets.md): the built-in problems, a named
 * dataset, a `hf:` dataset, or a file. A named dataset is read from its Hugging Face Hub home
 * (src/data/catalog.ts), or from the data directory when one is set (`WAVER_DATA_DIR`, laid out as
 * docs/datasets.md#offline describes). Every seed of a dataset carries its record (commit, files'
 * sha256, licence), which the suite builder writes into each test. Each named dataset has one
 * answer type (docs/ladder.md#answer-types); a file's is `--answer-type`, else read from its records.
 */

/** The multiple-choice and short-answer datasets the ladder reads through the shared loaders. */
const CHOICE_NAMES = ['arc-challenge', 'commonsenseqa'] as const;
const TEXT_NAMES = ['triviaqa', 'simpleqa', 'nq-open'] as const;
type ChoiceName = (typeof CHOICE_NAMES)[number];
type TextName = (typeof TEXT_NAMES)[number];
/** Other names the choice datasets answer to, as for paraphrase. */
const CHOICE_ALIASES: Record<string, ChoiceName> = { arc: 'arc-challenge', csqa: 'commonsenseqa' };

export const LADDER_DATASET_NAMES = [
  'builtin',
  'gsm8k',
  'gsm-symbolic',
  'ladder-seeds',
  ...CHOICE_NAMES,
  ...TEXT_NAMES,
] as const;

/** The answer type of a named dataset (a name or alias), or undefined for anything else. */
export function namedAnswerType(dataset: string | undefined): AnswerType | undefined {
  const name = (dataset ?? 'builtin').toLowerCase();
  if ((CHOICE_NAMES as readonly string[]).includes(name) || CHOICE_ALIASES[name]) return 'choice';
  if ((TEXT_NAMES as readonly string[]).includes(name)) return 'text';
  if (['builtin', 'gsm8k', 'gsm-symbolic', 'ladder-seeds'].includes(name)) return 'number';
  return undefined;
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

/** Paths of the named datasets inside a data directory (docs/datasets.md#offline). */
export const LADDER_LOCAL_FILES = {
  gsm8k: 'gsm8k/test.jsonl',
  'gsm-symbolic': 'gsm-symbolic/templates/symbolic',
  'ladder-seeds': 'ladder/gsm8k_symbolic100.csv',
} as const;

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
  const choice = CHOICE_ALIASES[dataset.toLowerCase()] ?? dataset.toLowerCase();
  if ((CHOICE_NAMES as readonly string[]).includes(choice))
    return loadChoiceNamed(choice as ChoiceName, opts);
  if ((TEXT_NAMES as readonly string[]).includes(dataset)) return loadTextNamed(dataset as TextName, opts);
  if (dataset === 'gsm8k' || dataset === 'gsm-symbolic' || dataset === 'ladder-seeds') {
    const dir = explicitDataDir(opts);
    if (dir !== undefined) return loadLocalNamed(dataset, dir);
    if (dataset === 'ladder-seeds')
      throw new InputError(
        "'ladder-seeds' is the ladder paper's gsm8k_symbolic100.csv, which is not on the Hugging Face Hub: pass that file as --dataset FILE, or use --dataset gsm-symbolic (the same 100 problems, from apple/GSM-Symbolic)",
        { field: 'dataset' },
      );
    const loaded = await readNamedFromHub(dataset, opts);
    return withSource(hubSeeds(dataset, loaded, HUB_DATASETS[dataset].split, opts.fields), loaded.source);
  }
  return loadPath(dataset, opts);
}

async function loadHub(text: string, opts: LadderSeedOptions): Promise<Seed[]> {
  const spec = parseHfDatasetSpec(text);
  const known = catalogNameOf(spec.repo, spec.config, [
    'gsm8k',
    'gsm-symbolic',
    ...CHOICE_NAMES,
    ...TEXT_NAMES,
  ]);
  // A named dataset's repository without a config or split means that dataset's own.
  const ref = known ? HUB_DATASETS[known] : undefined;
  const full =
    ref && spec.config === undefined && spec.split === undefined ? { ...hubSpecOf(ref), ...spec } : spec;
  const loaded = await readHubRecords(text, full, { ...opts, ...(ref && { known: ref }) });
  const split = loaded.source.hub?.split ?? 'data';
  const type = known ? namedAnswerType(known) : undefined;
  if (type !== undefined && opts.answerType !== undefined && opts.answerType !== type)
    throw new InputError(`dataset '${text}' has ${type} answers, not ${opts.answerType}`, {
      field: 'answerType',
    });
  const seeds =
    known === 'gsm8k' || known === 'gsm-symbolic'
      ? hubSeeds(known, loaded, split, opts.fields)
      : known && opts.fields === undefined && (CHOICE_NAMES as readonly string[]).includes(known)
        ? MC_DATASETS[known as ChoiceName].fromHub(loaded.records).map(choiceSeedOf)
        : known && opts.fields === undefined && (TEXT_NAMES as readonly string[]).includes(known)
          ? openPromptsFromHub(known, OPEN_DATASETS[known as TextName], loaded.records).map(textSeedOf)
          : seedsFromRecords(loaded.records, {
              prefix: `${spec.repo.split('/')[1]}-${split}`,
              label: text,
              ...(opts.fields && { fields: opts.fields }),
              ...((type ?? opts.answerType) && { answerType: type ?? opts.answerType }),
            });
  return withSource(seeds, loaded.source);
}

function hubSeeds(
  name: 'gsm8k' | 'gsm-symbolic',
  loaded: LoadedRecords,
  split: string,
  fields: LadderFields | undefined,
): Seed[] {
  if (name === 'gsm-symbolic') return gsmSymbolicSeeds(loaded.records, `hf:${HUB_DATASETS[name].repo}`);
  // GSM8K's own numbering: `gsm8k-test-<index>`, the index GSM-Symbolic's `original_id` uses.
  return seedsFromRecords(loaded.records, {
    prefix: `gsm8k-${split}`,
    label: `gsm8k ${split}`,
    fields: fields ?? { question: 'question', answer: 'answer' },
  });
}

/** A named multiple-choice dataset: its file under the data directory, else its Hub repository. */
async function loadChoiceNamed(name: ChoiceName, opts: LadderSeedOptions): Promise<Seed[]> {
  const d = MC_DATASETS[name];
  const dir = explicitDataDir(opts);
  if (dir !== undefined) {
    const path = needFile(join(dir, d.file), name);
    return withSource(d.load(path).map(choiceSeedOf), namedSource(name, path, d.file));
  }
  const loaded = await readNamedFromHub(name, opts);
  return withSource(d.fromHub(loaded.records).map(choiceSeedOf), loaded.source);
}

/** A named short-answer dataset: its file under the data directory, else its Hub repository. */
async function loadTextNamed(name: TextName, opts: LadderSeedOptions): Promise<Seed[]> {
  const d = OPEN_DATASETS[name];
  const dir = explicitDataDir(opts);
  if (dir !== undefined) {
    const path = needFile(join(dir, d.file), name);
    return withSource(d.load(path, d.file).map(textSeedOf), namedSource(name, path, d.file));
  }
  const loaded = await readNamedFromHub(name, opts);
  return withSource(openPromptsFromHub(name, d, loaded.records).map(textSeedOf), loaded.source);
}

/** A named dataset read from the data directory: its file, and its licence as the catalog states it. */
function namedSource(name: ChoiceName | TextName, path: string, relative: string): DatasetSource {
  const ref = HUB_DATASETS[name] as { licence: string; licenceNote?: string };
  return {
    name,
    files: [localFileEntry(path, relative)],
    licence: ref.licence,
    ...(ref.licenceNote !== undefined && { licenceNote: ref.licenceNote }),
  };
}

function loadLocalNamed(dataset: keyof typeof LADDER_LOCAL_FILES, dir: string): Seed[] {
  const relative = LADDER_LOCAL_FILES[dataset];
  const path = needFile(join(dir, relative), dataset);
  if (dataset === 'gsm8k')
    return withSource(loadGsm8k(path), { name: dataset, files: [localFileEntry(path, relative)] });
  if (dataset === 'ladder-seeds')
    return withSource(loadLadderSeedsCsv(path), { name: dataset, files: [localFileEntry(path, relative)] });
  const test = join(dir, LADDER_LOCAL_FILES.gsm8k);
  const hasTest = existsSync(test);
  return withSource(loadGsmSymbolic(path, hasTest ? { gsm8kTest: test } : {}), {
    name: dataset,
    files: [
      localFolderEntry(path, relative),
      ...(hasTest ? [localFileEntry(test, LADDER_LOCAL_FILES.gsm8k)] : []),
    ],
    licence: HUB_DATASETS['gsm-symbolic'].licence,
    licenceNote: HUB_DATASETS['gsm-symbolic'].licenceNote,
  });
}

async function loadPath(dataset: string, opts: LadderSeedOptions): Promise<Seed[]> {
  const path = resolve(opts.cwd ?? process.cwd(), dataset);
  if (!existsSync(path)) {
    if (looksLikePath(dataset))
      throw new InputError('cannot read dataset: no such file', { file: dataset, field: 'dataset' });
    throw new InputError(
      `unknown dataset '${dataset}': not one of ${LADDER_DATASET_NAMES.join(', ')}, an hf:OWNER/NAME dataset, or a file or folder`,
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
      licence: HUB_DATASETS['gsm-symbolic'].licence,
      licenceNote: HUB_DATASETS['gsm-symbolic'].licenceNote,
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
