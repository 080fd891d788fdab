#!/usr/bin/env node
// An OpenAI-compatible endpoint that answers at once, so a benchmark against it measures the client's
// own overhead. It counts chat completions so the harness can check how many requests really arrived.
//
//   node bench/instant-server.mjs [--port N]
//
// Prints one JSON line `{"port":N}` on stdout when listening (127.0.0.1 only).
//   POST /v1/chat/completions  -> fixed small completion with usage; counted
//   GET  /v1/models            -> one model
//   GET  /count                -> {"chat":N,"other":M,"otherSeen":[...]}  (so far; not counted itself)
// On SIGTERM/SIGINT it prints the final count as JSON on stderr and exits 0.
import http from 'node:http';

const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 0;

let chat = 0;
let other = 0;
// The first few requests that were not chat completions, so a surprise shows what it was.
const otherSeen = [];
let created = Math.floor(Date.now() / 1000);

function completion(model) {
  chat += 1;
  return JSON.stringify({
    id: `chatcmpl-bench-${chat}`,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'The answer is 42.' },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
  });
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/count') {
      send(res, 200, JSON.stringify({ chat, other, otherSeen }));
      return;
    }
    if (req.method === 'POST' && path.endsWith('/chat/completions')) {
      let model = 'bench';
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (typeof body.model === 'string') model = body.model;
      } catch {
        other += 1;
        send(
          res,
          400,
          JSON.stringify({ error: { message: 'malformed JSON body', type: 'invalid_request' } }),
        );
        return;
      }
      send(res, 200, completion(model));
      return;
    }
    other += 1;
    if (otherSeen.length < 20) otherSeen.push(`${req.method} ${path}`);
    if (req.method === 'GET' && path.endsWith('/models')) {
      send(res, 200, JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model', created }] }));
      return;
    }
    send(
      res,
      404,
      JSON.stringify({ error: { message: `no route ${req.method} ${path}`, type: 'not_found' } }),
    );
  });
});

// Clients keep connections alive between requests; do not let Node's defaults close them mid-run.
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;

server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  created = Math.floor(Date.now() / 1000);
  process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : port })}\n`);
});

function stop() {
  process.stderr.write(`${JSON.stringify({ chat, other })}\n`);
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 500).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
