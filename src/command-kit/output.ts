import {
  closeSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
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
  watchStdout();
  if (!stdout.gone) process.stdout.write(text);
  if (out) writeOut(out, text);
}

/**
 * What became of stdout: `gone` once its reader closed it (`waver export | head -1`: EPIPE), so
 * what is still to write is dropped quietly, with the command's exit code, as `head` expects; any
 * other failure to write it (a full disk under `> file`) is the user's to fix, exit 2: thrown by
 * the output being streamed, else said on stderr once it is known. Node raises both on the stream,
 * where nothing listening ends the process with a stack trace.
 */
const stdout: {
  watched: boolean;
  gone: boolean;
  failure?: InputError;
  /** An output is being streamed (writeOutput): it throws the failure itself. */
  streaming: boolean;
  drained?: Promise<void>;
  wake?: () => void;
} = { watched: false, gone: false, streaming: false };

function watchStdout(): void {
  if (stdout.watched) return;
  stdout.watched = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && !stdout.gone) {
      stdout.failure = new InputError(`cannot write the output (${whyNotWritten(e)})`, { field: 'stdout' });
      if (!stdout.streaming) {
        process.stderr.write(`waver: ${stdout.failure.format()}\n`);
        process.exitCode = EXIT.input;
      }
    }
    stdout.gone = true;
    stdout.wake?.();
  });
}

/** Thrown by a write to stdout once it is gone: the output ends there. */
class StdoutGone extends Error {}

/**
 * Writes to stdout; when its pipe is full, a promise of its drain (or of its end), one for all the
 * writes made meanwhile by a producer that does not wait.
 */
function toStdout(chunk: string): Promise<void> | undefined {
  if (stdout.gone) throw new StdoutGone();
  if (process.stdout.write(chunk)) return undefined;
  stdout.drained ??= new Promise<void>((resolve) => {
    const wake = () => {
      process.stdout.off('drain', wake);
      stdout.drained = undefined;
      stdout.wake = undefined;
      resolve();
    };
    stdout.wake = wake;
    process.stdout.once('drain', wake);
  });
  return stdout.drained;
}

/** How a command hands its output over a chunk at a time: it may wait on what a write returns. */
type WriteChunk = (chunk: string) => Promise<void> | undefined;

/**
 * A command's output made a chunk at a time (a report, an export): to stdout without `out`, a full
 * pipe's drain awaited by a producer that waits; else written whole or not at all, as `writeOut`
 * writes: into a file beside `out` renamed over it once complete, so a full disk, a failure of the
 * producer or a kill leaves no file and the one already there as it was. A path or disk that
 * refuses the writes is the user's to fix (exit 2, naming it). The bytes written.
 */
export async function writeOutput(
  out: string | undefined,
  produce: (write: WriteChunk) => void | Promise<void>,
): Promise<number> {
  let size = 0;
  if (out === undefined) {
    watchStdout();
    stdout.streaming = true;
    try {
      await produce((chunk) => {
        size += Buffer.byteLength(chunk);
        return toStdout(chunk);
      });
    } catch (e) {
      if (!(e instanceof StdoutGone)) throw e;
    } finally {
      stdout.streaming = false;
    }
    if (stdout.failure) throw stdout.failure;
    return size;
  }
  const partial = partialOf(out);
  const failed = (e: unknown) => outputFailure(out, partial, e, 'nothing was written');
  let fd: number;
  try {
    mkdirSync(dirname(out), { recursive: true });
    fd = openSync(partial ?? out, 'w');
  } catch (e) {
    throw failed(e);
  }
  try {
    // A write that fails throws the output's failure; anything else the producer throws is its own.
    await produce((chunk) => {
      size += writeAll(fd, chunk, failed);
      return undefined;
    });
  } catch (e) {
    closeSync(fd);
    if (partial) rmSync(partial, { force: true });
    throw e;
  }
  try {
    closeSync(fd);
    if (partial) renameSync(partial, out);
  } catch (e) {
    throw failed(e);
  }
  return size;
}

/** The whole chunk, however many writes it takes: a write cut short by a size limit fails at the next. */
function writeAll(fd: number, chunk: string, failed: (e: unknown) => InputError): number {
  const bytes = Buffer.from(chunk);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (e) {
    throw failed(e);
  }
  return bytes.length;
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
function partialOf(out: string): string | undefined {
  const existing = statSync(out, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new InputError('is a directory: name a file for --out', { file: out });
  return existing && !existing.isFile() ? undefined : `${out}.partial-${process.pid}`;
}

/** A write of `--out` that failed, as the user's to fix (exit 2), the partial file removed. */
function outputFailure(out: string, partial: string | undefined, e: unknown, note: string): InputError {
  if (partial) rmSync(partial, { force: true });
  if (e instanceof InputError) return e;
  return new InputError(`cannot write the output (${whyNotWritten(e)}); ${note}`, { file: out });
}

function whyNotWritten(e: unknown): string {
  return (e as NodeJS.ErrnoException).code === 'ENOSPC' ? 'disk full' : (e as Error).message;
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
