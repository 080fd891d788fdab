import type { WaverConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
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

/** The exact request a test sends: system prompt (if any), the prompt, and the config's generation params. */
export function requestFor(test: SuiteTest, params: WaverConfig['params']): GenerateRequest {
  const messages: ChatMessage[] = [];
  if (test.system !== undefined) messages.push({ role: 'system', content: test.system });
  messages.push({ role: 'user', content: test.prompt });
  const request: GenerateRequest = { messages, temperature: params.temperature, maxTokens: params.maxTokens };
  if (params.topP !== undefined) request.topP = params.topP;
  if (params.seed !== undefined) request.seed = params.seed;
  if (params.stop !== undefined) request.stop = params.stop;
  if (params.logprobs) request.logprobs = true;
  if (params.topLogprobs !== undefined) request.topLogprobs = params.topLogprobs;
  return request;
}

/** Cells a model owes a suite: the sum over tests of their repeats. */
export function expectedCells(suite: Suite, repeats: number): number {
  return suite.tests.reduce((n, t) => n + (t.repeats ?? repeats), 0);
}

/**
 * Cells = test x model x repeat, in a stable order (test-major, so partial runs cover whole tests
 * first), made as they are read: a suite of a million cells is never held as cells. The models and
 * repeats of one test share one request object.
 */
export function* planCells(
  suite: Suite,
  models: readonly PlannedModel[],
  config: WaverConfig,
): Generator<Cell> {
  for (const test of suite.tests) {
    const request = requestFor(test, config.params);
    for (const model of models) {
      for (let repeat = 0; repeat < (test.repeats ?? config.repeats); repeat++) {
        yield { testId: test.id, model: model.label, repeat, request };
      }
    }
  }
}
