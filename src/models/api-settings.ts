import { InputError } from '../errors.js';

/**
 * Settings shared by the HTTP providers: where the endpoint is and which key to send.
 * The key lives only in the SDK client; identities and messages use the normalised URL.
 */

/** The URL as it appears in identities: no credentials, no trailing slash, lower-case host. */
export function normaliseBaseURL(raw: string, field = 'baseURL'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InputError(`invalid base URL '${raw}'`, { field });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(`base URL '${raw}' must start with http:// or https://`, { field });
  }
  // user:password@ would put a secret into cache keys and reports.
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

export interface KeySettings {
  apiKey?: string;
  apiKeyEnv?: string;
  env: NodeJS.ProcessEnv;
  /** The variable read when `apiKeyEnv` is not given, e.g. OPENAI_API_KEY. */
  defaultEnv: string;
  /** The vendor's own host: a key is required there; elsewhere (local servers) it is optional. */
  vendorHost: string;
  baseURL: string;
  provider: string;
}

/** Placeholder sent to servers that need no key: the SDKs insist on some credential. */
export const NO_KEY = 'no-key';

export function resolveApiKey(s: KeySettings): string {
  const envName = s.apiKeyEnv ?? s.defaultEnv;
  const key = s.apiKey || s.env[envName] || undefined;
  if (key) return key;
  if (new URL(s.baseURL).hostname === s.vendorHost) {
    const which = s.apiKeyEnv
      ? `environment variable ${s.apiKeyEnv} (named by apiKeyEnv) is not set`
      : `no API key: set ${s.defaultEnv} or apiKeyEnv`;
    throw new InputError(`${s.provider}: ${which}`, { field: 'apiKeyEnv' });
  }
  return NO_KEY;
}
