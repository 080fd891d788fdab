/**
 * What bench/clients/langchain.mjs and ai-sdk.mjs share: `waver serve` over the tiny model (started
 * from dist/ unless a URL is given), one PASS/FAIL line per call with why, a summary line, and the
 * record `NAME.out.json` beside the script.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
// The tiny model in ../shared beside the checkout, as the tests read it.
export const TINY_MODEL =
  process.env.WAVER_TINY_MODEL ?? join(repo, '..', 'shared', 'models', 'stories260K.gguf');

/** argv [BASE_URL MODEL] names a running server; without them `waver serve` is started here. */
export async function server() {
  const [url, model] = process.argv.slice(2);
  if (url) return { url, model: model ?? (await servedModel(url)), close: async () => {} };
  const child = spawn(
    process.execPath,
    [
      join(repo, 'dist', 'bin', 'waver.cjs'),
      'serve',
      '--model',
      `gguf:${TINY_MODEL}`,
      '--port',
      '0',
      '--context-size',
      '512',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const started = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) =>
      reject(new Error(`waver serve exited ${code} (npx tsc -p tsconfig.build.json first)`)),
    );
  });
  const close = () => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM'));
  return { url: started, model: await servedModel(started), close };
}

async function servedModel(url) {
  const listed = await (await fetch(`${url}/models`)).json();
  return listed.data[0].id;
}

/** Runs each named call; a call passes when it returns a check that holds (`true` or `[true, why]`). */
export async function runCalls(name, version, calls) {
  const results = [];
  for (const [call, fn] of calls) {
    let ok = false;
    let why = '';
    try {
      const got = await fn();
      [ok, why] = Array.isArray(got) ? got : [got, ''];
    } catch (e) {
      why = `threw ${e?.constructor?.name}: ${e?.message ?? e}`;
    }
    why = String(why).replace(/\s+/g, ' ').slice(0, 300);
    results.push({ call, ok, why });
    console.log(`${ok ? 'PASS' : 'FAIL'} ${call}${why ? ` — ${why}` : ''}`);
  }
  const passed = results.filter((r) => r.ok).length;
  const summary = {
    client: name,
    version,
    calls: results.length,
    passed,
    failed: results.filter((r) => !r.ok),
  };
  console.log(`${name} ${version}: ${passed}/${results.length} calls passed`);
  if (!process.argv[2])
    writeFileSync(join(here, `${name}.out.json`), `${JSON.stringify({ ...summary, results }, null, 2)}\n`);
  console.log(JSON.stringify(summary));
  return summary;
}

/** The version of an installed client package, from its package.json. */
export async function versionOf(pkg) {
  const { readFileSync } = await import('node:fs');
  return JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

/** The length of the served model's embeddings, from the route itself. */
export async function embeddingLength(url, model) {
  const res = await fetch(`${url}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, input: 'x' }),
  });
  return (await res.json()).data[0].embedding.length;
}
