import type { FinishReason, GenerateRequest, TokenLogprob } from '../domain/calls.js';
import type { CellError, CellStatus } from '../domain/cells.js';
import type { RunRecord, StoredAttempt, StoredCell, StoredResponse } from './records.js';

/** The store's rows as SQLite gives them, and their mapping to records. */

export interface CellRow {
  id: number;
  suite_hash: string;
  test_id: string;
  model: string;
  model_identity: string;
  repeat: number;
  status: CellStatus;
  response_key: string | null;
  cell_request_json: string | null;
  error_kind: string | null;
  error_message: string | null;
  error_status: number | null;
  attempts: number;
  cell_latency_ms: number | null;
  updated_at: string;
  run_id: string;
  r_identity: string | null;
  r_model: string | null;
  r_request_json: string | null;
  text: string | null;
  tokens_json: string | null;
  finish_reason: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  r_latency_ms: number | null;
  response_model: string | null;
  r_created_at: string | null;
}

export interface RunRow {
  id: string;
  started_at: string;
  finished_at: string | null;
  waver_version: string;
  config_json: string;
  suite_hash: string | null;
  status: string;
}

export interface ResponseRow {
  key: string;
  identity: string;
  model: string;
  request_json: string;
  text: string;
  tokens_json: string | null;
  finish_reason: string;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number | null;
  response_model: string | null;
  created_at: string;
}

export interface AttemptRow {
  run_id: string;
  attempt: number;
  started_at: string;
  latency_ms: number | null;
  outcome: string;
  message: string | null;
  status: number | null;
}

export function toRun(row: RunRow): RunRecord {
  return {
    id: row.id,
    startedAt: row.started_at,
    ...(row.finished_at !== null ? { finishedAt: row.finished_at } : {}),
    waverVersion: row.waver_version,
    config: JSON.parse(row.config_json),
    ...(row.suite_hash !== null ? { suiteHash: row.suite_hash } : {}),
    status: row.status,
  };
}

export function toResponse(row: ResponseRow): StoredResponse {
  return {
    key: row.key,
    identity: row.identity,
    model: row.model,
    request: JSON.parse(row.request_json) as GenerateRequest,
    text: row.text,
    ...(row.tokens_json !== null ? { tokens: JSON.parse(row.tokens_json) as TokenLogprob[] } : {}),
    finishReason: row.finish_reason as FinishReason,
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens },
    ...(row.response_model !== null ? { responseModel: row.response_model } : {}),
    ...(row.latency_ms !== null ? { latencyMs: row.latency_ms } : {}),
    createdAt: row.created_at,
  };
}

export function toAttempt(a: AttemptRow): StoredAttempt {
  return {
    attempt: a.attempt,
    runId: a.run_id,
    startedAt: a.started_at,
    ...(a.latency_ms !== null ? { latencyMs: a.latency_ms } : {}),
    outcome: a.outcome,
    ...(a.message !== null ? { message: a.message } : {}),
    ...(a.status !== null ? { status: a.status } : {}),
  };
}

export function toCell(row: CellRow): StoredCell {
  const response =
    row.response_key !== null && row.r_request_json !== null
      ? toResponse({
          key: row.response_key,
          identity: row.r_identity as string,
          model: row.r_model as string,
          request_json: row.r_request_json,
          text: row.text as string,
          tokens_json: row.tokens_json,
          finish_reason: row.finish_reason as string,
          input_tokens: row.input_tokens as number,
          output_tokens: row.output_tokens as number,
          latency_ms: row.r_latency_ms,
          response_model: row.response_model,
          created_at: row.r_created_at as string,
        })
      : undefined;
  const requestJson = row.cell_request_json ?? row.r_request_json ?? '{"messages":[]}';
  return {
    id: row.id,
    suiteHash: row.suite_hash,
    testId: row.test_id,
    model: row.model,
    modelIdentity: row.model_identity,
    repeat: row.repeat,
    status: row.status,
    ...(row.response_key !== null ? { responseKey: row.response_key } : {}),
    request: JSON.parse(requestJson) as GenerateRequest,
    ...(response ? { response } : {}),
    ...(row.status === 'failed'
      ? {
          error: {
            kind: (row.error_kind ?? 'internal') as CellError['kind'],
            message: row.error_message ?? '',
            ...(row.error_status !== null ? { status: row.error_status } : {}),
          },
        }
      : {}),
    attempts: row.attempts,
    ...(row.cell_latency_ms !== null ? { latencyMs: row.cell_latency_ms } : {}),
    updatedAt: row.updated_at,
    runId: row.run_id,
  };
}

/** The time written in a row's *_at column. */
export function now(): string {
  return new Date().toISOString();
}
