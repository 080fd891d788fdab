import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type Loopback, sendJson, startLoopback } from '../models/loopback.js';

/**
 * A loopback server (127.0.0.1, port 0) in the Hugging Face Hub's URL layout, for dataset tests:
 * repository info (`/api/datasets/R/revision/REV` with `sha` and the card's `license`), the
 * recursive listing (`/api/datasets/R/tree/COMMIT`, git blob ids and LFS sha256), and `resolve`
 * downloads, which for LFS files redirect to a CDN path as the Hub does (the sha256 on the
 * redirect's `x-linked-etag`) and honour Range. Faults are switched on per test.
 */

export interface FakeRepo {
  files: Record<string, Buffer | string>;
  /** Default: a fixed fake commit derived from the repository name. */
  commit?: string;
  licence?: string;
  /** Answer 401 unless a bearer token is sent. */
  gated?: boolean;
}

export interface HubFaults {
  /** Answer every `resolve` request with this status. */
  resolveStatus?: number;
  /** Close the socket after this many body bytes of the next full download (once). */
  cutAfter?: number;
  /** Serve a byte-flipped copy of every file (the listing keeps the true checksums). */
  corrupt?: boolean;
  /** Answer the repository info with this status. */
  infoStatus?: number;
}

export interface LoopbackHub extends Loopback {
  faults: HubFaults;
  commitOf(repo: string): string;
}

/** Parquet files are LFS files on the Hub; small text files are kept in git. */
function isLfs(path: string): boolean {
  return path.endsWith('.parquet');
}

export function gitBlobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function startLoopbackHub(repos: Record<string, FakeRepo>): Promise<LoopbackHub> {
  const faults: HubFaults = {};
  const commitOf = (repo: string) =>
    repos[repo]?.commit ?? createHash('sha1').update(`commit ${repo}`).digest('hex');
  const bytesOf = (repo: string, path: string): Buffer | undefined => {
    const f = repos[repo]?.files[path];
    return f === undefined ? undefined : Buffer.isBuffer(f) ? f : Buffer.from(f);
  };
  const served = (bytes: Buffer) => {
    if (!faults.corrupt) return bytes;
    const copy = Buffer.from(bytes);
    copy[copy.length - 1] = (copy.at(-1) ?? 0) ^ 0xff;
    return copy;
  };
  const send = (
    res: ServerResponse,
    bytes: Buffer,
    range: string | undefined,
    headers: Record<string, string>,
  ) => {
    const m = /^bytes=(\d+)-$/.exec(range ?? '');
    const start = m ? Number(m[1]) : 0;
    const body = bytes.subarray(start);
    const h: Record<string, string | number> = {
      'content-length': body.length,
      'accept-ranges': 'bytes',
      ...headers,
    };
    if (start > 0) {
      h['content-range'] = `bytes ${start}-${bytes.length - 1}/${bytes.length}`;
      res.writeHead(206, h);
    } else res.writeHead(200, h);
    if (faults.cutAfter !== undefined && start === 0) {
      const cut = faults.cutAfter;
      faults.cutAfter = undefined;
      res.write(body.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(body);
  };

  const hub = await startLoopback((req, res, seen) => {
    const url = new URL(seen.url, 'http://hub');
    const path = decodeURIComponent(url.pathname);
    const authorised = (repo: string) =>
      !repos[repo]?.gated || /^Bearer \S+/.test(String(req.headers.authorization ?? ''));

    let m = /^\/api\/datasets\/([^/]+\/[^/]+)\/revision\/(.+)$/.exec(path);
    if (m) {
      const repo = m[1] as string;
      if (faults.infoStatus) return sendJson(res, faults.infoStatus, { error: 'nope' });
      if (!repos[repo]) return sendJson(res, 404, { error: 'Repository not found' });
      if (!authorised(repo)) return sendJson(res, 401, { error: 'gated' });
      if (m[2] !== 'main' && m[2] !== commitOf(repo))
        return sendJson(res, 404, { error: 'Revision not found' });
      const licence = repos[repo]?.licence;
      return sendJson(res, 200, {
        id: repo,
        sha: commitOf(repo),
        ...(licence !== undefined && { cardData: { license: licence } }),
      });
    }
    m = /^\/api\/datasets\/([^/]+\/[^/]+)\/tree\/([0-9a-f]{40})$/.exec(path);
    if (m) {
      const repo = m[1] as string;
      if (!repos[repo] || m[2] !== commitOf(repo)) return sendJson(res, 404, { error: 'not found' });
      if (!authorised(repo)) return sendJson(res, 401, { error: 'gated' });
      const entries = Object.keys(repos[repo]?.files ?? {})
        .sort()
        .map((p) => {
          const bytes = bytesOf(repo, p) as Buffer;
          return {
            type: 'file',
            path: p,
            size: bytes.length,
            oid: gitBlobId(isLfs(p) ? Buffer.from(`lfs pointer ${sha256Of(bytes)}`) : bytes),
            ...(isLfs(p) && { lfs: { oid: sha256Of(bytes), size: bytes.length, pointerSize: 130 } }),
          };
        });
      return sendJson(res, 200, entries);
    }
    m = /^\/datasets\/([^/]+\/[^/]+)\/resolve\/([0-9a-f]{40}|main)\/(.+)$/.exec(path);
    if (m) {
      const repo = m[1] as string;
      const file = m[3] as string;
      if (faults.resolveStatus) return sendJson(res, faults.resolveStatus, { error: 'refused' });
      if (!authorised(repo)) return sendJson(res, 401, { error: 'gated' });
      const bytes = bytesOf(repo, file);
      if (!bytes) return sendJson(res, 404, { error: 'Entry not found' });
      if (isLfs(file)) {
        res.writeHead(302, {
          location: `/cdn/${repo}/${sha256Of(bytes)}?path=${encodeURIComponent(file)}`,
          'x-linked-etag': `"${sha256Of(bytes)}"`,
          'x-linked-size': String(bytes.length),
        });
        res.end();
        return;
      }
      return send(res, served(bytes), req.headers.range, { etag: `"${gitBlobId(bytes)}"` });
    }
    m = /^\/cdn\/([^/]+\/[^/]+)\/[0-9a-f]{64}$/.exec(path);
    if (m) {
      const bytes = bytesOf(m[1] as string, url.searchParams.get('path') ?? '');
      if (!bytes) return sendJson(res, 404, { error: 'gone' });
      return send(res, served(bytes), req.headers.range, { etag: '"cdn-etag"' });
    }
    sendJson(res, 404, { error: `no route ${path}` });
  });
  return { ...hub, faults, commitOf };
}

/** A Parquet file (snappy, as the Hub's are) of the rows' columns, for fixtures converted from JSONL. */
export async function parquetOf(rows: readonly Record<string, unknown>[]): Promise<Buffer> {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const columnData = names.map((name) => {
    const data = rows.map((r) => r[name] ?? null);
    const type = data.every((v) => v === null || typeof v === 'string') ? ('STRING' as const) : undefined;
    return { name, data, ...(type && { type }) };
  });
  return Buffer.from(parquetWriteBuffer({ columnData }));
}
