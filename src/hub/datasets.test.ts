import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackHub, parquetOf, sha256Of, startLoopbackHub } from '../test-support/hub/loopback-hub.js';
import { closedPort } from '../test-support/models/loopback.js';
import { fetchDatasetFile, type HubOptions, openDatasetSnapshot } from './datasets.js';
import { DownloadError } from './download.js';

const ADVICE = 'download it yourself';

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('Hub dataset snapshots and downloads (loopback hub)', () => {
  let hub: LoopbackHub;
  let parquet: Buffer;
  const jsonl = `${JSON.stringify({ question: 'Q?', answer: '#### 1' })}\n`;

  beforeAll(async () => {
    parquet = await parquetOf([{ question: 'A?', answer: '#### 2' }]);
    hub = await startLoopbackHub({
      'test/math': {
        files: { 'main/test-00000-of-00001.parquet': parquet, 'main/train.jsonl': jsonl, 'README.md': '# x' },
        licence: 'mit',
      },
      'test/gated': { files: { 'data/test.jsonl': jsonl }, gated: true },
    });
  });
  afterAll(() => hub.close());
  afterEach(() => {
    for (const k of Object.keys(hub.faults)) delete hub.faults[k as keyof typeof hub.faults];
    hub.requests.length = 0;
  });
  const opts = (extra: Partial<HubOptions> = {}): HubOptions => ({
    endpoint: hub.origin,
    cacheDir: mkdtempSync(join(tmpdir(), 'waver-hubds-')),
    env: {},
    onProgress: () => {},
    retryDelayMs: 0,
    log: () => {},
    ...extra,
  });

  it('resolves the revision to a commit, lists the files, downloads and checks them; the cache serves them after', async () => {
    const o = opts();
    const snap = await openDatasetSnapshot('test/math', 'main', ADVICE, o);
    expect(snap.commit).toBe(hub.commitOf('test/math'));
    expect(snap.licence).toBe('mit');
    expect(snap.files.map((f) => f.path)).toEqual([
      'README.md',
      'main/test-00000-of-00001.parquet',
      'main/train.jsonl',
    ]);
    const lfs = snap.files.find((f) => f.path.endsWith('.parquet'));
    expect(lfs?.lfs?.oid).toBe(sha256Of(parquet));
    const got = await fetchDatasetFile(snap, lfs as NonNullable<typeof lfs>, ADVICE, o);
    expect(readFileSync(got.localPath).equals(parquet)).toBe(true);
    expect(got.sha256).toBe(sha256Of(parquet));
    const text = snap.files.find((f) => f.path === 'main/train.jsonl');
    expect(
      readFileSync(
        (await fetchDatasetFile(snap, text as NonNullable<typeof text>, ADVICE, o)).localPath,
        'utf8',
      ),
    ).toBe(jsonl);

    hub.requests.length = 0;
    const again = await openDatasetSnapshot('test/math', 'main', ADVICE, o);
    await fetchDatasetFile(again, lfs as NonNullable<typeof lfs>, ADVICE, o);
    // Only the revision is asked again: the listing and the file come from the cache.
    expect(hub.requests.map((r) => r.url)).toEqual(['/api/datasets/test/math/revision/main']);
    hub.requests.length = 0;
    await openDatasetSnapshot('test/math', snap.commit, ADVICE, o);
    expect(hub.requests).toHaveLength(0);
  });

  it('offline: the cached revision serves, with a note; without a cache, a clear error with the advice', async () => {
    const o = opts();
    const snap = await openDatasetSnapshot('test/math', 'main', ADVICE, o);
    const notes: string[] = [];
    const port = await closedPort();
    const offline = { ...o, endpoint: `http://127.0.0.1:${port}`, log: (l: string) => notes.push(l) };
    expect((await openDatasetSnapshot('test/math', 'main', ADVICE, offline)).commit).toBe(snap.commit);
    expect(notes[0]).toMatch(
      /the Hub is unreachable .*using hf:test\/math main = [0-9a-f]{40} from the cache/,
    );
    const err = await openDatasetSnapshot('test/math', 'main', ADVICE, {
      ...offline,
      cacheDir: opts().cacheDir,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as Error).message).toMatch(
      /^cannot reach the Hugging Face Hub at http:\/\/127\.0\.0\.1:\d+ for hf:test\/math \(.*ECONNREFUSED.*\); download it yourself$/,
    );
  });

  it('404: no such repository; 401: gated, set HF_TOKEN (and the token opens it)', async () => {
    await expect(openDatasetSnapshot('test/nope', 'main', ADVICE, opts())).rejects.toThrow(
      /^hf:test\/nope: HTTP 404: no such dataset repository, or no revision 'main'; download it yourself$/,
    );
    await expect(openDatasetSnapshot('test/gated', 'main', ADVICE, opts())).rejects.toThrow(
      /HTTP 401: the repository may be gated or private: accept its terms on the Hub and set HF_TOKEN/,
    );
    hub.requests.length = 0;
    const o = opts({ token: 'hf_test_token' });
    const snap = await openDatasetSnapshot('test/gated', 'main', ADVICE, o);
    const got = await fetchDatasetFile(snap, snap.files[0] as (typeof snap.files)[number], ADVICE, o);
    expect(readFileSync(got.localPath, 'utf8')).toBe(jsonl);
    expect(hub.requests.every((r) => r.headers.authorization === 'Bearer hf_test_token')).toBe(true);
  });

  it('a file the Hub refuses (404) is a clear error and leaves nothing in the cache', async () => {
    const o = opts();
    const snap = await openDatasetSnapshot('test/math', 'main', ADVICE, o);
    hub.faults.resolveStatus = 404;
    const err = await fetchDatasetFile(snap, snap.files[1] as (typeof snap.files)[number], ADVICE, o).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toBe(
      'could not download hf:test/math/main/test-00000-of-00001.parquet (HTTP 404: no such repository or file); download it yourself',
    );
    expect(files(join(o.cacheDir as string, 'test', 'math', 'snapshots'))).toEqual([]);
  });

  it('a truncated transfer: a clear error, only a part file (no cache entry); the next call resumes it', async () => {
    const o = opts({ attempts: 1 });
    const snap = await openDatasetSnapshot('test/math', 'main', ADVICE, o);
    const file = snap.files[1] as (typeof snap.files)[number];
    hub.faults.cutAfter = Math.floor(parquet.length / 2);
    const err = await fetchDatasetFile(snap, file, ADVICE, o).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as Error).message).toMatch(
      /^could not download hf:test\/math\/main\/test-00000-of-00001\.parquet \(.+\); download it yourself$/,
    );
    const left = files(join(o.cacheDir as string, 'test', 'math', 'snapshots'));
    expect(left.map((f) => f.split('/').at(-1))).toEqual(['test-00000-of-00001.parquet.part']);
    hub.requests.length = 0;
    const got = await fetchDatasetFile(snap, file, ADVICE, o);
    expect(hub.requests.some((r) => r.headers.range === `bytes=${Math.floor(parquet.length / 2)}-`)).toBe(
      true,
    );
    expect(got.sha256).toBe(sha256Of(parquet));
  });

  it('a checksum mismatch (LFS sha256, git blob id): a clear error, nothing left in the cache', async () => {
    const o = opts();
    const snap = await openDatasetSnapshot('test/math', 'main', ADVICE, o);
    hub.faults.corrupt = true;
    const lfsErr = await fetchDatasetFile(
      snap,
      snap.files[1] as (typeof snap.files)[number],
      ADVICE,
      o,
    ).catch((e: unknown) => e);
    expect((lfsErr as Error).message).toMatch(
      /^checksum mismatch for hf:test\/math\/main\/test-00000-of-00001\.parquet: expected sha256 [0-9a-f]{64} \(from the Hub's file listing\), got [0-9a-f]{64}; the partial file was deleted$/,
    );
    const gitErr = await fetchDatasetFile(
      snap,
      snap.files[2] as (typeof snap.files)[number],
      ADVICE,
      o,
    ).catch((e: unknown) => e);
    expect((gitErr as Error).message).toMatch(
      /checksum mismatch for hf:test\/math\/main\/train\.jsonl: expected git blob/,
    );
    expect(files(join(o.cacheDir as string, 'test', 'math', 'snapshots'))).toEqual([]);
  });
});
