import { DEFAULT_MAX_TOKENS, type WaverConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { asReasoningRequest, isReasoningSpec } from '../models/reasoning.js';
import { type ModelSpec, specLabel, toModelSpec } from '../models/spec.js';
import type { ChatMessage, GenerateRequest } from '../models/types.js';
import type { Cell, Suite, SuiteTest } from './types.js';

export interface PlannedModel {
  label: string;
  spec: ModelSpec;
}

/** The config's systems under test, as specs with unique labels. */
export function plannedModels(config: WaverConfig): PlannedModel[] {
  if (config.models.length === 0)
    throw new InputError('no model to run: pass --models SPEC[,SPEC] or set models in waver.yaml', {
      field: 'models',
    });
  const out: PlannedModel[] = [];
  const seen = new Set<string>();
  config.models.forEach((raw, i) => {
    const spec = toModelSpec(raw, { field: `models.${i}` });
    const label = specLabel(spec);
    if (seen.has(label)) throw new InputError(`model '${label}' is listed twice`, { field: `models.${i}` });
    seen.add(label);
    out.push({ label, spec });
  });
  return out;
}

/**
 * The exact request a test sends, resolved here once for the run, its estimate and its batches:
 * system prompt (if any), the prompt, and the config's generation params, the test's own output
 * cap winning (a protocol writes the cap it resolved into its tests, docs/protocols.md#request);
 * for `model` (a label), that model's own way of being asked (`test.byModel`) wins in turn.
 */
export function requestFor(test: SuiteTest, params: WaverConfig['params'], model?: string): GenerateRequest {
  const own = model === undefined ? undefined : test.byModel?.[model];
  const system = own?.system ?? test.system;
  const messages: ChatMessage[] = [];
  if (system !== undefined) messages.push({ role: 'system', content: system });
  messages.push({ role: 'user', content: test.prompt });
  const maxTokens = own?.maxTokens ?? test.maxTokens ?? paramsCap(params);
  const request: GenerateRequest = { messages, temperature: params.temperature, maxTokens };
  if (params.topP !== undefined) request.topP = params.topP;
  if (params.seed !== undefined) request.seed = params.seed;
  if (params.stop !== undefined) request.stop = params.stop;
  if (params.logprobs) request.logprobs = true;
  if (params.topLogprobs !== undefined) request.topLogprobs = params.topLogprobs;
  return request;
}

/** The cap a test without its own is sent: the params', else DEFAULT_MAX_TOKENS (docs/protocols.md#request). */
export function paramsCap(params: Pick<WaverConfig['params'], 'maxTokens'>): number {
  return params.maxTokens ?? DEFAULT_MAX_TOKENS;
}

/** Cells a model owes a suite: the sum over tests of their repeats. */
export function expectedCells(suite: Suite, repeats: number): number {
  return suite.tests.reduce((n, t) => n + (t.repeats ?? repeats), 0);
}

/**
 * Cells = test x model x repeat, in a stable order (test-major, so partial runs cover whole tests
 * first), made as they are read: a suite of a million cells is never held as cells. Each cell's
 * request is what its model is sent: a reasoning model's has no sampling controls
 * (docs/decisions.md E12), so the store and the cache key hold what was sent. The repeats of one
 * test and model share one request object.
 */
export function* planCells(
  suite: Suite,
  models: readonly PlannedModel[],
  config: WaverConfig,
): Generator<Cell> {
  for (const test of suite.tests) {
    for (const model of models) {
      const asked = requestFor(test, config.params, model.label);
      const request = isReasoningSpec(model.spec) ? asReasoningRequest(asked) : asked;
      for (let repeat = 0; repeat < (test.repeats ?? config.repeats); repeat++) {
        yield { testId: test.id, model: model.label, repeat, request };
      }
    }
  }
}

/**
 * The params a role call sends. Built fresh rather than taken from `config.params`: those are the
 * SUT's (a stop sequence or seed meant for the system under test must not change a judge's verdict).
 */
export function roleParams(temperature: number, maxTokens: number): WaverConfig['params'] {
  return { temperature, maxTokens, logprobs: false };
}
