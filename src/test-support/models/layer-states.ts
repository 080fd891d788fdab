import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../shared.js';

/** The patched addon (`npm run build:gguf-native`) where it is built for this machine. */
const addon = join(
  repoRoot,
  'node_modules',
  'node-llama-cpp',
  'llama',
  'localBuilds',
  `${process.platform}-${process.arch}`,
  'Release',
  'llama-addon.node',
);

/** Whether the patched addon reads every layer's hidden state (a build before layer-states.patch does not). */
export const layerStatesBuilt = existsSync(addon) && readFileSync(addon).includes('takeLayerStates');

/** Why the tests of every layer's hidden state are skipped here ('' where they run). */
export const layerStatesMissing = layerStatesBuilt
  ? ''
  : 'skipped: the patched addon with layer-states.patch is not built (run `npm run build:gguf-native`; CI builds it)';

/** The cosine of two vectors, computed here apart from the code under test. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
}
