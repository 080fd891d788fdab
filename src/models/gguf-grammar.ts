import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LlamaGrammar, LlamaGrammarEvaluationState, LlamaModel } from 'node-llama-cpp';
import { ProviderError } from './errors.js';
import { errorText } from './gguf-prompt.js';
import { llamaCpp } from './llama-cpp.js';
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
  if (json === true) grammar = await model.llama.createGrammar({ grammar: await jsonGbnf() });
  else
    try {
      grammar = await model.llama.createGrammarForJsonSchema(
        json as Parameters<typeof model.llama.createGrammarForJsonSchema>[0],
      );
    } catch (error) {
      throw new ProviderError('client', `the JSON schema cannot be made a grammar: ${errorText(error)}`, {
        reason: 'invalid_json_schema',
      });
    }
  return new (llamaCpp().LlamaGrammarEvaluationState)({ model, grammar });
}

/**
 * node-llama-cpp's JSON grammar, read from the file its package ships. Not `getGrammarFor('json')`:
 * with the patched addon of build:gguf-native (a local build, docs/decisions.md E30) that looks
 * for the grammars in a llama.cpp checkout that is not there.
 */
let jsonGrammarText: Promise<string> | undefined;
function jsonGbnf(): Promise<string> {
  jsonGrammarText ??= readFile(
    join(
      dirname(createRequire(import.meta.url).resolve('node-llama-cpp')),
      '..',
      'llama',
      'grammars',
      'json.gbnf',
    ),
    'utf8',
  );
  return jsonGrammarText;
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
