import { InputError } from '../../../errors.js';
import { canonicalJson } from '../../../util/hash.js';
import { type LmEvalSample, type LmEvalTaskConfig, readLmEvalRuns } from './lm-eval-files.js';
import { groupVariants, type PlannedItem } from './plan-suites.js';
import type { ImportedCellPlan, ImportedModelPlan, ImportedSuitePlan } from './write.js';

/**
 * `waver import lm-eval` (docs/import.md#lm-eval): an item is a document (its id and content
 * hash), a variant the task that asked it (the templates of one dataset: a tag's tasks, or tasks
 * from `--include_path`), a repeat the task's `repeats`, the model lm-eval's `model_name`. The
 * verdict is the task's per-sample metric (`--metric`, default the task's first); for multiple
 * choice with `acc`/`acc_norm` it is recomputed per repeat from the logged log-likelihoods, and
 * checked against the logged value for the first.
 */

export interface LmEvalImportPlan {
  suites: ImportedSuitePlan[];
  runs: { file: string; model: string; tasks: string[] }[];
  /** Multiple-choice verdicts recomputed from the log-likelihoods vs lm-eval's logged metric. */
  check: { checked: number; agree: number };
}

const MC_METRICS = new Set(['acc', 'acc_norm']);

export function planLmEvalImport(dirs: readonly string[], opts: { metric?: string } = {}): LmEvalImportPlan {
  const runs = readLmEvalRuns(dirs);
  const check = { checked: 0, agree: 0 };
  const items: PlannedItem[] = [];
  const models = new Map<string, ImportedModelPlan>();
  const seen = new Set<string>();
  for (const run of runs) {
    const identity = `lm-eval:${run.modelType}:${run.modelName}${Object.keys(run.genKwargs).length > 0 ? `?${canonicalJson(run.genKwargs)}` : ''}`;
    const model = models.get(identity) ?? {
      label: run.modelName,
      identity,
      source: 'lm-eval' as const,
      metric: '',
      provenance: { files: [] as string[], ...(run.lmEvalVersion && { lmEvalVersion: run.lmEvalVersion }) },
      cells: [],
    };
    (model.provenance.files as string[]).push(run.file);
    models.set(identity, model);
    for (const task of run.tasks) {
      const once = `${identity}\u0000${task.config.task}`;
      if (seen.has(once))
        throw new InputError(
          `a second run of task '${task.config.task}' for model ${run.modelName}: import one of them`,
          {
            file: run.file,
          },
        );
      seen.add(once);
      const metric = opts.metric ?? task.config.metrics[0] ?? 'acc';
      model.metric = model.metric === '' || model.metric === metric ? metric : 'mixed';
      for (const sample of task.samples) {
        const planned = sampleCells(task.config, metric, sample, task.file, check);
        items.push(planned.item);
        model.cells.push(...planned.cells);
      }
    }
  }
  return {
    suites: groupVariants(items, [...models.values()], 'lm-eval'),
    runs: runs.map((r) => ({ file: r.file, model: r.modelName, tasks: r.tasks.map((t) => t.config.task) })),
    check,
  };
}

const letter = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `#${i + 1}`);

function sampleCells(
  config: LmEvalTaskConfig,
  metric: string,
  s: LmEvalSample,
  file: string,
  check: { checked: number; agree: number },
): { item: PlannedItem; cells: ImportedCellPlan[] } {
  const where = { file, line: s.line, field: metric };
  const recorded = s.values[metric];
  if (typeof recorded !== 'number' || !Number.isFinite(recorded))
    throw new InputError(
      `expected the per-sample metric (a number); this task logs ${
        Object.keys(s.values)
          .filter((k) => typeof s.values[k] === 'number' && k !== 'doc_id')
          .join(', ') || 'none'
      } (--metric names another)`,
      where,
    );
  if (recorded !== 0 && recorded !== 1)
    throw new InputError(
      `is ${recorded}: waver counts each answer right or wrong, so the metric must be 0 or 1`,
      where,
    );
  const item = `${s.docId}:${s.docHash.slice(0, 12)}`;
  const base = {
    item,
    variant: config.task,
    category: config.dataset,
    dataset: `lm-eval ${config.dataset}`,
    prompt: s.requests[0]?.[0] ?? '',
  };
  if (config.outputType === 'multiple_choice' && MC_METRICS.has(metric)) {
    const choices = s.requests.map(([, cont]) =>
      cont.startsWith(config.targetDelimiter) ? cont.slice(config.targetDelimiter.length) : cont,
    );
    const gold = goldIndex(s.target, choices, where);
    const cells = Array.from({ length: config.repeats }, (_, r) => {
      const lls = choices.map((_, c) => logLikelihood(s.resps[c], r, where));
      const scores =
        metric === 'acc_norm' ? lls.map((ll, c) => ll / Math.max(1, (choices[c] as string).length)) : lls;
      const chosen = scores.indexOf(Math.max(...scores));
      return {
        testId: `${item}/${config.task}`,
        repeat: r,
        status: 'done' as const,
        text: `${letter(chosen)}. ${choices[chosen]}`,
        answer: letter(chosen),
        correct: chosen === gold,
        file,
        line: s.line,
      };
    });
    check.checked++;
    if ((cells[0]?.correct ? 1 : 0) === recorded) check.agree++;
    return { item: { ...base, key: letter(gold), repeats: config.repeats }, cells };
  }
  // Other tasks: the logged metric scores the filtered answer (the first repeat's): one repeat each.
  const answer =
    typeof s.filteredResps[0] === 'string' ? s.filteredResps[0] : JSON.stringify(s.filteredResps[0]);
  return {
    item: { ...base, key: typeof s.target === 'string' ? s.target : JSON.stringify(s.target), repeats: 1 },
    cells: [
      {
        testId: `${item}/${config.task}`,
        repeat: 0,
        status: 'done',
        text: answer,
        answer: answer.trim(),
        correct: recorded === 1,
        file,
        line: s.line,
      },
    ],
  };
}

function goldIndex(target: unknown, choices: string[], where: { file: string; line: number }): number {
  const i =
    typeof target === 'number'
      ? target
      : typeof target === 'string' && /^\d+$/.test(target)
        ? Number(target)
        : choices.indexOf(String(target));
  if (!Number.isInteger(i) || i < 0 || i >= choices.length)
    throw new InputError(`expected the gold choice's index or text, got ${JSON.stringify(target)}`, {
      ...where,
      field: 'target',
    });
  return i;
}

/** resps[choice][repeat] is `[loglikelihood, is_greedy]`, numbers logged as strings. */
function logLikelihood(resp: unknown, repeat: number, where: { file: string; line: number }): number {
  const pair = Array.isArray(resp) ? resp[repeat] : undefined;
  const v = Array.isArray(pair) ? Number(pair[0]) : Number.NaN;
  if (!Number.isFinite(v))
    throw new InputError(`expected a log-likelihood per choice and repeat, got ${JSON.stringify(resp)}`, {
      ...where,
      field: 'resps',
    });
  return v;
}
