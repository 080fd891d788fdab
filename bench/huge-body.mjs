// The memory a run takes against a server that answers every call with a huge body: a loopback
// OpenAI-compatible endpoint answers each chat call with 256 MB (never fitting the 64 MiB
// maxResponseBytes), and `waver run` calls it for 8 prompts at --concurrency 8 under
// /usr/bin/time -v. Prints the run's exit code, the requests it made, its max RSS and wall time
// (docs/architecture.md#bounds-on-what-a-call-takes).
//
//   node bench/huge-body.mjs [path/to/dist/bin/waver.cjs] [extra waver flags, e.g. --max-retries 0]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const cli = resolve(process.argv[2] ?? 'dist/bin/waver.cjs');
const HUGE = 256 * 1024 * 1024;
let posts = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'POST') posts++;
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    res.write('{"choices":[{"message":{"role":"assistant","content":"');
    let sent = 0;
    const pump = () => {
      while (sent < HUGE && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end('"}}]}');
    };
    pump();
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/v1`;
const dir = mkdtempSync(join(tmpdir(), 'waver-huge-body-'));
const prompts = Array.from({ length: 8 }, (_, i) => JSON.stringify({ id: `t${i}`, prompt: `p${i}` }));
writeFileSync(join(dir, 'suite.jsonl'), `${prompts.join('\n')}\n`);
const args = ['run', '--suite', 'suite.jsonl', '--models', `openai:m@${url}`, '--concurrency', '8'];
const child = spawn(
  '/usr/bin/time',
  ['-v', process.execPath, cli, ...args, '--store', join(dir, 'store.db'), ...process.argv.slice(3)],
  { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
);
let err = '';
child.stderr.on('data', (d) => {
  err += d;
});
const code = await new Promise((r) => child.on('close', r));
const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1]);
const wall = /Elapsed \(wall clock\) time.*: (\S+)/.exec(err)?.[1];
console.log(`exit ${code}, ${posts} requests, max RSS ${(rss / 1024).toFixed(0)} MB, wall ${wall}`);
server.closeAllConnections();
server.close();
