import { InputError } from '../errors.js';
import { boundedFetch, leanFetch } from './lean-fetch.js';
import type { FetchFn } from './types.js';

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
  /** Return NO_KEY instead of refusing (see EndpointSettings.keyOptional). */
  keyOptional?: boolean;
}

/** Placeholder sent to servers that need no key: the SDKs insist on some credential. */
export const NO_KEY = 'no-key';

export function resolveApiKey(s: KeySettings): string {
  const envName = s.apiKeyEnv ?? s.defaultEnv;
  const key = s.apiKey || s.env[envName] || undefined;
  if (key) return key;
  // An estimate (--dry-run) opens providers without a key: it calls nothing.
  if (s.keyOptional) return NO_KEY;
  // A variable named on purpose and unset is a mistake wherever the server is: never `no-key`.
  if (s.apiKeyEnv)
    throw new InputError(
      `${s.provider}: environment variable ${s.apiKeyEnv} (named by apiKeyEnv) is not set`,
      {
        field: 'apiKeyEnv',
      },
    );
  if (new URL(s.baseURL).hostname === s.vendorHost) {
    throw new InputError(`${s.provider}: no API key: set ${s.defaultEnv} or apiKeyEnv`, {
      field: 'apiKeyEnv',
    });
  }
  return NO_KEY;
}

/**
 * Longest timer Node accepts (a larger one fires at once). Timeouts belong to the caller's
 * AbortSignal, so an SDK's own default (10 minutes) must not cut a slow local model short.
 */
const NO_SDK_TIMEOUT = 2_147_483_647;

/** The settings every HTTP provider takes for its endpoint and key. */
export interface EndpointSettings {
  model: string;
  /** Default: the vendor's variable (OPENAI_BASE_URL, ANTHROPIC_BASE_URL), else the vendor's own endpoint. */
  baseURL?: string;
  apiKey?: string;
  /** Environment variable holding the key (default the vendor's: OPENAI_API_KEY, ANTHROPIC_API_KEY). */
  apiKeyEnv?: string;
  /** Where keys and the base URL variable are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** No key is an error only when a call is made: a dry run's estimate needs none. */
  keyOptional?: boolean;
}

/** Settings shared by the SDK-backed providers. */
export interface HttpProviderSettings extends EndpointSettings {
  fetch?: FetchFn;
  /**
   * The most bytes an interactive answer's body may have (default MAX_RESPONSE_BYTES), and the
   * budget the bodies read at once share; batch files are not bound.
   */
  maxResponseBytes?: number;
  label?: string;
}

/** A vendor's defaults: its own endpoint (where a key is required) and the variables naming another. */
export interface VendorDefaults {
  provider: string;
  defaultBaseURL: string;
  /** e.g. OPENAI_BASE_URL. */
  baseURLEnv: string;
  /** e.g. OPENAI_API_KEY. */
  apiKeyEnv: string;
}

export interface Endpoint {
  env: NodeJS.ProcessEnv;
  baseURL: string;
  apiKey: string;
  /** `provider:model@baseURL`, without the key. */
  identity: string;
}

/** Where a provider sends requests, with which key, and the identity that names it. */
export function resolveEndpoint(settings: EndpointSettings, vendor: VendorDefaults): Endpoint {
  const env = settings.env ?? process.env;
  const baseURL = normaliseBaseURL(settings.baseURL ?? env[vendor.baseURLEnv] ?? vendor.defaultBaseURL);
  const apiKey = resolveApiKey({
    apiKey: settings.apiKey,
    apiKeyEnv: settings.apiKeyEnv,
    env,
    defaultEnv: vendor.apiKeyEnv,
    vendorHost: new URL(vendor.defaultBaseURL).hostname,
    baseURL,
    provider: vendor.provider,
    ...(settings.keyOptional && { keyOptional: true }),
  });
  return { env, baseURL, apiKey, identity: `${vendor.provider}:${settings.model}@${baseURL}` };
}

/** The options both official SDK clients take alike. */
export function sdkClientOptions(endpoint: Endpoint, fetch: FetchFn | undefined, maxResponseBytes?: number) {
  return {
    // Always explicit, so an SDK never falls back to its own credential chain or process.env.
    apiKey: endpoint.apiKey,
    baseURL: endpoint.baseURL,
    // The run engine retries uniformly and records every attempt; an SDK must not retry behind it.
    maxRetries: 0,
    timeout: NO_SDK_TIMEOUT,
    fetch: fetch ?? (maxResponseBytes === undefined ? leanFetch : boundedFetch(maxResponseBytes)),
    logLevel: 'off' as const,
  };
}
