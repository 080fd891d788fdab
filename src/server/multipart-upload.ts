import { type FileHandle, open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-util.js';

/**
 * A multipart/form-data upload read as it arrives (`POST /v1/files`): its fields kept as text, the
 * file part written to disk a chunk at a time, so a server holding a gigabyte of files holds none
 * of it in memory (the body read whole, then parsed as a form, held each file three times over:
 * 1,806 MB of RSS for 582 MiB of files).
 */

export interface UploadLimits {
  /** Bytes the file part may hold, and the body besides it 64 KiB more: past them, `tooLarge()`. */
  fileBytes: number;
  tooLarge: () => HttpError;
}

export interface Upload {
  /** The form's text fields (the first of each name). */
  fields: Map<string, string>;
  /** The part named `file` (the first with a filename), written to the path given; undefined when none. */
  file?: { filename: string; bytes: number };
}

/** What the form's own lines, its text fields and a part's headers may add. */
const FORM_BYTES = 64 * 1024;

/** The boundary of a multipart/form-data Content-Type, or a 400. */
export function boundaryOf(type: string): string {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(type);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw unreadable('no boundary in its Content-Type');
  return boundary;
}

/**
 * Reads the body of `req` as a form, the file part into `path`. A body or file past the limits is
 * refused as soon as it passes them, and the rest discarded unread rather than the socket reset,
 * so the client gets the 413 (the caller answers with `connection: close`); the caller removes
 * `path` when this fails.
 */
export function readUpload(
  req: IncomingMessage,
  boundary: string,
  path: string,
  limits: UploadLimits,
): Promise<Upload> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.fileBytes + FORM_BYTES)
    return Promise.reject(limits.tooLarge());
  const form = new FormReader(boundary, path, limits);
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.off('data', onData);
      req.resume();
      form.close().finally(() => reject(error));
    };
    // Each chunk placed in turn, the end after the last (it may come while one is being written).
    let placed = Promise.resolve();
    const then = (next: () => Promise<void>) => {
      placed = placed.then(() => (failed ? undefined : next())).catch(fail);
    };
    // Paused while a chunk is written: the socket's own flow control holds the client back.
    const onData = (chunk: Buffer) => {
      req.pause();
      then(async () => {
        await form.push(chunk);
        req.resume();
      });
    };
    req.on('data', onData);
    req.once('end', () => then(async () => resolve(await form.finish())));
    req.once('error', fail);
  });
}

function unreadable(why: string): HttpError {
  return new HttpError(400, `The multipart body could not be read (${why}).`, { code: 'invalid_request' });
}

interface Part {
  name: string;
  /** The file part's: written to disk. */
  toFile: boolean;
  text: Buffer[];
  bytes: number;
}

/** The form's parts as their bytes arrive: between delimiters, each part's headers, then its body. */
class FormReader {
  /** Bytes not yet placed: the body's start is read as a delimiter's, so it opens with a line break. */
  private pending: Buffer = Buffer.from('\r\n');
  private state: 'preamble' | 'delimited' | 'headers' | 'body' | 'done' = 'preamble';
  private readonly delimiter: Buffer;
  private part: Part | undefined;
  private file: FileHandle | undefined;
  private received = 0;
  private readonly upload: Upload = { fields: new Map() };

  constructor(
    boundary: string,
    private readonly path: string,
    private readonly limits: UploadLimits,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  async push(chunk: Buffer): Promise<void> {
    this.received += chunk.length;
    if (this.received > this.limits.fileBytes + FORM_BYTES) throw this.limits.tooLarge();
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    while (await this.step()) {}
  }

  async finish(): Promise<Upload> {
    await this.close();
    if (this.state !== 'done') throw unreadable('it ended before its closing boundary');
    return this.upload;
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }

  /** Places what it can of the pending bytes; whether to go on. */
  private async step(): Promise<boolean> {
    switch (this.state) {
      case 'preamble':
        return this.skipPreamble();
      case 'delimited':
        return this.afterDelimiter();
      case 'headers':
        return this.headers();
      case 'body':
        return this.body();
      case 'done':
        this.pending = Buffer.alloc(0); // the epilogue
        return false;
    }
  }

  /** Skips what comes before the first delimiter. */
  private skipPreamble(): boolean {
    const at = this.pending.indexOf(this.delimiter);
    if (at < 0) {
      this.pending = this.pending.subarray(Math.max(0, this.pending.length - this.delimiter.length + 1));
      return false;
    }
    this.pending = this.pending.subarray(at + this.delimiter.length);
    this.state = 'delimited';
    return true;
  }

  /** After a delimiter: `--` closes the form; else a line break (after optional padding) opens a part. */
  private afterDelimiter(): boolean {
    if (this.pending.length < 2) return false;
    if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
      this.state = 'done';
      return true;
    }
    const eol = this.pending.indexOf('\r\n');
    if (eol < 0) {
      if (this.pending.length > FORM_BYTES) throw unreadable('a delimiter line does not end');
      return false;
    }
    if (this.pending.subarray(0, eol).toString('latin1').trim() !== '')
      throw unreadable('text after a delimiter');
    this.pending = this.pending.subarray(eol + 2);
    this.state = 'headers';
    return true;
  }

  private headers(): boolean {
    const end = this.pending.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.pending.length > FORM_BYTES) throw unreadable("a part's headers are too long");
      return false;
    }
    const disposition = this.pending
      .subarray(0, end)
      .toString('utf8')
      .split('\r\n')
      .find((line) => /^content-disposition:/i.test(line));
    const name = disposition && paramOf(disposition, 'name');
    if (name === undefined) throw unreadable('a part without a Content-Disposition name');
    const filename = paramOf(disposition as string, 'filename');
    const toFile = name === 'file' && filename !== undefined && this.upload.file === undefined;
    if (toFile) this.upload.file = { filename, bytes: 0 };
    this.part = { name, toFile, text: [], bytes: 0 };
    this.pending = this.pending.subarray(end + 4);
    this.state = 'body';
    return true;
  }

  /** The part's bytes up to the next delimiter; those that may begin one wait for the next chunk. */
  private async body(): Promise<boolean> {
    const at = this.pending.indexOf(this.delimiter);
    const upTo = at >= 0 ? at : Math.max(0, this.pending.length - this.delimiter.length + 1);
    await this.take(this.pending.subarray(0, upTo));
    this.pending = this.pending.subarray(at >= 0 ? at + this.delimiter.length : upTo);
    if (at < 0) return false;
    this.endPart();
    this.state = 'delimited';
    return true;
  }

  private async take(bytes: Buffer): Promise<void> {
    const part = this.part as Part;
    part.bytes += bytes.length;
    if (!part.toFile) {
      if (part.bytes > FORM_BYTES) throw unreadable(`the field ${part.name} is over ${FORM_BYTES} bytes`);
      part.text.push(Buffer.from(bytes));
      return;
    }
    if (part.bytes > this.limits.fileBytes) throw this.limits.tooLarge();
    this.file ??= await open(this.path, 'w');
    for (let at = 0; at < bytes.length; )
      at += (await this.file.write(bytes, at, bytes.length - at)).bytesWritten;
  }

  private endPart(): void {
    const part = this.part as Part;
    if (part.toFile && this.upload.file) this.upload.file.bytes = part.bytes;
    else if (!part.toFile && !this.upload.fields.has(part.name))
      this.upload.fields.set(part.name, Buffer.concat(part.text).toString('utf8'));
    this.part = undefined;
  }
}

/**
 * A parameter of a Content-Disposition line (`name="file"`, `filename=a.jsonl`), unquoted: a quote
 * and line breaks come %-escaped from a browser or fetch's FormData (the HTML standard's encoding),
 * or backslash-escaped from other clients.
 */
function paramOf(line: string, key: string): string | undefined {
  const m = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(line);
  if (!m) return undefined;
  if (m[1] === undefined) return m[2];
  return m[1].replace(/\\(.)/g, '$1').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}
