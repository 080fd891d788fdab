import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server speaking OpenAI's Files and Batch API (upload, create, retrieve, list, file
 * content), answering each request of a batch `echo: <last user message>`. A batch ends after
 * `pollsToEnd` retrieves. `forget()` drops every batch and file, as a restarted server or a
 * provider past its retention does: they are answered 404 from then on. `outputLines` rewrites a
 * batch's output file (to break a line, or repeat one).
 */
export interface OpenAIBatchesServer {
  /** http://127.0.0.1:PORT/v1 (the OpenAI base URL). */
  url: string;
  /** Batches created, each with its requests' prompts. */
  created: { id: string; prompts: string[] }[];
  /** How many times each prompt was put in a batch. */
  batchedByPrompt(): Map<string, number>;
  /** Forgets every batch and file. */
  forget(): void;
  /** Requests answered with `refuse`. */
  refused(): number;
  close(): Promise<void>;
}

export interface OpenAIBatchesServerOptions {
  pollsToEnd?: number;
  /** The output file's lines, from those it would hold (one per request, in order). */
  outputLines?: (lines: string[]) => string[];
  /** Every request answered with this status and error (a refused key, a spent quota). */
  refuse?: { status: number; error: Record<string, unknown> };
}

interface Held {
  id: string;
  inputFileId: string;
  requests: { custom_id: string; prompt: string }[];
  polls: number;
  createdAt: number;
  outputFileId?: string;
}

export async function startOpenAIBatchesServer(
  opts: OpenAIBatchesServerOptions = {},
): Promise<OpenAIBatchesServer> {
  const pollsToEnd = opts.pollsToEnd ?? 1;
  let files = new Map<string, { bytes: Buffer; createdAt: number }>();
  let batches = new Map<string, Held>();
  const created: OpenAIBatchesServer['created'] = [];
  let refused = 0;
  const seconds = () => Math.floor(Date.now() / 1000);

  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  const notFound = (res: ServerResponse, what: string) =>
    json(res, 404, { error: { message: `No such ${what}`, type: 'invalid_request_error', code: null } });
  const fileObject = (id: string) => {
    const f = files.get(id);
    return {
      id,
      object: 'file',
      bytes: f?.bytes.length,
      created_at: f?.createdAt,
      filename: 'in.jsonl',
      purpose: 'batch',
      status: 'processed',
    };
  };
  const batchObject = (b: Held) => {
    const done = b.polls >= pollsToEnd;
    return {
      id: b.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      input_file_id: b.inputFileId,
      completion_window: '24h',
      status: done ? 'completed' : 'in_progress',
      output_file_id: done ? (b.outputFileId ?? null) : null,
      error_file_id: null,
      created_at: b.createdAt,
      request_counts: { total: b.requests.length, completed: done ? b.requests.length : 0, failed: 0 },
      errors: null,
    };
  };
  const answer = (prompt: string) => ({
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: seconds(),
    model: 'loopback',
    choices: [
      { index: 0, message: { role: 'assistant', content: `echo: ${prompt}` }, finish_reason: 'stop' },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
  const end = (b: Held) => {
    const lines = b.requests.map((r) =>
      JSON.stringify({
        id: `batch_req_${randomUUID()}`,
        custom_id: r.custom_id,
        response: { status_code: 200, request_id: randomUUID(), body: answer(r.prompt) },
        error: null,
      }),
    );
    const id = `file-${randomUUID()}`;
    const out = opts.outputLines ? opts.outputLines(lines) : lines;
    files.set(id, { bytes: Buffer.from(`${out.join('\n')}\n`), createdAt: seconds() });
    b.outputFileId = id;
  };

  async function read(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (opts.refuse) {
      refused++;
      return json(res, opts.refuse.status, { error: opts.refuse.error });
    }
    if (req.method === 'POST' && path === '/v1/files') {
      const form = await new Response(await read(req), {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
      const file = form.get('file') as Blob;
      const id = `file-${randomUUID()}`;
      files.set(id, { bytes: Buffer.from(await file.arrayBuffer()), createdAt: seconds() });
      return json(res, 200, fileObject(id));
    }
    if (req.method === 'POST' && path === '/v1/batches') {
      const { input_file_id } = JSON.parse((await read(req)).toString('utf8')) as { input_file_id: string };
      const input = files.get(input_file_id);
      if (!input) return notFound(res, `file ${input_file_id}`);
      const requests = input.bytes
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => {
          const r = JSON.parse(l) as {
            custom_id: string;
            body: { messages: { role: string; content: string }[] };
          };
          const prompt = String(r.body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
          return { custom_id: r.custom_id, prompt };
        });
      const held: Held = {
        id: `batch_${randomUUID()}`,
        inputFileId: input_file_id,
        requests,
        polls: 0,
        createdAt: seconds(),
      };
      batches.set(held.id, held);
      created.push({ id: held.id, prompts: requests.map((r) => r.prompt) });
      return json(res, 200, batchObject(held));
    }
    if (req.method === 'GET' && path === '/v1/batches') {
      const data = [...batches.values()].reverse().map(batchObject);
      return json(res, 200, {
        object: 'list',
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      });
    }
    const batch = /^\/v1\/batches\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && batch) {
      const held = batches.get(batch[1] as string);
      if (!held) return notFound(res, `batch ${batch[1]}`);
      held.polls++;
      if (held.polls >= pollsToEnd && !held.outputFileId) end(held);
      return json(res, 200, batchObject(held));
    }
    const file = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path);
    if (req.method === 'GET' && file) {
      const f = files.get(file[1] as string);
      if (!f) return notFound(res, `file ${file[1]}`);
      if (!file[2]) return json(res, 200, fileObject(file[1] as string));
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(f.bytes);
      return;
    }
    notFound(res, `route ${req.method} ${path}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => json(res, 500, { error: { message: String(e) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    created,
    batchedByPrompt: () => {
      const n = new Map<string, number>();
      for (const b of created) for (const p of b.prompts) n.set(p, (n.get(p) ?? 0) + 1);
      return n;
    },
    forget: () => {
      files = new Map();
      batches = new Map();
    },
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
