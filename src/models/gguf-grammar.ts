import { type LlamaGrammar, LlamaGrammarEvaluationState, type LlamaModel } from 'node-llama-cpp';
import { ProviderError } from './errors.js';
import { errorText } from './gguf-prompt.js';
import type { GenerateRequest } from './types.js';

/**
 * The grammar a request's `json` holds the answer to (node-llama-cpp's GBNF grammars): any JSON
 * (`true`), or a value of the JSON schema given. A fresh evaluation state per answer.
 */
export async function jsonGrammar(
  model: LlamaModel,
  json: GenerateRequest['json'],
): Promise<LlamaGrammarEvaluationState | undefined> {
  if (json === undefined) return undefined;
  let grammar: LlamaGrammar;
  try {
    grammar =
      json === true
        ? await model.llama.getGrammarFor('json')
        : await model.llama.createGrammarForJsonSchema(
            json as Parameters<typeof model.llama.createGrammarForJsonSchema>[0],
          );
  } catch (error) {
    throw new ProviderError('client', `the JSON schema cannot be made a grammar: ${errorText(error)}`, {
      reason: 'invalid_json_schema',
    });
  }
  return new LlamaGrammarEvaluationState({ model, grammar });
}

/** Whether the text so far is one whole JSON object or array (checked only when it could be). */
export function isWholeJson(text: string): boolean {
  const end = text.trimEnd().at(-1);
  if (end !== '}' && end !== ']') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
