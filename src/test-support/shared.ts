import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is src/test-support/shared.ts). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `../shared` beside the checkout: datasets, models and fixtures are read from there, never committed. */
export const sharedDir = resolve(repoRoot, '..', 'shared');

/** Absolute path of a file under ../shared, or undefined when it is missing (tests skip with the reason). */
export function sharedFile(relative: string): string | undefined {
  const path = resolve(sharedDir, relative);
  return existsSync(path) ? path : undefined;
}

/** An environment that points the dataset loaders at ../shared/data, as a user's `WAVER_DATA_DIR` would. */
export const sharedDataEnv = { WAVER_DATA_DIR: resolve(sharedDir, 'data') };

export const tinyModelPath = sharedFile('models/stories260K.gguf');
export const tinyModelMissing = tinyModelPath
  ? undefined
  : `skipped: ${resolve(sharedDir, 'models/stories260K.gguf')} is not there (the tiny GGUF test model lives in ../shared/models)`;
