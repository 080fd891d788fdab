import { homedir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { downloadHubFile } from '../hub/download.js';
import type { DownloadProgress } from '../hub/download-progress.js';
import type { FetchFn } from './types.js';

export { DownloadError } from '../hub/download.js';
export { type DownloadProgress, progressPrinter } from '../hub/download-progress.js';

/**
 * `gguf:hf:OWNER/REPO/FILE.gguf[#sha256=HEX]` — a model file from the Hugging Face Hub (or any
 * server speaking its `resolve` URLs), downloaded once into a cache directory.
 *
 * FILE may contain slashes (a file in a sub-folder of the repo). The `hf:OWNER/REPO:NAME` form is
 * deliberately NOT accepted: node-llama-cpp and ollama use `:NAME` for a quantisation tag, not a
 * file name, so accepting it here would download something other than what the user meant.
 *
 * The download itself (part file, resume, checksum against the pinned `#sha256=` or the Hub's LFS
 * sha256, the recorded sha256 that lets later calls skip the network) is src/hub/download.ts.
 */

export interface HfModelRef {
  owner: string;
  repo: string;
  /** Path of the file inside the repo. */
  file: string;
  /** Pinned lower-case hex sha256, when the URI gives one. */
  sha256?: string;
}

export interface ResolveHfOptions {
  /** Default env WAVER_CACHE_DIR, else $XDG_CACHE_HOME/waver/models, else ~/.cache/waver/models. */
  cacheDir?: string;
  /** Default env HF_ENDPOINT, else https://huggingface.co. */
  endpoint?: string;
  fetch?: FetchFn;
  /** Default env HF_TOKEN (for gated repos). Sent only to the endpoint's own origin. */
  token?: string;
  /** Each chunk's progress; default: a notice (src/util/notices.ts), which the CLI shows on stderr. */
  onProgress?: (p: DownloadProgress) => void;
  env?: NodeJS.ProcessEnv;
  /** Downloads in one call before giving up; each one after the first resumes (default 3). */
  attempts?: number;
  /** Pause before resuming after a cut connection, times the attempt number (default 1000 ms). */
  retryDelayMs?: number;
  /** Abort a download that receives nothing for this long (default 60 s). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function parseHfUri(uri: string): HfModelRef {
  if (!uri.startsWith('hf:')) throw new InputError(`'${uri}' is not an hf: URI`);
  const [body = '', fragment] = uri.slice(3).split('#', 2);
  const usage = 'expected hf:OWNER/REPO/FILE.gguf, optionally followed by #sha256=HEX';
  const parts = body.split('/');
  if (body.includes(':')) {
    throw new InputError(
      `'${uri}': the ':NAME' form is not supported (it means a quantisation tag elsewhere); ${usage}`,
    );
  }
  if (parts.length < 3 || !parts.every((p) => SEGMENT.test(p) && !p.includes('..'))) {
    throw new InputError(`'${uri}' is not a valid Hugging Face file URI; ${usage}`);
  }
  const [owner = '', repo = '', ...file] = parts;
  const ref: HfModelRef = { owner, repo, file: file.join('/') };
  if (fragment !== undefined) {
    const m = /^sha256=([0-9a-fA-F]{64})$/.exec(fragment);
    if (!m?.[1]) throw new InputError(`'${uri}': the fragment must be #sha256= and 64 hex digits`);
    ref.sha256 = m[1].toLowerCase();
  }
  return ref;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WAVER_CACHE_DIR) return env.WAVER_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'waver', 'models');
}

/** Where a URI's file lives in the cache (whether or not it is there yet). */
export function cachedPath(ref: HfModelRef, cacheDir: string): string {
  return join(cacheDir, ref.owner, ref.repo, ...ref.file.split('/'));
}

/** Returns the local path of the model file, downloading it first unless it is already cached. */
export async function resolveHfModel(uri: string, opts: ResolveHfOptions = {}): Promise<string> {
  const env = opts.env ?? process.env;
  const ref = parseHfUri(uri);
  const path = cachedPath(ref, opts.cacheDir ?? defaultCacheDir(env));
  const endpoint = (opts.endpoint ?? env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, '');
  const name = uri.split('#')[0] ?? uri;
  await downloadHubFile({
    url: `${endpoint}/${ref.owner}/${ref.repo}/resolve/main/${ref.file.split('/').map(encodeURIComponent).join('/')}`,
    path,
    name,
    ...(ref.sha256 !== undefined && { sha256: { hex: ref.sha256, source: 'pinned in the URI' } }),
    token: opts.token ?? env.HF_TOKEN ?? env.HUGGING_FACE_HUB_TOKEN,
    fetch: opts.fetch,
    onProgress: opts.onProgress,
    attempts: opts.attempts,
    retryDelayMs: opts.retryDelayMs,
    idleTimeoutMs: opts.idleTimeoutMs,
    signal: opts.signal,
    advice: 'download it yourself and pass gguf:/path/to/file.gguf, or set HF_ENDPOINT',
  });
  return path;
}
