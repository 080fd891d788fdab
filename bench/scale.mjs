#!/usr/bin/env node
// waver at scale (issue 13): plain suites of 10k, 100k and 1M cells against the instant endpoint,
// each size measured whole and against its anchor, the bare loop, run in the same process of
// measurement: the run (wall time, peak RSS, store size), `waver report` (time, RSS, HTML size,
// load in Chromium), `waver check --min-coverage` (time), `waver export` (RSS) and `waver view`
// with a run in progress (the index, the store page, transcript pages, `/` while the report is
// built). Prints each size's figures, the ratios to the bare loop, the growth exponents between
// sizes (log of the ratio of a figure over the log of the ratio of the sizes: 1 is linear) and the
// goals at the largest size.
//
//   npm run bench:scale                          (builds, then node bench/scale.mjs)
//   node bench/scale.mjs [--sizes 10000,100000,1000000] [--models 4] [--concurrency 16]
//                        [--timeout-s 7200] [--skip-browser] [--keep]
//
// A size is cells: sizes/models prompts, each asked of every model (openai:bench-0..K-1 on the
// same endpoint). --concurrency is the calls in flight in all: the bare loop keeps that many, and
// waver gets concurrency/models per model. Everything is written under bench/out/scale/ (removed
// at the end unless --keep); figures also go to bench/out/scale-results.json. Linux only (/proc).
import { spawn } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureProcess, median } from './measure.mjs';
import { makeSuite, writeSuiteJsonl } from './suite.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const OUT = join(BENCH, 'out', 'scale');
const WAVER = join(ROOT, 'dist', 'bin', 'waver.cjs');
const NODE = process.execPath;
const CHROMIUM = '/usr/bin/chromium';

/** The goals of issue 13, at 1M cells. */
const GOALS = {
  runRssMb: 300,
  runVsBare: 1.2,
  reportS: 20,
  reportRssMb: 500,
  reportMb: 25,
  chromiumS: 2,
  transcriptMs: 200,
  exportRssMb: 150,
  checkS: 2,
};

const opts = parseArgs(process.argv.slice(2));

function parseArgs(argv) {
  const o = {
    sizes: [10_000, 100_000, 1_000_000],
    models: 4,
    concurrency: 16,
    timeoutS: 7200,
    browser: true,
    keep: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${a} needs positive integers, got ${v}`);
      return n;
    };
    if (a === '--sizes') o.sizes = String(argv[++i]).split(',').map(num);
    else if (a === '--models') o.models = num(argv[++i]);
    else if (a === '--concurrency') o.concurrency = num(argv[++i]);
    else if (a === '--timeout-s') o.timeoutS = num(argv[++i]);
    else if (a === '--skip-browser') o.browser = false;
    else if (a === '--keep') o.keep = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (o.concurrency % o.models !== 0) throw new Error('--concurrency must be a multiple of --models');
  return o;
}

/** Every measured process: loopback only (the guard blocks anything else), a dummy key, no proxy. */
function benchEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env))
    if (/^(https?|all|no)_proxy$/i.test(k) || /^(OPENAI|ANTHROPIC)_/.test(k)) delete env[k];
  return {
    ...env,
    NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require "${join(BENCH, 'loopback-guard.cjs')}"`.trim(),
    NO_PROXY: '127.0.0.1,localhost',
    OPENAI_API_KEY: 'sk-bench-dummy',
    NO_COLOR: '1',
  };
}
const ENV = benchEnv();

function startServer() {
  return new Promise((resolveStart, reject) => {
    const child = spawn(NODE, [join(BENCH, 'instant-server.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolveStart({ child, port: JSON.parse(out.split('\n')[0]).port });
    });
    child.on('exit', (code) => reject(new Error(`instant server exited (${code})`)));
  });
}

function get(url) {
  return new Promise((resolveGet, reject) => {
    const started = performance.now();
    request(url, { agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (d) => {
        bytes += d.length;
      });
      res.on('end', () => resolveGet({ status: res.statusCode, ms: performance.now() - started, bytes }));
    })
      .on('error', reject)
      .end();
  });
}

async function getText(url) {
  return new Promise((resolveGet, reject) => {
    request(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolveGet(body));
    })
      .on('error', reject)
      .end();
  });
}

const serverCount = async (port) => JSON.parse(await getText(`http://127.0.0.1:${port}/count`)).chat;

function removeStore(path) {
  for (const s of ['', '-wal', '-shm']) rmSync(`${path}${s}`, { force: true });
}

const mb = (bytes) => bytes / 1e6;
const fileMb = (path) => mb(existsSync(path) ? statSync(path).size : 0);

async function countLines(path) {
  let n = 0;
  for await (const chunk of createReadStream(path)) for (const b of chunk) if (b === 10) n++;
  return n;
}

/** Fails the bench (exit 1) with what went wrong: a broken measurement is not a figure. */
function expectOk(what, r, check) {
  const problem = r.timedOut
    ? 'timed out'
    : r.exitCode !== 0
      ? `exit ${r.exitCode} ${r.signal ?? ''}`
      : check?.();
  if (problem) throw new Error(`${what}: ${problem}\n${r.stderr.slice(-2000)}`);
}

const waver = (args, timeoutMs = opts.timeoutS * 1000) =>
  measureProcess(NODE, [WAVER, ...args], { env: ENV, cwd: ROOT, timeoutMs });

async function chromiumLoad(file) {
  if (!opts.browser) return { skipped: '--skip-browser' };
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is missing` };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const page = await browser.newPage();
      await page.goto(`file://${file}`, { waitUntil: 'load', timeout: 120_000 });
      await page.waitForSelector('body[data-ready="1"]', { timeout: 120_000 });
      runs.push(
        await page.evaluate(() => {
          const fcp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
          return { fcpMs: fcp?.startTime, readyMs: performance.now() };
        }),
      );
      await page.close();
    }
    return { fcpMs: median(runs.map((r) => r.fcpMs)), readyMs: median(runs.map((r) => r.readyMs)) };
  } finally {
    await browser.close();
  }
}

/** Starts a process that is not measured (the viewer, the run in progress); resolves its first stdout line. */
function startChild(args, env = ENV) {
  const child = spawn(NODE, [WAVER, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    err += d.slice(-2000);
  });
  const line = new Promise((resolveLine, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolveLine(out.split('\n')[0].trim());
    });
    child.on('exit', (code) => reject(new Error(`waver ${args[0]} exited (${code}): ${err}`)));
  });
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return { child, line, exited, stderr: () => err };
}

async function latencies(url, n = 10) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const r = await get(url);
    if (r.status !== 200) throw new Error(`GET ${url}: HTTP ${r.status}`);
    ms.push(r.ms);
  }
  return { medianMs: median(ms), maxMs: Math.max(...ms) };
}

/**
 * `waver view` on the store while another `waver run` writes a small suite into it (rate-limited
 * so it runs all along), with a client on the progress stream: the figures a user sees.
 */
async function viewer(store, suiteHash, port) {
  const live = join(OUT, 'live.jsonl');
  writeSuiteJsonl(
    live,
    makeSuite(2000, 7).map((t) => ({ ...t, id: `live-${t.id}` })),
  );
  const config = join(OUT, 'live.yaml');
  writeFileSync(
    config,
    `models:\n  - provider: openai\n    model: live\n    baseURL: http://127.0.0.1:${port}/v1\n    rpm: 600\nconcurrency: 1\n`,
  );
  const view = startChild(['view', '--store', store]);
  const url = await view.line;
  const running = startChild(['run', '--config', config, '--suite', live, '--store', store]);
  try {
    // Under way once the viewer's progress shows the live run writing.
    const until = Date.now() + 60_000;
    for (;;) {
      const p = JSON.parse(await getText(`${url}stores/0/progress`));
      if (p.run?.status === 'running' && p.writtenThisRun > 0) break;
      if (Date.now() > until) throw new Error(`the run in progress did not start: ${running.stderr()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const events = request(`${url}stores/0/events`, { agent: false }, (res) => res.resume());
    events.on('error', () => {});
    events.end();
    const base = `${url}stores/0/transcripts?suite=${suiteHash}`;
    const first = await getText(base);
    const next = /<a id="next" href="([^"]+)"/.exec(first)?.[1]?.replace(/&(amp|#38);/g, '&');
    const out = {
      indexPage: await latencies(url),
      storePage: await latencies(`${url}stores/0`),
      progress: await latencies(`${url}stores/0/progress`),
      transcriptPage: await latencies(base),
      transcriptNextPage: next ? await latencies(new URL(next, url).toString()) : undefined,
      transcriptFailed: await latencies(`${base}&status=failed`),
      transcriptSearch: await latencies(`${base}&q=${encodeURIComponent('case 7,')}`, 3),
    };
    // The report built in the viewer's worker, and `/` asked every 50 ms meanwhile.
    const started = performance.now();
    let done = false;
    const report = get(`${url}stores/0/report`).then((r) => {
      done = true;
      return r;
    });
    const during = [];
    while (!done) {
      during.push((await get(url)).ms);
      await new Promise((r) => setTimeout(r, 50));
    }
    const r = await report;
    if (r.status !== 200) throw new Error(`viewer report: HTTP ${r.status}`);
    out.reportInViewerS = (performance.now() - started) / 1000;
    out.indexDuringReport = { medianMs: median(during), maxMs: Math.max(...during), requests: during.length };
    events.destroy();
    return out;
  } finally {
    running.child.kill('SIGINT');
    await running.exited;
    view.child.kill('SIGTERM');
    await view.exited;
  }
}

async function measureSize(cells, port) {
  const prompts = Math.floor(cells / opts.models);
  const suite = join(OUT, `suite-${cells}.jsonl`);
  writeSuiteJsonl(suite, makeSuite(prompts));
  const store = join(OUT, `store-${cells}.db`);
  removeStore(store);
  const url = `http://127.0.0.1:${port}/v1`;
  const log = (s) => process.stderr.write(`[${cells}] ${s}\n`);

  log('bare loop');
  let before = await serverCount(port);
  const bare = await measureProcess(
    NODE,
    [
      join(BENCH, 'bare-loop.mjs'),
      '--suite',
      suite,
      '--url',
      url,
      '--concurrency',
      String(opts.concurrency),
      '--models',
      String(opts.models),
    ],
    { env: ENV, cwd: ROOT, timeoutMs: opts.timeoutS * 1000 },
  );
  let seen = (await serverCount(port)) - before;
  expectOk('bare loop', bare, () => (seen !== prompts * opts.models ? `the server saw ${seen}` : undefined));

  log('waver run');
  before = await serverCount(port);
  const models = Array.from({ length: opts.models }, (_, i) => `openai:bench-${i}@${url}`).join(',');
  const run = await waver([
    'run',
    '--suite',
    suite,
    '--models',
    models,
    '--concurrency',
    String(opts.concurrency / opts.models),
    '--no-cache',
    '--store',
    store,
  ]);
  seen = (await serverCount(port)) - before;
  expectOk('waver run', run, () => (seen !== prompts * opts.models ? `the server saw ${seen}` : undefined));
  const storeMb = fileMb(store) + fileMb(`${store}-wal`);

  log('waver report');
  const html = join(OUT, `report-${cells}.html`);
  const report = await waver(['report', '--store', store, '--out', html]);
  expectOk('waver report', report);
  const reportMb = fileMb(html);
  log('Chromium');
  const browser = await chromiumLoad(html);

  log('waver check');
  const check = await waver(['check', '--store', store, '--min-coverage', '0.9']);
  expectOk('waver check', check);

  log('waver export');
  const exported = join(OUT, `export-${cells}.jsonl`);
  const exp = await waver(['export', '--store', store, '--out', exported]);
  expectOk('waver export', exp);
  const lines = await countLines(exported);
  if (lines !== prompts * opts.models) throw new Error(`waver export wrote ${lines} lines`);
  rmSync(exported, { force: true });

  log('waver view with a run in progress');
  const { openStore } = await import(join(ROOT, 'dist', 'store', 'store.js'));
  const s = openStore(store, { readonly: true });
  const hash = s.suites.list().find((x) => x.name === suite)?.hash;
  s.close();
  if (!hash) throw new Error(`no suite named ${suite} in ${store}`);
  const view = await viewer(store, hash, port);

  return {
    cells,
    prompts,
    bare: { wallS: bare.wallS, rssMb: bare.peakRssMb },
    run: { wallS: run.wallS, rssMb: run.peakRssMb, storeMb },
    report: { wallS: report.wallS, rssMb: report.peakRssMb, mb: reportMb, browser },
    check: { wallS: check.wallS, rssMb: check.peakRssMb },
    export: { wallS: exp.wallS, rssMb: exp.peakRssMb },
    view,
  };
}

/** The figures compared across sizes: name, how to read it, unit. */
const FIGURES = [
  ['bare loop wall', (r) => r.bare.wallS, 's'],
  ['run wall', (r) => r.run.wallS, 's'],
  ['run wall / bare loop', (r) => r.run.wallS / r.bare.wallS, 'x'],
  ['run peak RSS', (r) => r.run.rssMb, 'MB'],
  ['store size', (r) => r.run.storeMb, 'MB'],
  ['report wall', (r) => r.report.wallS, 's'],
  ['report peak RSS', (r) => r.report.rssMb, 'MB'],
  ['report HTML', (r) => r.report.mb, 'MB'],
  ['report ready in Chromium', (r) => (r.report.browser.readyMs ?? Number.NaN) / 1000, 's'],
  ['check --min-coverage wall', (r) => r.check.wallS, 's'],
  ['export peak RSS', (r) => r.export.rssMb, 'MB'],
  ['export wall', (r) => r.export.wallS, 's'],
  ['viewer / (median)', (r) => r.view.indexPage.medianMs, 'ms'],
  ['viewer store page (median)', (r) => r.view.storePage.medianMs, 'ms'],
  ['viewer progress (median)', (r) => r.view.progress.medianMs, 'ms'],
  ['viewer transcript page (median)', (r) => r.view.transcriptPage.medianMs, 'ms'],
  ['viewer transcript page (max)', (r) => r.view.transcriptPage.maxMs, 'ms'],
  ['viewer next transcript page (median)', (r) => r.view.transcriptNextPage?.medianMs ?? Number.NaN, 'ms'],
  ['viewer failed-cells page (median)', (r) => r.view.transcriptFailed.medianMs, 'ms'],
  ['viewer search page (median)', (r) => r.view.transcriptSearch.medianMs, 'ms'],
  ['viewer report build', (r) => r.view.reportInViewerS, 's'],
  ['viewer / while building it (max)', (r) => r.view.indexDuringReport.maxMs, 'ms'],
];

const fmt = (v) => (Number.isFinite(v) ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)) : '—');

function table(results) {
  const sizes = results.map((r) => r.cells);
  const head = `| figure | ${sizes.map((n) => `${n.toLocaleString('en')} cells`).join(' | ')} | growth exponents |`;
  const rows = FIGURES.map(([name, read, unit]) => {
    const values = results.map(read);
    const exps = [];
    for (let i = 1; i < values.length; i++)
      exps.push(Math.log(values[i] / values[i - 1]) / Math.log(sizes[i] / sizes[i - 1]));
    return `| ${name} (${unit}) | ${values.map(fmt).join(' | ')} | ${exps.map((e) => fmt(e)).join(', ') || '—'} |`;
  });
  return [head, `|---|${sizes.map(() => '---:').join('|')}|---|`, ...rows].join('\n');
}

function goals(r) {
  const rows = [
    ['run peak RSS', r.run.rssMb, GOALS.runRssMb, 'MB'],
    ['run wall / bare loop', r.run.wallS / r.bare.wallS, GOALS.runVsBare, 'x'],
    ['report wall', r.report.wallS, GOALS.reportS, 's'],
    ['report peak RSS', r.report.rssMb, GOALS.reportRssMb, 'MB'],
    ['report HTML', r.report.mb, GOALS.reportMb, 'MB'],
    ['report ready in Chromium', (r.report.browser.readyMs ?? Number.NaN) / 1000, GOALS.chromiumS, 's'],
    ['viewer transcript page, run in progress (max)', r.view.transcriptPage.maxMs, GOALS.transcriptMs, 'ms'],
    ['export peak RSS', r.export.rssMb, GOALS.exportRssMb, 'MB'],
    ['check --min-coverage wall', r.check.wallS, GOALS.checkS, 's'],
  ];
  return [
    `Goals (issue 13, set for 1,000,000 cells; measured at ${r.cells.toLocaleString('en')}):`,
    '',
    '| figure | measured | goal | verdict |',
    '|---|---:|---:|---|',
    ...rows.map(
      ([name, v, goal, unit]) =>
        `| ${name} | ${fmt(v)} ${unit} | <= ${goal} ${unit} | ${Number.isFinite(v) ? (v <= goal ? 'PASS' : 'FAIL') : 'SKIPPED'} |`,
    ),
  ].join('\n');
}

async function main() {
  if (!existsSync(WAVER)) throw new Error('dist/ is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  const started = performance.now();
  const results = [];
  try {
    for (const cells of [...opts.sizes].sort((a, b) => a - b)) {
      const t0 = performance.now();
      const r = await measureSize(cells, server.port);
      r.benchS = (performance.now() - t0) / 1000;
      results.push(r);
      process.stderr.write(`[${cells}] measured in ${r.benchS.toFixed(0)} s\n`);
    }
  } finally {
    server.child.kill('SIGTERM');
    if (!opts.keep) for (const f of readdirSync(OUT)) rmSync(join(OUT, f), { force: true, recursive: true });
  }
  const totalS = (performance.now() - started) / 1000;
  const largest = results.at(-1);
  process.stdout.write(
    [
      `waver at scale: plain suites, ${opts.models} models (prompts = cells / ${opts.models}), ${opts.concurrency} calls in flight, instant endpoint on loopback; whole bench ${totalS.toFixed(0)} s`,
      '',
      table(results),
      '',
      goals(largest),
      '',
      `RESULT ${JSON.stringify({ name: 'scale', sizes: results.map((r) => r.cells), totalS: Math.round(totalS), results })}`,
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(BENCH, 'out', 'scale-results.json'),
    `${JSON.stringify({ opts, totalS, results }, null, 2)}\n`,
  );
}

main().catch((e) => {
  process.stderr.write(`bench/scale.mjs: ${e.stack ?? e}\n`);
  process.exit(1);
});
