import { createHash } from 'node:crypto';
import type { ChatMessage, Usage } from '../models/types.js';
import type { CellFilter, Store } from '../store/store.js';
import { WAVER_VERSION } from '../version.js';
import { exportTranscripts, type Grader, type Transcript } from './export.js';

/**
 * `waver export --format inspect` (docs/report.md#inspect): the stored cells as inspect_ai eval
 * logs (JSON, log version 2), one log per eval (a suite x a model), so `inspect view` opens a waver
 * run. Every object is written with all its fields, null where waver has nothing, as the schema
 * inspect_ai publishes for its viewer (`log-schema.json`) asks.
 */

type Json = Record<string, unknown>;

/** One inspect log: its file name in the log directory, and the log. */
export interface InspectLog {
  file: string;
  log: Json;
}

/** Every GenerateConfig field inspect_ai has, null: a log carries each (its schema requires them). */
// biome-ignore format: a list of names
const GENERATE_CONFIG_FIELDS = [
  'max_retries', 'timeout', 'attempt_timeout', 'max_connections', 'system_message', 'max_tokens',
  'top_p', 'temperature', 'stop_seqs', 'best_of', 'frequency_penalty', 'presence_penalty',
  'logit_bias', 'seed', 'top_k', 'num_choices', 'logprobs', 'top_logprobs', 'parallel_tool_calls',
  'internal_tools', 'max_tool_output', 'cache_prompt', 'verbosity', 'effort', 'reasoning_effort',
  'reasoning_tokens', 'reasoning_summary', 'reasoning_history', 'response_schema', 'extra_headers',
  'extra_body', 'modalities', 'cache', 'batch',
] as const;

/** EvalConfig's fields, null but `epochs` (a waver repeat is an inspect epoch). */
// biome-ignore format: a list of names
const EVAL_CONFIG_FIELDS = [
  'limit', 'sample_id', 'sample_shuffle', 'epochs', 'epochs_reducer', 'approval', 'fail_on_error',
  'continue_on_fail', 'retry_on_error', 'message_limit', 'token_limit', 'time_limit', 'working_limit',
  'cost_limit', 'max_samples', 'max_dataset_memory', 'max_tasks', 'max_subprocesses', 'max_sandboxes',
  'sandbox_cleanup', 'log_samples', 'log_realtime', 'log_images', 'log_model_api', 'log_buffer',
  'log_shared', 'score_display',
] as const;

const nulls = (fields: readonly string[], given: Json = {}): Json => ({
  ...Object.fromEntries(fields.map((f) => [f, null])),
  ...given,
});

/** The GenerateConfig of a cell's request: what waver sent, in inspect's names. */
function generateConfig(t: Transcript | undefined): Json {
  const r = t?.request;
  return nulls(GENERATE_CONFIG_FIELDS, {
    ...(r?.maxTokens !== undefined && { max_tokens: r.maxTokens }),
    ...(r?.temperature !== undefined && { temperature: r.temperature }),
    ...(r?.topP !== undefined && { top_p: r.topP }),
    ...(r?.seed !== undefined && { seed: r.seed }),
    ...(r?.stop !== undefined && { stop_seqs: r.stop }),
    ...(r?.logprobs !== undefined && { logprobs: r.logprobs }),
    ...(r?.topLogprobs !== undefined && { top_logprobs: r.topLogprobs }),
  });
}

function message(m: ChatMessage, extra: Json = {}): Json {
  const common = { id: null, content: m.content, source: null, metadata: null, role: m.role };
  if (m.role === 'user') return { ...common, tool_call_id: null };
  if (m.role === 'assistant') return { ...common, tool_calls: null, model: null, ...extra };
  return common;
}

function usage(u: Usage | undefined): Json {
  const input = u?.inputTokens ?? 0;
  const output = u?.outputTokens ?? 0;
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_cache_write: null,
    input_tokens_cache_read: null,
    reasoning_tokens: null,
    total_cost: null,
  };
}

/** waver's finish reasons in inspect's: a refusal is a content filter, anything unknown is `unknown`. */
const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'stop',
  length: 'max_tokens',
  refusal: 'content_filter',
};

/**
 * A grade as inspect's Score: C or I where the protocol says right or wrong (inspect's own
 * accuracy reads them), else its score; none where the protocol gave no verdict.
 */
function scores(t: Transcript): Json | null {
  const g = t.graded;
  if (!g || (g.correct === undefined && g.score === undefined)) return null;
  const value = g.correct === undefined ? (g.score as number) : g.correct ? 'C' : 'I';
  const explanation = g.judge?.reason ?? (g.via === undefined ? null : `answer found by ${g.via}`);
  return {
    [g.protocol]: {
      value,
      answer: g.answer === undefined ? null : String(g.answer),
      explanation,
      metadata: { ...g },
      history: [],
    },
  };
}

const evalError = (message: string): Json => ({ message, traceback: '', traceback_ansi: '' });

function sample(t: Transcript): Json {
  const input = t.request.messages.map((m) => message(m));
  const text = t.response?.text ?? '';
  const reply = message({ role: 'assistant', content: text }, { source: 'generate', model: t.model.label });
  const meta = t.test.meta !== null && typeof t.test.meta === 'object' ? (t.test.meta as Json) : {};
  return {
    id: t.test.id,
    epoch: t.repeat + 1,
    // A raw prompt (no chat template) is text; a lone user message its content, as inspect writes one.
    input:
      t.request.rawPrompt ??
      (input.length === 1 && t.request.messages[0]?.role === 'user' ? t.request.messages[0].content : input),
    choices: null,
    // A target is a protocol's (an answer key, a number): it is in the metadata and the score.
    target: '',
    sandbox: null,
    files: null,
    setup: null,
    messages: t.response ? [...input, reply] : input,
    output: {
      model: t.response?.responseModel ?? t.model.label,
      choices: t.response
        ? [
            {
              message: reply,
              stop_reason: STOP_REASONS[t.response.finishReason] ?? 'unknown',
              logprobs: null,
            },
          ]
        : [],
      completion: text,
      usage: t.response ? usage(t.response.usage) : null,
      time: t.response?.latencyMs === undefined ? null : t.response.latencyMs / 1000,
      metadata: null,
      error: t.error?.message ?? null,
    },
    scores: scores(t),
    metadata: {
      ...meta,
      repeat: t.repeat,
      status: t.status,
      calls: t.calls,
      response_key: t.response?.key ?? null,
    },
    store: {},
    events: [],
    timelines: null,
    model_usage: t.response ? { [t.model.label]: usage(t.response.usage) } : {},
    role_usage: {},
    started_at: null,
    completed_at: t.updatedAt,
    total_time: null,
    working_time: null,
    uuid: null,
    invalidation: null,
    error: t.error ? evalError(`${t.error.kind}: ${t.error.message}`) : null,
    error_retries: null,
    attachments: {},
    events_data: null,
    limit: null,
  };
}

/** A short stable id from text, as inspect's ids are (22 characters). */
const idOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** Tokens summed over the cells answered. */
function usageSum(cells: readonly Transcript[]): Usage {
  return cells.reduce(
    (u, t) => ({
      inputTokens: u.inputTokens + (t.response?.usage.inputTokens ?? 0),
      outputTokens: u.outputTokens + (t.response?.usage.outputTokens ?? 0),
    }),
    { inputTokens: 0, outputTokens: 0 },
  );
}

/**
 * The results: how many cells, how many answered, and the share the protocol graded right
 * (inspect's `accuracy` of C and I), absent when it graded none right or wrong: unavailable, not 0.
 */
function results(cells: readonly Transcript[]): Json {
  const verdicts = cells.flatMap((t) => (t.graded?.correct === undefined ? [] : [t.graded]));
  const protocol = verdicts[0]?.protocol;
  const right = verdicts.filter((g) => g.correct).length;
  return {
    total_samples: cells.length,
    completed_samples: cells.filter((t) => t.status === 'done').length,
    early_stopping: null,
    scores: protocol
      ? [
          {
            name: protocol,
            scorer: protocol,
            reducer: null,
            scored_samples: verdicts.length,
            unscored_samples: cells.length - verdicts.length,
            params: {},
            metrics: {
              accuracy: { name: 'accuracy', value: right / verdicts.length, params: {}, metadata: null },
            },
            metadata: null,
          },
        ]
      : [],
    metadata: null,
  };
}

/** A log's status: success when every cell is answered, error when one failed, started while some are pending. */
function status(cells: readonly Transcript[]): { status: string; error: Json | null } {
  const failed = cells.filter((t) => t.status === 'failed').length;
  if (failed > 0) return { status: 'error', error: evalError(`${failed} of ${cells.length} cells failed`) };
  return { status: cells.every((t) => t.status === 'done') ? 'success' : 'started', error: null };
}

function evalSpec(cells: readonly Transcript[], created: string): Json {
  const [first] = cells as [Transcript];
  const ids = [...new Set(cells.map((t) => t.test.id))];
  return {
    eval_set_id: null,
    eval_id: idOf(`eval ${first.suite.hash} ${first.model.identity}`),
    run_id: idOf(`run ${first.suite.hash}`),
    created,
    task: first.suite.name,
    task_id: first.suite.hash,
    task_version: 0,
    task_file: null,
    task_display_name: null,
    task_registry_name: null,
    task_attribs: {},
    task_args: {},
    task_args_passed: {},
    solver: null,
    solver_args: null,
    solver_args_passed: null,
    tags: null,
    dataset: {
      name: first.suite.name,
      location: null,
      samples: ids.length,
      sample_ids: ids,
      shuffled: false,
    },
    sandbox: null,
    model: first.model.label,
    model_generate_config: generateConfig(first),
    model_base_url: null,
    model_args: {},
    model_roles: null,
    config: nulls(EVAL_CONFIG_FIELDS, { epochs: Math.max(...cells.map((t) => t.repeat)) + 1 }),
    revision: null,
    packages: { waver: WAVER_VERSION },
    metadata: { waver: { suite_hash: first.suite.hash, model_identity: first.model.identity } },
    scorers: null,
    metrics: null,
  };
}

/** One eval's log: its cells (one suite, one model) as samples, with the eval's spec, plan, results and stats. */
function evalLogOf(cells: readonly Transcript[]): InspectLog {
  const times = cells.map((t) => t.updatedAt).sort();
  const created = times[0] as string;
  const spec = evalSpec(cells, created);
  const label = (cells[0] as Transcript).model.label;
  const file = `${created.replace(/[:.]/g, '-')}_${slug(String(spec.task))}_${spec.eval_id}.json`;
  const log = {
    version: 2,
    ...status(cells),
    eval: spec,
    plan: {
      name: 'plan',
      steps: [{ solver: 'generate', params: {}, params_passed: {} }],
      finish: null,
      config: nulls(GENERATE_CONFIG_FIELDS),
    },
    results: results(cells),
    stats: {
      started_at: created,
      completed_at: times[times.length - 1] as string,
      model_usage: { [label]: usage(usageSum(cells)) },
      role_usage: {},
    },
    invalidated: false,
    log_updates: null,
    tags: [],
    metadata: {},
    samples: cells.map(sample),
    reductions: null,
    location: file,
    etag: null,
    eval_set_info: null,
  };
  return { file, log };
}

/** A suite's name as a file name's part: letters, digits, dots and dashes. */
const slug = (name: string) => name.replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 60) || 'suite';

/** The logs of the store's cells as the filter keeps them: one per suite and model, cells in the store's order. */
export function inspectLogs(store: Store, filter: CellFilter = {}, grade?: Grader): InspectLog[] {
  const evals = new Map<string, Transcript[]>();
  for (const t of exportTranscripts(store, filter, grade)) {
    const key = `${t.suite.hash} ${t.model.identity}`;
    const cells = evals.get(key) ?? [];
    cells.push(t);
    evals.set(key, cells);
  }
  return [...evals.values()].map(evalLogOf);
}
