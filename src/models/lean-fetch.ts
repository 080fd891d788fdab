import { Agent, request } from 'undici';
import type { FetchFn } from './types.js';

/**
 * The `fetch` the official SDKs use unless one is injected: undici's `request` under a `fetch`
 * signature. WHATWG fetch builds a Request, Headers and a body stream for every call; at 16
 * calls in flight that garbage alone cost a 2,000-cell run about 0.6 s and 25 MB of peak RSS
 * (bench/README.md). Bodies are read whole, which is what the SDKs do with non-streaming JSON.
 */
const agent = new Agent({ connections: 64, keepAliveTimeout: 10_000 });

export const leanFetch: FetchFn = async (input, init = {}) => {
  const url = input instanceof Request ? input.url : String(input);
  const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
  let body = init.body as string | Uint8Array | null | undefined;
  // A multipart upload (a batch's input file): encoded as fetch would, boundary and all.
  if (init.body instanceof FormData || init.body instanceof Blob) {
    const encoded = new Response(init.body);
    headers['content-type'] = encoded.headers.get('content-type') ?? 'application/octet-stream';
    body = new Uint8Array(await encoded.arrayBuffer());
  }
  const res = await request(url, {
    method: (init.method ?? 'GET') as 'GET',
    headers,
    body,
    signal: init.signal ?? undefined,
    dispatcher: agent,
  });
  const answer = await res.body.arrayBuffer();
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
    else if (value !== undefined) responseHeaders.set(name, value);
  }
  // 204/304 may not carry a body in a Response.
  const empty = res.statusCode === 204 || res.statusCode === 304;
  return new Response(empty ? null : answer, { status: res.statusCode, headers: responseHeaders });
};
