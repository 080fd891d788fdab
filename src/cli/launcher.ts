#!/usr/bin/env node
/**
 * waver's executable (`dist/bin/waver.cjs`): runs the CLI's bundle (`dist/bin/main.cjs`, made from
 * `main.ts`) with a V8 code cache, so a run does not parse and compile the same JavaScript every
 * time it starts; Node 20 has no module compile cache of its own (docs/decisions.md E41, "The code
 * cache"). One cache per bundle and command, made at the end of a command's first run, so it holds
 * what that command compiled. Anything wrong with the cache (no folder, not ours, refused by V8)
 * costs only the compile: the CLI runs the same with or without it. V8 checks a cache against its
 * own version and flags and the source's length; the bundle's digest in the name does the rest.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { HOST_IMPORT } from '../util/import-module.js';
import { setCliV8Flags } from './v8-flags.js';

/** The bundle's content digest, written in by scripts/bundle-cli.mjs: V8 checks a cache against the source's length only. */
declare const WAVER_BUNDLE_ID: string;

const bundle = join(dirname(fileURLToPath(import.meta.url)), 'main.cjs');

setCliV8Flags(process.argv[2]);
// The bundle's `import()`s go through this module's (util/import-module.ts says why).
(globalThis as Record<symbol, unknown>)[HOST_IMPORT] = (specifier: string) => import(specifier);
runBundle(bundle, cacheFile(process.env, process.argv[2]));

/**
 * Where this command's cache lives, or undefined for none. `WAVER_CODE_CACHE=off` turns it off and
 * a path puts it there; by default it sits with waver's other caches (`$WAVER_CACHE_DIR/code`, else
 * `$XDG_CACHE_HOME/waver/code`, else `~/.cache/waver/code`, as the Hub's datasets do). A cache is
 * code this process will run, so a folder that is not the user's own, or that others may write, is
 * not used.
 */
function cacheFile(env: NodeJS.ProcessEnv, command: string | undefined): string | undefined {
  const setting = env.WAVER_CODE_CACHE;
  if (setting === 'off' || setting === '0' || typeof process.getuid !== 'function') return undefined;
  const dir =
    setting ||
    (env.WAVER_CACHE_DIR
      ? join(env.WAVER_CACHE_DIR, 'code')
      : join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'waver', 'code'));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (st.uid !== process.getuid() || (st.mode & 0o022) !== 0) return undefined;
  } catch {
    return undefined;
  }
  const name = /^[a-z][a-z-]*$/.test(command ?? '') ? command : 'other';
  return join(dir, `${WAVER_BUNDLE_ID}-${process.version}-${process.arch}-${name}.bin`);
}

function runBundle(file: string, cache: string | undefined): void {
  // ASCII by construction (scripts/bundle-cli.mjs): read as one byte a character, no UTF-8 decode.
  const source = readFileSync(file, 'latin1');
  const cachedData = cache === undefined ? undefined : readOrUndefined(cache);
  // No `importModuleDynamically`: the bundle's `import()`s go through the one handed in above.
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  if (cache !== undefined && (cachedData === undefined || script.cachedDataRejected))
    process.once('exit', () => writeCache(cache, script));
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
    dirname(file),
  );
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (a rename), so a concurrent run reads the old cache or the new one. */
function writeCache(file: string, script: Script): void {
  const part = `${file}.${process.pid}.part`;
  try {
    writeFileSync(part, script.createCachedData(), { mode: 0o600 });
    renameSync(part, file);
  } catch {
    // A cache not written costs the next run its compile, nothing else.
  }
}
