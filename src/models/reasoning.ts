import type { ModelSpec } from './spec-shape.js';
import type { GenerateRequest } from './types.js';

/**
 * Reasoning models (docs/decisions.md E12): OpenAI's o-series and gpt-5 family take
 * `max_completion_tokens` (reasoning and answer tokens together) instead of `max_tokens`, and no
 * sampling controls (they reject `temperature` other than 1, `top_p` and log-probs). A model id
 * is taken for one when its last path segment (`openai/o4-mini` is `o4-mini`) matches
 * REASONING_MODEL_ID; a spec's `reasoning: true|false` overrides the guess either way.
 */
export const REASONING_MODEL_ID = /^(?:o\d+|gpt-5)(?:[-.][\w.-]*)?$/i;

export function isReasoningModelId(model: string): boolean {
  return REASONING_MODEL_ID.test(model.split('/').at(-1) ?? model);
}

/** Whether a spec names an `openai:` reasoning model: its own `reasoning`, else its id's guess. */
export function isReasoningSpec(
  spec: Pick<ModelSpec, 'provider' | 'model'> & { reasoning?: unknown },
): boolean {
  if (spec.provider !== 'openai') return false;
  return typeof spec.reasoning === 'boolean' ? spec.reasoning : isReasoningModelId(spec.model);
}

/**
 * The request as a reasoning model is sent it, so the stored request (and the cache key) is what
 * was sent: no temperature, top_p or log-probs, `reasoning: true` for the output cap's meaning.
 */
export function asReasoningRequest(request: GenerateRequest): GenerateRequest {
  const { temperature: _t, topP: _p, logprobs: _l, topLogprobs: _k, ...sent } = request;
  return { ...sent, reasoning: true };
}
