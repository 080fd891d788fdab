import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
  /** Stopped by SIGINT/SIGTERM; the store is consistent and the run resumes on re-run. */
  aborted: 130,
} as const;

/** Prints the text and, when asked, writes it to a file too. */
export function emit(text: string, out?: string): void {
  process.stdout.write(text);
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
  }
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
