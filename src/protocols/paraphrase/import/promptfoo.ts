import { readFileSync } from 'node:fs';
import { InputError } from '../../../errors.js';
import { canonicalJson, hashOf } from '../../../util/hash.js';
import { groupVariants, type PlannedItem } from './plan-suites.js';
import { importedTestId } from './recorded.js';
import type { ImportedModelPlan, ImportedSuitePlan } from './write.js';

/**
 * `waver import promptfoo` (docs/import.md#promptfoo): promptfoo's `eval -o results.json` (output
 * version 3). An item is a test case (the hash of its vars), a variant the prompt (its label), a
 * repeat the test case's n-th copy under `--repeat N` (in `testIdx` order), the model the provider
 * (id and label). The verdict is the result's `success` (every assertion passed), or with
 * `--metric TYPE` that assertion's own pass; the answer compared across repeats and variants is the
 * output, trimmed. A result promptfoo recorded as an error (failureReason 2) is a failed cell.
 */

export interface PromptfooImportPlan {
  suites: ImportedSuitePlan[];
  evals: { file: string; evalId: string; version?: string; results: number }[];
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const ERROR = 2;

export function planPromptfooImport(
  files: readonly string[],
  opts: { metric?: string } = {},
): PromptfooImportPlan {
  const metric = opts.metric ?? 'success';
  const items: PlannedItem[] = [];
  const models = new Map<string, ImportedModelPlan>();
  const evals: PromptfooImportPlan['evals'] = [];
  for (const file of files) {
    const doc = readJson(file);
    const results = isObject(doc.results) ? doc.results : undefined;
    if (!results || !Array.isArray(results.results))
      throw new InputError(
        'expected promptfoo eval output (results.results: the list of results; promptfoo eval -o FILE.json)',
        {
          file,
          field: 'results.results',
        },
      );
    const config = isObject(doc.config) ? doc.config : {};
    const described =
      typeof config.description === 'string' && config.description !== '' ? config.description : undefined;
    const evalId = typeof doc.evalId === 'string' ? doc.evalId : file;
    const version =
      isObject(doc.metadata) && typeof doc.metadata.promptfooVersion === 'string'
        ? doc.metadata.promptfooVersion
        : undefined;
    evals.push({ file, evalId, ...(version && { version }), results: results.results.length });
    const ctx = {
      file,
      metric,
      category: described ?? 'promptfoo',
      dataset: `promptfoo ${described ?? evalId}`,
      evalId,
    };
    const rows = results.results.map((r, i) => readResult(r, i, ctx));
    placeRepeats(rows, items, models, ctx);
  }
  return { suites: groupVariants(items, [...models.values()], 'promptfoo'), evals };
}

function readJson(file: string): Json {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new InputError('cannot be read', { file });
  }
  try {
    const doc = JSON.parse(text);
    if (!isObject(doc)) throw new InputError('expected a JSON object', { file });
    return doc;
  } catch (e) {
    if (e instanceof InputError) throw e;
    const at = jsonErrorOffset(text, (e as Error).message);
    const line = at === undefined ? undefined : text.slice(0, at).split('\n').length;
    throw new InputError(`not JSON (${(e as Error).message})`, { file, ...(line !== undefined && { line }) });
  }
}

/**
 * Where JSON.parse stopped: V8 says `at position N`, or, for an unexpected token, quotes the text
 * around it (`..."` when it starts 10 characters before the token), which is found in the file.
 */
function jsonErrorOffset(text: string, message: string): number | undefined {
  const at = /at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  const quoted = /^Unexpected token '([\s\S])', (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON$/.exec(
    message,
  );
  if (!quoted) return undefined;
  const [, token, cut, snippet] = quoted as unknown as [string, string, string | undefined, string];
  const start = text.indexOf(snippet);
  if (start < 0) return undefined;
  return cut ? start + 10 : start + snippet.indexOf(token);
}

interface ResultRow {
  index: number;
  testIdx: number;
  model: { id: string; label: string };
  variant: string;
  prompt: string;
  item: string;
  key: string;
  failed: boolean;
  output: string;
  correct: boolean;
}

interface Ctx {
  file: string;
  metric: string;
  category: string;
  dataset: string;
  evalId: string;
}

function readResult(r: unknown, i: number, ctx: Ctx): ResultRow {
  const at = (field: string) => ({ file: ctx.file, field: `results.results[${i}].${field}` });
  if (!isObject(r))
    throw new InputError('expected a result object', { file: ctx.file, field: `results.results[${i}]` });
  const provider = isObject(r.provider) ? r.provider : undefined;
  if (!provider || typeof provider.id !== 'string' || provider.id === '')
    throw new InputError('expected the provider that answered ({id, label})', at('provider'));
  const prompt = isObject(r.prompt) ? r.prompt : undefined;
  if (!prompt || typeof prompt.raw !== 'string')
    throw new InputError('expected the prompt as sent ({raw, label})', at('prompt'));
  if (!Number.isInteger(r.testIdx))
    throw new InputError(`expected an integer, got ${JSON.stringify(r.testIdx)}`, at('testIdx'));
  const testCase = isObject(r.testCase) ? r.testCase : {};
  const vars = isObject(r.vars) ? r.vars : isObject(testCase.vars) ? testCase.vars : {};
  const failed = r.failureReason === ERROR;
  const response = isObject(r.response) ? r.response : {};
  const output = failed
    ? String(r.error ?? 'error')
    : typeof response.output === 'string'
      ? response.output
      : JSON.stringify(response.output ?? null);
  return {
    index: i,
    testIdx: r.testIdx as number,
    model: {
      id: provider.id,
      label: typeof provider.label === 'string' && provider.label !== '' ? provider.label : provider.id,
    },
    variant:
      typeof prompt.label === 'string' && prompt.label !== ''
        ? prompt.label
        : String(r.promptId ?? r.promptIdx),
    prompt: prompt.raw,
    item: `${String(testCase.description ?? 'case').slice(0, 40)}:${hashOf(canonicalJson(vars)).slice(0, 12)}`,
    key: assertionsOf(testCase.assert),
    failed,
    output,
    correct: failed ? false : verdict(r, ctx.metric, at),
  };
}

function verdict(r: Json, metric: string, at: (field: string) => { file: string; field: string }): boolean {
  if (metric === 'success') {
    if (typeof r.success !== 'boolean')
      throw new InputError(`expected true or false, got ${JSON.stringify(r.success)}`, at('success'));
    return r.success;
  }
  const grading = isObject(r.gradingResult) ? r.gradingResult : {};
  const parts = Array.isArray(grading.componentResults) ? grading.componentResults : [];
  const found = parts.find((c) => isObject(c) && isObject(c.assertion) && c.assertion.type === metric);
  if (!isObject(found) || typeof found.pass !== 'boolean')
    throw new InputError(
      `no '${metric}' assertion was graded here (--metric names an assertion type, or 'success')`,
      at('gradingResult.componentResults'),
    );
  return found.pass;
}

function assertionsOf(asserts: unknown): string {
  if (!Array.isArray(asserts) || asserts.length === 0) return '(no assertion)';
  return asserts
    .map((a) =>
      isObject(a)
        ? `${String(a.type)}${a.value === undefined ? '' : ` ${typeof a.value === 'string' ? a.value : JSON.stringify(a.value)}`}`
        : String(a),
    )
    .join('; ');
}

/** Each (model, variant, item)'s results in testIdx order are its repeats 0, 1, ... */
function placeRepeats(
  rows: ResultRow[],
  items: PlannedItem[],
  models: Map<string, ImportedModelPlan>,
  ctx: Ctx,
): void {
  const sorted = [...rows].sort((a, b) => a.testIdx - b.testIdx || a.index - b.index);
  const counts = new Map<string, number>();
  const repeatsOf = new Map<string, number>();
  const placed = sorted.map((row) => {
    const identity = `promptfoo:${row.model.id}${row.model.label === row.model.id ? '' : `#${row.model.label}`}`;
    const slot = `${identity}\u0000${row.variant}\u0000${row.item}`;
    const repeat = counts.get(slot) ?? 0;
    counts.set(slot, repeat + 1);
    const test = importedTestId(row.item, row.variant);
    repeatsOf.set(test, Math.max(repeatsOf.get(test) ?? 0, repeat + 1));
    return { row, identity, repeat, test };
  });
  for (const { row, identity, repeat, test } of placed) {
    items.push({
      item: row.item,
      variant: row.variant,
      category: ctx.category,
      dataset: ctx.dataset,
      prompt: row.prompt,
      key: row.key,
      repeats: repeatsOf.get(test) ?? 1,
    });
    const model = models.get(identity) ?? {
      label: row.model.label,
      identity,
      source: 'promptfoo' as const,
      metric: ctx.metric,
      provenance: { files: [] as string[], evals: [] as string[] },
      cells: [],
    };
    if (!(model.provenance.files as string[]).includes(ctx.file)) {
      (model.provenance.files as string[]).push(ctx.file);
      (model.provenance.evals as string[]).push(ctx.evalId);
    }
    models.set(identity, model);
    model.cells.push({
      testId: test,
      repeat,
      status: row.failed ? 'failed' : 'done',
      text: row.output,
      answer: row.output.trim(),
      correct: row.correct,
      file: ctx.file,
      line: row.index,
    });
  }
}
