import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server speaking Anthropic's Message Batches protocol (create, retrieve, results as
 * JSONL) and the Messages API itself, answering `echo: <last user message>`. A prompt containing
 * `ERRORED` is an errored result; one containing `EXPIRES` expires the first time a batch holds it
 * (answered when submitted again); one containing `REFUSES` is declined (`stop_reason: refusal`,
 * its text `REFUSAL_TEXT`). A batch ends after `pollsToEnd` retrieves.
 */
export interface MessageBatchesServer {
  /** http://127.0.0.1:PORT (the Anthropic base URL). */
  origin: string;
  /** Batches created, each with its requests' prompts. */
  created: { id: string; prompts: string[] }[];
  /** Calls to POST /v1/messages (interactive ones). */
  messages: () => number;
  /** GET /v1/messages/batches/{id} calls. */
  retrieves: () => number;
  /** While set, every retrieve is answered 500 (an outage at the provider). */
  failRetrieves: boolean;
  close(): Promise<void>;
}

/** What a declined prompt's answer says. */
export const REFUSAL_TEXT = "I can't help with that.";

interface Held {
  id: string;
  requests: { custom_id: string; prompt: string; expires: boolean }[];
  polls: number;
  createdAt: string;
}

export async function startMessageBatchesServer(
  opts: { pollsToEnd?: number } = {},
): Promise<MessageBatchesServer> {
  const pollsToEnd = opts.pollsToEnd ?? 1;
  const batches = new Map<string, Held>();
  const created: MessageBatchesServer['created'] = [];
  const expiredOnce = new Set<string>();
  let messages = 0;
  let retrieves = 0;
  let origin = '';

  const message = (prompt: string) => ({
    id: `msg_${randomUUID()}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-loopback',
    content: [{ type: 'text', text: prompt.includes('REFUSES') ? REFUSAL_TEXT : `echo: ${prompt}` }],
    stop_reason: prompt.includes('REFUSES') ? 'refusal' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: prompt.length, output_tokens: 2 },
  });
  const lastUser = (params: { messages?: { role: string; content: unknown }[] }) =>
    String(params.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '');
  const ended = (b: Held) => b.polls >= pollsToEnd;
  const batchObject = (b: Held) => {
    const done = ended(b);
    const count = (f: (r: Held['requests'][number]) => boolean) => (done ? b.requests.filter(f).length : 0);
    return {
      id: b.id,
      type: 'message_batch',
      processing_status: done ? 'ended' : 'in_progress',
      request_counts: {
        processing: done ? 0 : b.requests.length,
        succeeded: count((r) => !r.expires && !r.prompt.includes('ERRORED')),
        errored: count((r) => !r.expires && r.prompt.includes('ERRORED')),
        canceled: 0,
        expired: count((r) => r.expires),
      },
      created_at: b.createdAt,
      expires_at: b.createdAt,
      ended_at: done ? new Date().toISOString() : null,
      archived_at: null,
      cancel_initiated_at: null,
      results_url: done ? `${origin}/v1/messages/batches/${b.id}/results` : null,
    };
  };

  async function body(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'POST' && path === '/v1/messages') {
      messages++;
      return json(res, 200, message(lastUser((await body(req)) as never)));
    }
    if (req.method === 'POST' && path === '/v1/messages/batches') {
      const { requests } = (await body(req)) as { requests: { custom_id: string; params: never }[] };
      const held: Held = {
        id: `msgbatch_${randomUUID().replaceAll('-', '')}`,
        polls: 0,
        createdAt: new Date().toISOString(),
        requests: requests.map((r) => {
          const prompt = lastUser(r.params);
          const expires = prompt.includes('EXPIRES') && !expiredOnce.has(prompt);
          if (expires) expiredOnce.add(prompt);
          return { custom_id: r.custom_id, prompt, expires };
        }),
      };
      batches.set(held.id, held);
      created.push({ id: held.id, prompts: held.requests.map((r) => r.prompt) });
      return json(res, 200, batchObject(held));
    }
    const m = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(path);
    const held = m ? batches.get(m[1] as string) : undefined;
    if (req.method === 'GET' && held && !m?.[2]) {
      retrieves++;
      if (served.failRetrieves)
        return json(res, 500, { type: 'error', error: { type: 'api_error', message: 'outage' } });
      held.polls++;
      return json(res, 200, batchObject(held));
    }
    if (req.method === 'GET' && held && ended(held)) {
      res.writeHead(200, { 'content-type': 'application/binary' });
      for (const r of held.requests) {
        const result = r.expires
          ? { type: 'expired' }
          : r.prompt.includes('ERRORED')
            ? {
                type: 'errored',
                error: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt refused' } },
              }
            : { type: 'succeeded', message: message(r.prompt) };
        res.write(`${JSON.stringify({ custom_id: r.custom_id, result })}\n`);
      }
      res.end();
      return;
    }
    json(res, 404, {
      type: 'error',
      error: { type: 'not_found_error', message: `no ${req.method} ${path}` },
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) =>
      json(res, 500, { type: 'error', error: { type: 'api_error', message: String(e) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const served: MessageBatchesServer = {
    origin,
    created,
    failRetrieves: false,
    messages: () => messages,
    retrieves: () => retrieves,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return served;
}
