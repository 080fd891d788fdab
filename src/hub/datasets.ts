import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FetchFn } from '../util/fetch.js';
import { notify } from '../util/notices.js';
import { redact } from '../util/secrets.js';
import { DownloadError, downloadHubFile, reasonOf, refusalHint } from './download.js';
import type { DownloadProgress } from './download-progress.js';

/**
 * A dataset repository on the Hugging Face Hub, read through the Hub's own HTTP API (any server
 * speaking it: `HF_ENDPOINT`): the repository info (`/api/datasets/R/revision/REV`, whose `sha`
 * is the commit a branch or tag stands for), the recursive file listing at that commit
 * (`/api/datasets/R/tree/COMMIT`, each file with its git blob id and, for LFS files, its sha256),
 * and the files themselves (`/datasets/R/resolve/COMMIT/PATH`, through src/hub/download.ts).
 *
 * Everything is cached under the dataset cache directory, keyed by commit: the listing once per
 * commit, each file once. The revision a name stood for is remembered too, so a machine that
 * cannot reach the Hub uses what it downloaded before (and says so) instead of failing.
 */

export interface HubOptions {
  /** Default env HF_ENDPOINT, else https://huggingface.co. */
  endpoint?: string;
  /** Default env HF_TOKEN (gated repositories). Sent only to the endpoint's own origin. */
  token?: string;
  /** Default: env WAVER_CACHE_DIR + `/datasets`, else $XDG_CACHE_HOME/waver/datasets, else ~/.cache/waver/datasets. */
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
  fetch?: FetchFn;
  /** Each file's progress; default: a notice (src/util/notices.ts), which the CLI shows on stderr. */
  onProgress?: (p: DownloadProgress) => void;
  attempts?: number;
  retryDelayMs?: number;
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  /** Where notes go (the Hub was unreachable and the cache served); default: a notice. */
  log?: (line: string) => void;
}

export interface HubFile {
  path: string;
  size: number;
  /** Git blob id. */
  oid: string;
  /** LFS files: the sha256 of the content. */
  lfs?: { oid: string; size: number };
}

export interface HubSnapshot {
  repo: string;
  revision: string;
  commit: string;
  /** The dataset card's `license`, when it has one. */
  licence?: string;
  files: HubFile[];
}

/** Where downloaded datasets live. Beside the models when WAVER_CACHE_DIR is set (the Hub allows no owner named `datasets`). */
export function datasetCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WAVER_CACHE_DIR) return join(env.WAVER_CACHE_DIR, 'datasets');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'waver', 'datasets');
}

interface Settings {
  endpoint: string;
  token?: string;
  cacheDir: string;
  fetch: FetchFn;
}

function settings(opts: HubOptions): Settings {
  const env = opts.env ?? process.env;
  return {
    endpoint: (opts.endpoint ?? env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, ''),
    token: opts.token ?? env.HF_TOKEN ?? env.HUGGING_FACE_HUB_TOKEN,
    cacheDir: opts.cacheDir ?? datasetCacheDir(env),
    fetch: opts.fetch ?? globalThis.fetch,
  };
}

const COMMIT = /^[0-9a-f]{40}$/;

/**
 * The repository at a revision: its commit and file listing. `advice` ends every failure message
 * (what to download, and how to point waver at a local copy).
 */
export async function openDatasetSnapshot(
  repo: string,
  revision: string,
  advice: string,
  opts: HubOptions = {},
): Promise<HubSnapshot> {
  const s = settings(opts);
  const root = repoCache(s, repo);
  const refFile = join(root, 'refs', encodeURIComponent(revision));
  if (COMMIT.test(revision)) {
    const cached = await readJson<TreeCache>(treeFile(root, revision));
    if (cached) return { repo, revision, commit: revision, ...cached };
  }
  let info: { sha?: unknown; cardData?: { license?: unknown } };
  try {
    info = (await getJson(
      s,
      `/api/datasets/${repo}/revision/${encodeURIComponent(revision)}`,
      opts.signal,
    )) as {
      sha?: unknown;
    };
  } catch (err) {
    if (!(err instanceof Unreachable)) throw refused(err, repo, revision, advice);
    const ref = await readJson<{ commit: string }>(refFile);
    const cached = ref && (await readJson<TreeCache>(treeFile(root, ref.commit)));
    if (!ref || !cached)
      throw new DownloadError(
        `cannot reach the Hugging Face Hub at ${s.endpoint} for hf:${repo} (${redact(err.message, [s.token])}); ${advice}`,
      );
    (opts.log ?? ((text) => notify({ kind: 'note', text })))(
      `the Hub is unreachable (${err.message}); using hf:${repo} ${revision} = ${ref.commit} from the cache`,
    );
    return { repo, revision, commit: ref.commit, ...cached };
  }
  if (typeof info.sha !== 'string' || !COMMIT.test(info.sha))
    throw new DownloadError(`hf:${repo}: the Hub's repository info has no commit sha; ${advice}`);
  const commit = info.sha;
  const licence = licenceOf(info.cardData?.license);
  let tree = await readJson<TreeCache>(treeFile(root, commit));
  if (!tree) {
    try {
      tree = {
        ...(licence !== undefined && { licence }),
        files: await listTree(s, repo, commit, opts.signal),
      };
    } catch (err) {
      if (err instanceof Unreachable)
        throw new DownloadError(`cannot list hf:${repo} at ${commit} (${err.message}); ${advice}`);
      throw refused(err, repo, revision, advice);
    }
    await writeJsonAtomic(treeFile(root, commit), tree);
  }
  await writeJsonAtomic(refFile, { commit });
  return { repo, revision, commit, ...tree };
}

/** Downloads (or finds in the cache) one file of a snapshot; returns its local path, sha256 and size. */
export async function fetchDatasetFile(
  snapshot: HubSnapshot,
  file: HubFile,
  advice: string,
  opts: HubOptions = {},
): Promise<{ localPath: string; sha256: string; bytes: number }> {
  const s = settings(opts);
  const localPath = join(repoCache(s, snapshot.repo), 'snapshots', snapshot.commit, ...file.path.split('/'));
  const encoded = file.path.split('/').map(encodeURIComponent).join('/');
  const recorded = await downloadHubFile({
    url: `${s.endpoint}/datasets/${snapshot.repo}/resolve/${snapshot.commit}/${encoded}`,
    path: localPath,
    name: `hf:${snapshot.repo}/${file.path}`,
    ...(file.lfs
      ? { sha256: { hex: file.lfs.oid, source: "from the Hub's file listing" } }
      : { gitBlobId: file.oid }),
    token: s.token,
    fetch: s.fetch,
    onProgress: opts.onProgress,
    attempts: opts.attempts,
    retryDelayMs: opts.retryDelayMs,
    idleTimeoutMs: opts.idleTimeoutMs,
    signal: opts.signal,
    advice,
  });
  return { localPath, sha256: recorded.sha256, bytes: recorded.size };
}

interface TreeCache {
  licence?: string;
  files: HubFile[];
}

function repoCache(s: Settings, repo: string): string {
  return join(s.cacheDir, ...repo.split('/'));
}

function treeFile(root: string, commit: string): string {
  return join(root, 'trees', `${commit}.json`);
}

/** The network could not be used at all (as opposed to the Hub answering no). */
class Unreachable extends Error {}

class Refused extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

function refused(err: unknown, repo: string, revision: string, advice: string): DownloadError {
  if (!(err instanceof Refused)) return new DownloadError(`hf:${repo}: ${reasonOf(err)}; ${advice}`);
  const hint =
    err.status === 404 ? `no such dataset repository, or no revision '${revision}'` : refusalHint(err.status);
  return new DownloadError(`hf:${repo}: HTTP ${err.status}: ${hint}; ${advice}`);
}

async function getJson(s: Settings, path: string, signal?: AbortSignal): Promise<unknown> {
  let response: Response;
  const url = path.startsWith('http') ? path : `${s.endpoint}${path}`;
  try {
    response = await s.fetch(url, {
      headers: {
        'user-agent': 'waver',
        accept: 'application/json',
        ...(s.token &&
          new URL(url).origin === new URL(s.endpoint).origin && { authorization: `Bearer ${s.token}` }),
      },
      signal,
    });
  } catch (err) {
    throw new Unreachable(reasonOf(err));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Refused(response.status);
  }
  const body = await response.json();
  return Object.assign(body as object, { [NEXT]: nextLink(response.headers.get('link')) });
}

const NEXT = Symbol('next page');

/** The listing, every page of it (the Hub pages long listings with a `Link: <...>; rel="next"` header). */
async function listTree(s: Settings, repo: string, commit: string, signal?: AbortSignal): Promise<HubFile[]> {
  const files: HubFile[] = [];
  let url: string | undefined = `/api/datasets/${repo}/tree/${commit}?recursive=true`;
  for (let page = 0; url !== undefined && page < 1000; page++) {
    const body = (await getJson(s, url, signal)) as unknown[] & { [NEXT]?: string };
    if (!Array.isArray(body)) throw new Error('the file listing is not a list');
    for (const e of body as Record<string, unknown>[]) {
      if (e.type !== 'file' || typeof e.path !== 'string' || typeof e.oid !== 'string') continue;
      const lfs = e.lfs as { oid?: unknown; size?: unknown } | undefined;
      files.push({
        path: e.path,
        size: Number(e.size ?? 0),
        oid: e.oid,
        ...(lfs &&
          typeof lfs.oid === 'string' && {
            lfs: { oid: lfs.oid.toLowerCase(), size: Number(lfs.size ?? 0) },
          }),
      });
    }
    url = body[NEXT];
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function nextLink(header: string | null): string | undefined {
  const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(header ?? '');
  return m?.[1];
}

function licenceOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string') && value.length > 0)
    return value.join(' OR ');
  return undefined;
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, `${JSON.stringify(value)}\n`);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
