#!/usr/bin/env node
/**
 * Builds node-llama-cpp's addon with waver's patches and installs it where node-llama-cpp looks
 * for a local build first, so the gguf provider reads log-probs (logit-summary.patch,
 * docs/decisions.md E30) and every layer's hidden state (layer-states.patch, docs/sago.md#activation)
 * through it. Opt-in and offline: the addon's sources come from the installed
 * node-llama-cpp, llama.cpp's headers from the git bundle it ships, and the addon links against
 * the llama.cpp libraries of its prebuilt CPU binaries (nothing of llama.cpp is compiled). Needs
 * Linux, cmake, a C++17 compiler, git and patch.
 *
 *   npm run build:gguf-native            build and install
 *   npm run build:gguf-native -- --remove   back to node-llama-cpp's prebuilt binary
 *
 * The work files go under node_modules/.cache/waver-gguf-native; `npm ci` removes both.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** Applied in this order: each patch's context includes the ones before it. */
const PATCHES = ['logit-summary.patch', 'layer-states.patch'];
const root = resolve(here, '../..');
if (process.platform !== 'linux') {
  // The CMake file links the prebuilt .so libraries; other platforms keep the public route.
  console.error(`build:gguf-native builds on Linux only (this is ${process.platform})`);
  process.exit(1);
}
const target = `${process.platform}-${process.arch}`;
/** An installed package's folder (npm installs them all at the top of node_modules). */
const packageDir = (name) => {
  const dir = join(root, 'node_modules', name);
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`${name} is not installed: run npm ci first`);
  return dir;
};

const llamaDir = join(packageDir('node-llama-cpp'), 'llama');
const prebuilt = join(packageDir(`@node-llama-cpp/${target}`), 'bins', target);
// node-llama-cpp prefers llama/localBuilds/<platform>-<arch> (its name for a CPU build of its own
// llama.cpp release) over the prebuilt binaries; Release/ and buildDone.status make it complete.
const localBuild = join(llamaDir, 'localBuilds', target);
const cache = join(root, 'node_modules', '.cache', 'waver-gguf-native');

const run = (command, args, cwd = cache) => execFileSync(command, args, { cwd, stdio: 'inherit' });

if (process.argv.includes('--remove')) {
  rmSync(localBuild, { recursive: true, force: true });
  console.log(`removed ${localBuild}: node-llama-cpp's prebuilt binary is used again`);
  process.exit(0);
}
if (existsSync(join(llamaDir, 'llama.cpp'))) {
  // A source build of node-llama-cpp's own would share the local-build folder; refuse to mix.
  console.error(`${join(llamaDir, 'llama.cpp')} exists (a node-llama-cpp source build): not touching it`);
  process.exit(1);
}

const started = performance.now();
mkdirSync(cache, { recursive: true });
const sources = join(cache, 'llama.cpp');
if (!existsSync(join(sources, 'include', 'llama.h'))) {
  rmSync(sources, { recursive: true, force: true });
  run('git', ['clone', '--quiet', join(llamaDir, 'gitRelease.bundle'), sources]);
}
const addon = join(cache, 'addon');
rmSync(addon, { recursive: true, force: true });
run('cp', ['-r', join(llamaDir, 'addon'), addon]);
for (const name of PATCHES) run('patch', ['-p1', '--forward', '--quiet', '-i', join(here, name)]);

const build = join(cache, 'build');
// A fresh build folder: CMake refuses a cache made from another checkout's scripts/gguf-native (a
// worktree sharing node_modules), and the addon sources above are fresh copies anyway.
rmSync(build, { recursive: true, force: true });
run('cmake', [
  '-S',
  here,
  '-B',
  build,
  '-DCMAKE_BUILD_TYPE=Release',
  `-DADDON_SOURCE=${addon}`,
  `-DLLAMA_CPP_SOURCE=${sources}`,
  `-DPREBUILT_BINS=${prebuilt}`,
  `-DNODE_API_HEADERS=${join(packageDir('node-api-headers'), 'include')}`,
  `-DNODE_ADDON_API=${packageDir('node-addon-api')}`,
]);
run('cmake', ['--build', build, '--parallel', String(availableParallelism())]);

// The prebuilt folder as it is (libraries, CPU variants, build metadata) with the patched addon,
// staged beside the cache and swapped in by two renames: a process that has the old addon loaded
// keeps its (unlinked) files, and one starting meanwhile sees either build or the prebuilt one.
const staged = join(cache, 'install');
rmSync(staged, { recursive: true, force: true });
mkdirSync(join(staged, 'Release'), { recursive: true });
for (const file of readdirSync(prebuilt)) copyFileSync(join(prebuilt, file), join(staged, 'Release', file));
copyFileSync(join(build, 'llama-addon.node'), join(staged, 'Release', 'llama-addon.node'));
writeFileSync(join(staged, 'buildDone.status'), '');
const previous = join(cache, 'previous');
rmSync(previous, { recursive: true, force: true });
if (existsSync(localBuild)) renameSync(localBuild, previous);
mkdirSync(dirname(localBuild), { recursive: true });
renameSync(staged, localBuild);
rmSync(previous, { recursive: true, force: true });
const release = join(localBuild, 'Release');
console.log(
  `installed the patched addon in ${release} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
