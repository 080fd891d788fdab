import type { Agent as HttpAgent, request as httpRequest, IncomingMessage, RequestOptions } from 'node:http';
import { importModule } from '../util/import-module.js';
import { type ByteBudget, budgetFor } from './byte-budget.js';
import { ProviderError } from './errors.js';
import type { FetchFn } from './types.js';

/**
 * The `fetch` the official SDKs use unless one is injected: Node's own `http.request` under a
 * `fetch` signature (docs/decisions.md#e10). WHATWG fetch builds a Request, Headers and a body
 * stream for every call; at 16 calls in flight that garbage alone cost a 2,000-cell run about 0.6 s
 * and 25 MB of peak RSS (bench/README.md). The npm `undici` did the same job but took longer to load
 * than the run it served at the small end. Bodies are read whole, which is what the SDKs do with
 * non-streaming JSON.
 */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 64 } as const;

interface Transport {
  agent: HttpAgent;
  request: typeof httpRequest;
}

/**
 * node:http loads when a URL is first fetched (a warm run, every cell stored, fetches none and does
 * not load it), node:https and TLS when an https URL is; one keep-alive agent each.
 */
const transports = new Map<string, Promise<Transport>>();

function transport(protocol: string): Promise<Transport> {
  if (protocol !== 'http:' && protocol !== 'https:')
    return Promise.reject(new TypeError(`fetch: unsupported protocol ${protocol}`));
  let made = transports.get(protocol);
  if (made === undefined) {
    made = importModule<typeof import('node:http')>(protocol === 'http:' ? 'node:http' : 'node:https').then(
      (m) => ({ agent: new m.Agent(AGENT_OPTIONS), request: m.request }),
    );
    transports.set(protocol, made);
  }
  return made;
}

/** The default cap on an interactive answer's body: far above any completion (top log-probs included). */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Bodies read whole, however large: a batch's output file. */
export const leanFetch: FetchFn = (input, init) => fetchWithin(input, init, undefined);

/**
 * A body past `maxBytes` fails the call as soon as it passes (the connection is dropped), and the
 * bodies every such fetch of the process reads at once share `maxBytes` as one budget, so neither
 * a hostile or broken server nor many calls in flight can grow the run's memory without bound
 * (docs/architecture.md#bounds-on-what-a-call-takes).
 */
export function boundedFetch(maxBytes: number): FetchFn {
  const budget = budgetFor(maxBytes);
  return (input, init) => fetchWithin(input, init, budget);
}

const fetchWithin = async (
  input: Parameters<FetchFn>[0],
  init: Parameters<FetchFn>[1] = {},
  budget: ByteBudget | undefined,
): ReturnType<FetchFn> => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
  let body = init.body as string | Uint8Array | ArrayBuffer | null | undefined;
  // A multipart upload (a batch's input file): encoded as fetch would, boundary and all.
  if (init.body instanceof FormData || init.body instanceof Blob) {
    const encoded = new Response(init.body);
    headers['content-type'] = encoded.headers.get('content-type') ?? 'application/octet-stream';
    body = new Uint8Array(await encoded.arrayBuffer());
  }
  const payload = body instanceof ArrayBuffer ? new Uint8Array(body) : (body ?? undefined);
  if (payload !== undefined) headers['content-length'] ??= String(Buffer.byteLength(payload));
  const { agent, request } = await transport(url.protocol);
  const options: RequestOptions = {
    method: init.method ?? 'GET',
    headers,
    agent,
    signal: init.signal ?? undefined,
  };
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, options, resolve);
    req.on('error', reject);
    req.end(payload);
  });
  const answer = await readWhole(res, init.signal, budget);
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
    else if (value !== undefined) responseHeaders.set(name, value);
  }
  return new WholeResponse(answer, res.statusCode ?? 0, res.statusMessage ?? '', responseHeaders, url.href);
};

/**
 * The whole body, read under the budget when there is one; an abort or a reset while reading
 * rejects, as fetch's body reads do.
 */
function readWhole(
  res: IncomingMessage,
  signal: AbortSignal | null | undefined,
  budget: ByteBudget | undefined,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const read = budget?.open(
      () => res.pause(),
      () => res.resume(),
    );
    const settle = <T>(fn: (value: T) => void, value: T) => {
      read?.close();
      fn(value);
    };
    const tooLarge = () => {
      chunks.length = 0;
      settle(reject, tooLargeError(budget?.limit ?? 0));
      res.destroy();
    };
    if (budget && Number(res.headers['content-length'] ?? 0) > budget.limit) return tooLarge();
    res.on('data', (chunk: Buffer) => {
      if (read && !read.take(chunk.length)) tooLarge();
      else chunks.push(chunk);
    });
    res.on('end', () => settle(resolve, Buffer.concat(chunks)));
    // Node reports an abort mid-body as a reset; fetch, and the SDKs after it, report the abort.
    const fail = (err: unknown) => settle(reject, signal?.aborted ? signal.reason : err);
    res.on('error', fail);
    res.on('close', () => {
      if (!res.complete)
        fail(
          Object.assign(new Error('the connection closed before the response ended'), { code: 'ECONNRESET' }),
        );
    });
  });
}

/** A body past the cap never fits: asking again would read it again, so it is not retried. */
function tooLargeError(maxBytes: number): ProviderError {
  return new ProviderError(
    'too_large',
    `the response body passed ${maxBytes} bytes (maxResponseBytes) and was dropped`,
  );
}

/**
 * A `Response` over a body already read whole. The SDKs read status, headers and then `json()` or
 * `text()`; a WHATWG Response would wrap the bytes in a web stream first, which cost more CPU per
 * call than the rest of the HTTP exchange. Everything else (the body as a stream, `clone`,
 * `formData`, ...) is a real Response, made on first use.
 */
class WholeResponse implements Response {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type: Response['type'] = 'basic';
  #used = false;
  #real: Response | undefined;

  constructor(
    private readonly bytes_: Buffer,
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.real().body;
  }

  async text(): Promise<string> {
    return this.take().toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = this.take();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  blob(): Promise<Blob> {
    return this.real().blob();
  }

  formData(): Promise<FormData> {
    return this.real().formData();
  }

  clone(): Response {
    return this.real().clone();
  }

  /** The body once, as fetch allows; a second read is the TypeError fetch throws. */
  private take(): Buffer {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.bytes_;
  }

  private real(): Response {
    // 204/304 may not carry a body in a Response.
    const empty = this.status === 204 || this.status === 304;
    this.#real ??= new Response(empty || this.#used ? null : this.bytes_, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
    return this.#real;
  }
}
