import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';

/** Exit codes: scripts and CI gates branch on these. */
export const EXIT = {
  ok: 0,
  /** waver itself failed (a bug, or an error it could not attribute). */
  internal: 1,
  /** Bad input: config, flags, suite, model spec, missing key, unreachable endpoint. Nothing was written. */
  input: 2,
  /** The run finished but some cells failed or coverage is below the threshold. */
  incomplete: 3,
  checkFailed: 4, // `waver check`: a threshold failed, or `--compare` found the new model significantly worse.
  /** Stopped by its budget (`--max-calls`, `--max-cost`): the cells left are pending; the same command resumes. */
  budget: 5,
  /** Stopped by SIGINT/SIGTERM; the store is consistent and the run resumes on re-run. */
  aborted: 130,
} as const;

/** Prints the text and, when asked, writes it to a file too. */
export function emit(text: string, out?: string): void {
  process.stdout.write(text);
  if (out) writeOut(out, text);
}

/**
 * Writes `--out` whole or not at all: to a file beside it, renamed over it, so a full disk or a
 * killed process never leaves half a summary. A device (`/dev/stdout`) is written as it is. A
 * path that cannot be written is the user's to fix (exit 2), naming it.
 */
export function writeOut(out: string, text: string): void {
  const partial = partialOf(out);
  try {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(partial ?? out, text);
    if (partial) renameSync(partial, out);
  } catch (e) {
    throw outputFailure(out, partial, e, 'what it says is printed above');
  }
}

/**
 * The file `--out` is written into before it is renamed over `out`; undefined for a device or a
 * pipe (`/dev/stdout`, `/dev/full`), written as it is: renaming over it would replace the device.
 */
export function partialOf(out: string): string | undefined {
  const existing = statSync(out, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new InputError('is a directory: name a file for --out', { file: out });
  return existing && !existing.isFile() ? undefined : `${out}.partial-${process.pid}`;
}

/** A write of `--out` that failed, as the user's to fix (exit 2), the partial file removed. */
export function outputFailure(
  out: string,
  partial: string | undefined,
  e: unknown,
  note: string,
): InputError {
  if (partial) rmSync(partial, { force: true });
  if (e instanceof InputError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === 'ENOSPC' ? 'disk full' : (e as Error).message;
  return new InputError(`cannot write the output (${why}); ${note}`, { file: out });
}

/**
 * Runs `fn` with a signal that the first Ctrl-C (or SIGTERM) aborts: calls in flight are cancelled,
 * finished cells are already stored. A second Ctrl-C exits at once.
 */
export async function withAbort<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(EXIT.aborted);
    process.stderr.write('\nstopping: finishing the store (Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await fn(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
