import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../test-support/scratch.js';
import { HttpError } from './http-util.js';
import { boundaryOf, readUpload, type UploadLimits } from './multipart-upload.js';

/** A form as undici's FormData encodes it (what the SDKs and fetch send), as bytes. */
async function encoded(fields: Record<string, string>, file?: { name: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.bytes]), file.name);
  const r = new Request('http://x/', { method: 'POST', body: form });
  return { type: r.headers.get('content-type') as string, body: Buffer.from(await r.arrayBuffer()) };
}

/** Sends `body` to readUpload in chunks of `size` bytes. */
function upload(type: string, body: Buffer, size: number, limits?: Partial<UploadLimits>) {
  const dir = scratchDir('waver-upload-');
  const path = join(dir, 'file');
  const req = Object.assign(new PassThrough(), { headers: { 'content-type': type } });
  const read = readUpload(req as unknown as IncomingMessage, boundaryOf(type), path, {
    fileBytes: 1024 * 1024,
    tooLarge: () => new HttpError(413, 'too large'),
    ...limits,
  });
  for (let at = 0; at < body.length; at += size) req.write(body.subarray(at, at + size));
  req.end();
  return { read, path };
}

// Bytes that begin a delimiter, and a line break, inside the file: only the whole delimiter ends it.
const tricky = Buffer.concat([
  Buffer.from('{"custom_id":"a"}\r\n--\r\n-'),
  Buffer.alloc(3000, 'x'),
  Buffer.from('\r\n--formdata-undici-0'),
  Buffer.from([0, 255, 13, 10, 45, 45]),
]);

describe('readUpload', () => {
  it('reads fields and writes the file part to disk, however the body is cut into chunks', async () => {
    const { type, body } = await encoded(
      { purpose: 'batch', 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '3600' },
      { name: 'in "quoted".jsonl', bytes: tricky },
    );
    for (const size of [1, 2, 7, 61, 4096, body.length]) {
      const { read, path } = upload(type, body, size);
      const got = await read;
      expect(Object.fromEntries(got.fields), `chunks of ${size}`).toEqual({
        purpose: 'batch',
        'expires_after[anchor]': 'created_at',
        'expires_after[seconds]': '3600',
      });
      expect(got.file?.bytes).toBe(tricky.length);
      expect(readFileSync(path).equals(tricky), `chunks of ${size}`).toBe(true);
      expect(got.file?.filename).toBe(
        ((await new Response(body, { headers: { 'content-type': type } }).formData()).get('file') as File)
          .name,
      );
    }
  });

  it('a body with no file part has none, and nothing on disk', async () => {
    const { type, body } = await encoded({ purpose: 'batch' });
    const { read, path } = upload(type, body, 5);
    expect(await read).toEqual({ fields: new Map([['purpose', 'batch']]) });
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a file past the limit as soon as it passes it, and a body cut short', async () => {
    const { type, body } = await encoded({ purpose: 'batch' }, { name: 'a.jsonl', bytes: tricky });
    await expect(upload(type, body, 100, { fileBytes: 1000 }).read).rejects.toMatchObject({ status: 413 });
    await expect(upload(type, body.subarray(0, body.length - 10), 100).read).rejects.toThrow(
      /could not be read \(it ended before its closing boundary\)/,
    );
    expect(() => boundaryOf('multipart/form-data')).toThrow(/no boundary/);
  });
});
