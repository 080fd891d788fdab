import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../../../errors.js';

/**
 * lm-evaluation-harness's `--log_samples` output read as it is written (docs/import.md#lm-eval):
 * `results_<time>.json` (the run: model, tasks' configs) beside `samples_<task>_<time>.jsonl` (one
 * line per document). A run folder, or a folder holding run folders (lm-eval's `--output_path`,
 * one subfolder per model). Every field read is checked here: a bad one is an InputError naming the
 * file, line and field.
 */

export interface LmEvalTaskConfig {
  task: string;
  outputType: string;
  repeats: number;
  metrics: string[];
  targetDelimiter: string;
  /** dataset_path/dataset_name: what the report's categories count (lm-eval keeps no tag in the config). */
  dataset: string;
}

export interface LmEvalSample {
  line: number;
  docId: number;
  docHash: string;
  target: unknown;
  /** (context, continuation) per request: the prompt and, for multiple choice, each choice. */
  requests: [string, string][];
  resps: unknown[];
  filteredResps: unknown[];
  values: Record<string, unknown>;
}

export interface LmEvalRun {
  file: string;
  /** `model_name` (the label); with the harness's model type and generation settings, the identity. */
  modelName: string;
  modelType: string;
  genKwargs: Record<string, unknown>;
  lmEvalVersion?: string;
  tasks: { config: LmEvalTaskConfig; file: string; samples: LmEvalSample[] }[];
}

/** Every run under the folders, read and checked; an empty folder is an input error. */
export function readLmEvalRuns(dirs: readonly string[]): LmEvalRun[] {
  const runs: LmEvalRun[] = [];
  for (const dir of dirs) {
    const found = resultsFiles(dir);
    if (found.length === 0)
      throw new InputError(
        'no lm-eval results_*.json here (the --output_path of an lm_eval run with --log_samples, or its model folder)',
        { file: dir },
      );
    runs.push(...found.map(readRun));
  }
  return runs;
}

function resultsFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    throw new InputError('not a readable directory', { file: dir });
  }
  const own = entries.filter((n) => /^results_.*\.json$/.test(n)).map((n) => join(dir, n));
  if (own.length > 0) return own;
  return entries
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isDirectory())
    .flatMap((p) =>
      readdirSync(p)
        .sort()
        .filter((n) => /^results_.*\.json$/.test(n))
        .map((n) => join(p, n)),
    );
}

type Json = Record<string, unknown>;

function isObject(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function parseJson(text: string, file: string, line?: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`not JSON (${(e as Error).message})`, { file, ...(line !== undefined && { line }) });
  }
}

function field<T>(
  obj: Json,
  name: string,
  ok: (x: unknown) => x is T,
  want: string,
  where: { file: string; line?: number },
): T {
  const v = obj[name];
  if (!ok(v))
    throw new InputError(`expected ${want}, got ${JSON.stringify(v) ?? 'nothing'}`, {
      ...where,
      field: name,
    });
  return v;
}

const isString = (x: unknown): x is string => typeof x === 'string' && x !== '';
const isInteger = (x: unknown): x is number => Number.isInteger(x);
const isArray = (x: unknown): x is unknown[] => Array.isArray(x);

function readRun(file: string): LmEvalRun {
  const doc = parseJson(readFileSync(file, 'utf8'), file);
  if (!isObject(doc)) throw new InputError('expected a JSON object', { file });
  const configs = field(doc, 'configs', isObject, 'an object of task configs', { file });
  const config = isObject(doc.config) ? doc.config : {};
  const modelArgs = isObject(config.model_args) ? config.model_args : {};
  const modelName =
    (isString(doc.model_name) && doc.model_name) ||
    (isString(modelArgs.model) && modelArgs.model) ||
    undefined;
  if (modelName === undefined)
    throw new InputError('expected the model the run asked (model_name)', { file, field: 'model_name' });
  const stamp = basename(file).slice('results_'.length, -'.json'.length);
  const folder = join(file, '..');
  const tasks = Object.entries(configs).map(([task, raw]) => {
    const cfg = taskConfig(task, raw, file);
    const samplesFile = join(folder, `samples_${task}_${stamp}.jsonl`);
    return { config: cfg, file: samplesFile, samples: readSamples(samplesFile) };
  });
  return {
    file,
    modelName,
    modelType: isString(config.model) ? config.model : 'unknown',
    genKwargs: isObject(config.gen_kwargs) ? config.gen_kwargs : {},
    ...(isString(doc.lm_eval_version) && { lmEvalVersion: doc.lm_eval_version }),
    tasks,
  };
}

function taskConfig(task: string, raw: unknown, file: string): LmEvalTaskConfig {
  const where = { file, field: `configs.${task}` };
  if (!isObject(raw)) throw new InputError('expected a task config object', where);
  const metrics = isArray(raw.metric_list)
    ? raw.metric_list.flatMap((m) => (isObject(m) && isString(m.metric) ? [m.metric] : []))
    : [];
  if (metrics.length === 0)
    throw new InputError('the task names no metric (metric_list)', {
      ...where,
      field: `configs.${task}.metric_list`,
    });
  const dataset = [raw.dataset_path, raw.dataset_name].filter(isString).join('/');
  return {
    task,
    outputType: isString(raw.output_type) ? raw.output_type : 'unknown',
    repeats: isInteger(raw.repeats) && raw.repeats > 0 ? raw.repeats : 1,
    metrics,
    targetDelimiter: typeof raw.target_delimiter === 'string' ? raw.target_delimiter : ' ',
    dataset: dataset || task,
  };
}

function readSamples(file: string): LmEvalSample[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new InputError('missing: the run was not made with --log_samples, or its samples file was moved', {
      file,
    });
  }
  const samples: LmEvalSample[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    const where = { file, line };
    const s = parseJson(raw, file, line);
    if (!isObject(s)) throw new InputError('expected a JSON object', where);
    samples.push({
      line,
      docId: field(s, 'doc_id', isInteger, 'an integer', where),
      docHash: field(s, 'doc_hash', isString, 'the document hash', where),
      target: s.target,
      requests: requestsOf(s.arguments, where),
      resps: field(s, 'resps', isArray, 'an array', where),
      filteredResps: field(s, 'filtered_resps', isArray, 'an array', where),
      values: s,
    });
  });
  if (samples.length === 0) throw new InputError('no samples', { file });
  return samples;
}

/** `arguments` as lm-eval 0.4.x writes it: `{gen_args_0: {arg_0, arg_1}, ...}`, or older `[[ctx, cont], ...]`. */
function requestsOf(args: unknown, where: { file: string; line: number }): [string, string][] {
  const list = isObject(args) ? Object.values(args).map((a) => (isObject(a) ? [a.arg_0, a.arg_1] : a)) : args;
  if (!isArray(list) || list.length === 0)
    throw new InputError('expected the requests made (arguments)', { ...where, field: 'arguments' });
  return list.map((a) => {
    const pair = isArray(a) ? a : [];
    if (typeof pair[0] !== 'string')
      throw new InputError('expected each request to start with its prompt', {
        ...where,
        field: 'arguments',
      });
    return [pair[0], typeof pair[1] === 'string' ? pair[1] : ''];
  });
}
