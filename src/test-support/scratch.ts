import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../errors.js';

/** A new empty directory under the OS temp dir, for a test's files. */
export function scratchDir(prefix = 'waver-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A suite file of these lines (`suite.jsonl` in `dir`), one JSON object a line; its path. */
export function writeSuite(dir: string, lines: readonly object[]): string {
  const path = join(dir, 'suite.jsonl');
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return path;
}

/** The InputError `fn` throws; any other outcome fails the test. */
export function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError');
}
