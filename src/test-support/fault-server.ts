import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'rate_limit' | 'server_error' | 'hang' | 'malformed' | 'reset';

export const FAULTS: readonly Fault[] = ['rate_limit', 'server_error', 'hang', 'malformed', 'reset'];

export interface FaultServerOptions {
  /** Share of requests that get a fault, e.g. 0.2. */
  faultRate: number;
  seed: number;
  /** How long a hung request waits before answering (should exceed the client's timeout). Default 10 s. */
  hangMs?: number;
  /** Only these faults (default: all five). */
  faults?: readonly Fault[];
  /** Sees every request (e.g. to check which headers a client sent). */
  onRequest?: (req: IncomingMessage) => void;
}

export interface FaultServer {
  /** Base URL ending in /v1. */
  url: string;
  /** Chat-completion requests received (faulted or not). */
  requests: () => number;
  /** Requests per prompt (the last user message). */
  requestsByPrompt: () => Map<string, number>;
  /** Faults injected, by kind. */
  faults: () => Record<Fault, number>;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat-completions endpoint on 127.0.0.1 that answers instantly with
 * `echo: <last user content>`, and injects a fault into about `faultRate` of requests. Which
 * request is faulted depends only on (seed, prompt, how many times that prompt was asked), not
 * on arrival order, so a run at any concurrency meets the same faults.
 */
export async function startFaultServer(opts: FaultServerOptions): Promise<FaultServer> {
  const hangMs = opts.hangMs ?? 10_000;
  const kinds = opts.faults ?? FAULTS;
  const byPrompt = new Map<string, number>();
  const injected: Record<Fault, number> = { rate_limit: 0, server_error: 0, hang: 0, malformed: 0, reset: 0 };
  const timers = new Set<NodeJS.Timeout>();
  let total = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, { error: { message: 'fault server bug' } });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    opts.onRequest?.(req);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      json(res, 200, {
        object: 'list',
        data: [{ id: 'fault-model', object: 'model', owned_by: 'waver-tests' }],
      });
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      return;
    }
    const raw = await readBody(req);
    let body: { model?: string; messages?: { role: string; content: unknown }[] };
    try {
      body = JSON.parse(raw);
    } catch {
      json(res, 400, { error: { message: 'body is not JSON' } });
      return;
    }
    total++;
    const prompt = lastUserContent(body.messages ?? []);
    const nth = byPrompt.get(prompt) ?? 0;
    byPrompt.set(prompt, nth + 1);

    const fault = pickFault(opts.seed, prompt, nth, opts.faultRate, kinds);
    if (fault) injected[fault]++;
    switch (fault) {
      case 'rate_limit': {
        const after = uniform(opts.seed, prompt, nth, 'after') < 0.5 ? '0' : '1';
        res.setHeader('Retry-After', after);
        json(res, 429, { error: { message: 'rate limited (injected)', type: 'rate_limit_error' } });
        return;
      }
      case 'server_error':
        json(res, 500, { error: { message: 'internal error (injected)', type: 'server_error' } });
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id":"chatcmpl-x","choices":[{"index":0,"message":{"role":"assis');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) answer(res, body.model, prompt);
        }, hangMs);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      default:
        answer(res, body.model, prompt);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => total,
    requestsByPrompt: () => new Map(byPrompt),
    faults: () => ({ ...injected }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The reply for a prompt: deterministic, so a run is comparable with any other. */
export function echoReply(prompt: string): string {
  return `echo: ${prompt}`;
}

function answer(res: ServerResponse, model: string | undefined, prompt: string): void {
  const text = echoReply(prompt);
  json(res, 200, {
    id: `chatcmpl-${createHash('sha256').update(prompt).digest('hex').slice(0, 12)}`,
    object: 'chat.completion',
    created: 0,
    model: model ?? 'fault-model',
    choices: [
      { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null },
    ],
    usage: {
      prompt_tokens: Math.ceil(prompt.length / 4),
      completion_tokens: text.split(/\s+/).length,
      total_tokens: Math.ceil(prompt.length / 4) + text.split(/\s+/).length,
    },
  });
}

function pickFault(
  seed: number,
  prompt: string,
  nth: number,
  rate: number,
  kinds: readonly Fault[],
): Fault | undefined {
  if (kinds.length === 0 || uniform(seed, prompt, nth, 'fault?') >= rate) return undefined;
  return kinds[Math.floor(uniform(seed, prompt, nth, 'which') * kinds.length)];
}

/** A uniform number in [0, 1) from a hash of its inputs. */
function uniform(seed: number, prompt: string, nth: number, salt: string): number {
  const h = createHash('sha256').update(`${seed}\u0000${prompt}\u0000${nth}\u0000${salt}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

function lastUserContent(messages: { role: string; content: unknown }[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      return m.content
        .map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : ''))
        .join('');
    }
  }
  return '';
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
