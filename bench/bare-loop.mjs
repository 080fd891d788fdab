#!/usr/bin/env node
// The limit: every prompt of the suite POSTed with Node's global fetch at a fixed concurrency and nothing
// else (no store, no retries, no progress). A harness cannot beat this on the same endpoint.
//
//   node bench/bare-loop.mjs --suite bench/out/suite.jsonl --url http://127.0.0.1:PORT/v1 [--concurrency 16]
//                            [--models K]
//
// With --models K every prompt is sent K times, once per model `bench-0` .. `bench-K-1`, prompt by
// prompt (the order waver's plan takes), `--concurrency` in flight in all.
// Prints one JSON line: {"ok":N,"failed":M,"wallMs":T}. Exit code 1 if any request failed.
import { readFileSync } from 'node:fs';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const suitePath = arg('suite', 'bench/out/suite.jsonl');
const baseUrl = arg('url', undefined);
const concurrency = Number(arg('concurrency', '16'));
const models = Number(arg('models', '0'));
if (!baseUrl) {
  process.stderr.write('bare-loop: --url http://127.0.0.1:PORT/v1 is required\n');
  process.exit(2);
}

const prompts = readFileSync(suitePath, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));

const url = `${baseUrl.replace(/\/$/, '')}/chat/completions`;
const started = performance.now();
let next = 0;
let ok = 0;
let failed = 0;

const perPrompt = Math.max(1, models);
const total = prompts.length * perPrompt;

async function worker() {
  while (next < total) {
    const n = next++;
    const item = prompts[Math.floor(n / perPrompt)];
    const model = models > 0 ? `bench-${n % perPrompt}` : 'bench';
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-dummy' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: item.prompt }] }),
      });
      const body = await res.json();
      if (res.ok && typeof body.choices?.[0]?.message?.content === 'string') ok += 1;
      else failed += 1;
    } catch {
      failed += 1;
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
process.stdout.write(`${JSON.stringify({ ok, failed, wallMs: Math.round(performance.now() - started) })}\n`);
process.exit(failed === 0 ? 0 : 1);
