/**
 * `import()` of a module waver does not bundle: an ES-module package (vega, node-llama-cpp, the
 * OpenAI SDK, hyparquet), a Node module loaded on demand, a user's provider or family file. In the
 * CLI the launcher hands in its own `import()`: the bundle runs from a V8 code cache, and on Node 20
 * a function restored from a code cache has lost the loader that `import()` needs
 * (docs/decisions.md E41, "The code cache"). Elsewhere (the library, tests) it is plain `import()`.
 */
export const HOST_IMPORT = Symbol.for('waver.import');

export function importModule<T>(specifier: string): Promise<T> {
  const host = (globalThis as Record<symbol, unknown>)[HOST_IMPORT] as
    | ((specifier: string) => Promise<unknown>)
    | undefined;
  return (host ? host(specifier) : import(specifier)) as Promise<T>;
}
