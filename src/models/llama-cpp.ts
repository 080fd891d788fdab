/**
 * node-llama-cpp, loaded once with `import()` by `getSharedLlama` (llama.ts). It is an ES module
 * with top-level await, which the CLI's CommonJS bundle cannot `require()` (docs/decisions.md E41,
 * "The code cache"); every other use of it needs a model, and a model comes only after the load.
 */
import { importModule } from '../util/import-module.js';

type LlamaCpp = typeof import('node-llama-cpp');

let loaded: LlamaCpp | undefined;

export async function loadLlamaCpp(): Promise<LlamaCpp> {
  loaded ??= await importModule<LlamaCpp>('node-llama-cpp');
  return loaded;
}

/** The loaded package; a use before any model was loaded is waver's bug, said as such. */
export function llamaCpp(): LlamaCpp {
  if (loaded === undefined) throw new Error('internal: node-llama-cpp used before loadLlamaCpp()');
  return loaded;
}
