import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname } from 'node:path';
import { InputError } from '../errors.js';
import { listen } from '../http/listen.js';
import { hostName, isLoopbackHost } from '../http/request-origin.js';
import { type PathParams, RouteTable } from '../http/route-table.js';
import { renderReport } from '../report/formats.js';
import { CSP } from '../report/html/page.js';
import type { ReportedProtocol } from '../report/report-data.js';
import { buildReport } from '../report/report-data.js';
import { loadCharting } from '../report/vega-runtime.js';
import { readStore } from '../store/store.js';
import { handleLabelling } from './labelling.js';
import { indexPage, pageCsp, storePage, transcriptsPage, unreadableStorePage } from './pages.js';
import { type RunProgress, StoreReader } from './progress.js';
import {
  type TranscriptPage,
  type TranscriptQuery,
  transcriptPage,
  transcriptQueryOf,
} from './transcripts.js';
import { WorkerClient } from './worker-client.js';

/**
 * `waver view`: a small HTTP server on loopback that lists stores and report files, renders a
 * store's HTML report on request, browses every cell of a store a page at a time
 * (transcripts.ts), and streams the latest run's progress by Server-Sent Events. Building a report
 * and searching transcripts run in worker threads when `workers` are given (the CLI gives them),
 * so the pages and the progress stream answer at once whatever the size of the store.
 * It reads only, but for the labelling page's labels (labelling.ts,
 * docs/decisions.md#e21-the-viewer-writes-peoples-labels): stores through a read-only connection
 * (progress, runs) or a Store opened for the report, which writes nothing. No authentication, so
 * it refuses a non-loopback address unless `allowRemote`, and (when on loopback) requests whose
 * Host is not loopback, so a web page elsewhere cannot reach it through DNS rebinding.
 */

export interface ViewerOptions {
  /** The protocols a store's report is built with (their sections). */
  protocols: readonly ReportedProtocol[];
  stores?: readonly string[];
  reports?: readonly string[];
  host?: string;
  /** 0 = any free port. */
  port?: number;
  allowRemote?: boolean;
  /** How often the stores are polled for progress (1 s). */
  pollMs?: number;
  /** Comment lines keep idle SSE connections open through proxies (15 s). */
  heartbeatMs?: number;
  /**
   * Worker thread entries (worker-client.ts): `queries` answers transcript pages (the CLI's
   * query-worker.js), `reports` builds store reports (its report-worker.js); both hold the
   * protocols. Without one, that work runs on the server's own thread.
   */
  workers?: { queries?: URL; reports?: URL };
}

export interface Viewer {
  url: string;
  close(): Promise<void>;
}

interface StoreEntry {
  path: string;
  reader: StoreReader;
  /** The report last built, for the store's data version it was built at; or the build under way. */
  report?: { version: number | undefined; html: Promise<string> };
  clients: Set<ServerResponse>;
  last?: string;
  /** The last read error, printed once. */
  lastError?: string;
}

export async function startViewer(opts: ViewerOptions): Promise<Viewer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && opts.allowRemote !== true)
    throw new InputError(
      `refusing to bind ${host}: it is not a loopback address and the viewer has no authentication; ` +
        'pass --allow-remote to serve stores and reports on the network',
      { field: '--host' },
    );
  const reports = [...(opts.reports ?? [])];
  for (const r of reports)
    if (!existsSync(r)) throw new InputError('report file not found', { field: '--report', file: r });
  const stores: StoreEntry[] = (opts.stores ?? []).map((path) => ({
    path,
    reader: new StoreReader(path),
    clients: new Set(),
  }));
  const loopbackOnly = isLoopbackHost(host);
  const queries = opts.workers?.queries ? new WorkerClient(opts.workers.queries) : undefined;
  const reportBuilder = opts.workers?.reports ? new WorkerClient(opts.workers.reports) : undefined;
  const pageOf = (q: TranscriptQuery): Promise<TranscriptPage> =>
    queries ? queries.request<TranscriptPage>(q) : Promise.resolve(transcriptPage(q, opts.protocols));
  const reportOf = storeReports(opts.protocols, reportBuilder);

  const routes = viewerRoutes({ stores, reports, reportOf, pageOf });
  const server = createServer((req, res) => {
    handle(routes, loopbackOnly, stores, req, res).catch((e: unknown) => {
      if (res.headersSent) res.destroy();
      // A store that cannot be read (damaged, not a store) is the user's to fix, not the viewer's fault.
      else if (e instanceof InputError) text(res, 503, e.format());
      else text(res, 500, `error: ${(e as Error)?.message ?? String(e)}`);
    });
  });

  // Before the timers start: a port in use must leave nothing running.
  await listen(server, opts.port ?? 0, host);
  const stopProgress = liveProgress(stores, opts.pollMs ?? 1000, opts.heartbeatMs ?? 15_000);

  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/`,
    close: async () => {
      stopProgress();
      await Promise.all([queries?.close(), reportBuilder?.close()]);
      for (const entry of stores) {
        for (const c of entry.clients) c.end();
        entry.clients.clear();
        entry.reader.close();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Each store's report (in the report worker when there is one), rebuilt only once the store has
 * changed since the last build.
 */
function storeReports(
  protocols: ViewerOptions['protocols'],
  reportBuilder: WorkerClient | undefined,
): (entry: StoreEntry) => Promise<string> {
  const buildHtml = async (path: string): Promise<string> => {
    if (reportBuilder) return reportBuilder.request<string>({ path });
    await loadCharting();
    return readStore(path, (store) => renderReport(buildReport(store, protocols), 'html', protocols));
  };
  return (entry) => {
    const version = entry.reader.version();
    if (entry.report && entry.report.version === version) return entry.report.html;
    const html = buildHtml(entry.path);
    const report = { version, html };
    entry.report = report;
    // A failed build is not kept: the next request tries again.
    html.catch(() => {
      if (entry.report === report) entry.report = undefined;
    });
    return html;
  };
}

/**
 * Each store's progress pushed to its page's event streams when it changes (polled), and a
 * keep-alive between; returns what stops both.
 */
function liveProgress(stores: readonly StoreEntry[], pollMs: number, heartbeatMs: number): () => void {
  const poll = setInterval(() => {
    for (const entry of stores) {
      if (entry.clients.size === 0) continue;
      const before = entry.last;
      const now = snapshot(entry);
      if (now !== before) for (const c of entry.clients) c.write(event(now));
    }
  }, pollMs);
  const heartbeat = setInterval(() => {
    for (const entry of stores) for (const c of entry.clients) c.write(': keep-alive\n\n');
  }, heartbeatMs);
  return () => {
    clearInterval(poll);
    clearInterval(heartbeat);
  };
}

/** One request to the viewer. */
interface ViewExchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/** What the viewer's routes serve: its stores and report files, and how reports and transcript pages are made. */
interface ViewerState {
  stores: readonly StoreEntry[];
  reports: readonly string[];
  reportOf: (entry: StoreEntry) => Promise<string>;
  pageOf: (q: TranscriptQuery) => Promise<TranscriptPage>;
}

async function handle(
  routes: RouteTable<ViewExchange>,
  loopbackOnly: boolean,
  stores: readonly StoreEntry[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (loopbackOnly && !isLoopbackHost(hostName(req.headers.host)))
    return text(res, 403, 'not a loopback Host');
  const path = new URL(req.url ?? '/', 'http://viewer').pathname;
  // The labelling page and its one write (labelling.ts, docs/judges.md#labelling-page).
  if (
    await handleLabelling(
      req,
      res,
      path,
      stores.map((s) => s.path),
    )
  )
    return;
  const found = routes.find(req.method ?? 'GET', path);
  if ('handle' in found) return found.handle({ req, res });
  if (found.status === 404) return text(res, 404, 'not found');
  res.setHeader('Allow', found.allow.join(', '));
  return text(res, 405, 'only GET and HEAD');
}

/** The index, the report files, and each store's page, report, progress (JSON and events) and transcripts. */
function viewerRoutes(v: ViewerState): RouteTable<ViewExchange> {
  /**
   * A route under `/stores/N`: the store's entry and the path it is served under. A store that
   * cannot be read is answered 503 with why, and shown so on the index and its page.
   */
  const onStore =
    (serve: (x: ViewExchange, entry: StoreEntry, base: string) => Promise<void> | void) =>
    async (x: ViewExchange, params: PathParams) => {
      const entry = v.stores[indexOf(params.n)];
      if (!entry) return text(x.res, 404, 'not found');
      try {
        return await serve(x, entry, `/stores/${params.n}`);
      } catch (e) {
        throw entry.reader.failure(e) ?? e;
      }
    };
  return new RouteTable<ViewExchange>(
    [
      { method: 'GET', path: '/', handle: ({ res }) => indexHtml(res, v) },
      {
        method: 'GET',
        path: '/reports/:n',
        handle: ({ res }, p) => reportFile(res, v.reports[indexOf(p.n)]),
      },
      {
        method: 'GET',
        path: '/stores/:n',
        handle: onStore(({ res }, entry, base) => storeHtml(res, entry, base)),
      },
      {
        method: 'GET',
        path: '/stores/:n/progress',
        handle: onStore(({ res }, entry) => {
          const p = entry.reader.progress();
          send(
            res,
            p.state === 'unreadable' ? 503 : 200,
            'application/json; charset=utf-8',
            JSON.stringify(p),
          );
        }),
      },
      {
        method: 'GET',
        path: '/stores/:n/events',
        handle: onStore(({ req, res }, entry) => subscribe(entry, req, res)),
      },
      {
        method: 'GET',
        path: '/stores/:n/report',
        handle: onStore(async ({ res }, entry) => {
          if (!existsSync(entry.path)) return text(res, 404, 'no store file yet');
          return send(res, 200, 'text/html; charset=utf-8', await v.reportOf(entry), REPORT_CSP);
        }),
      },
      {
        method: 'GET',
        path: '/stores/:n/transcripts',
        handle: onStore(({ req, res }, entry, base) => transcriptsHtml(req, res, v, entry, base)),
      },
    ],
    { headAsGet: true },
  );
}

/** A store or report by its place in its list (`/stores/0`); NaN, which names none, when not digits. */
function indexOf(n: string | undefined): number {
  return n !== undefined && /^\d+$/.test(n) ? Number(n) : Number.NaN;
}

function indexHtml(res: ServerResponse, v: ViewerState): void {
  const nonce = newNonce();
  html(
    res,
    indexPage(
      nonce,
      v.stores.map((s, i) => ({ href: `/stores/${i}`, name: basename(s.path), note: storeNote(s) })),
      v.reports.map((r, i) => ({ href: `/reports/${i}`, name: basename(r), note: r })),
    ),
    pageCsp(nonce),
  );
}

/**
 * What the index says of a store beside its path: how many runs, cells written and when it last
 * ran; or why it cannot be read.
 */
function storeNote(entry: StoreEntry): string {
  const problem = entry.reader.problem();
  if (problem) return `cannot be read: ${problem.reason} · ${entry.path}`;
  const runs = entry.reader.runs();
  if (runs.length === 0) return `no runs yet · ${entry.path}`;
  const last = runs
    .map((r) => r.startedAt)
    .sort()
    .at(-1) as string;
  const cells = runs.reduce((n, r) => n + r.cells, 0);
  return `${runs.length} run${runs.length === 1 ? '' : 's'} · ${cells} cells · last ${last.slice(0, 16).replace('T', ' ')} · ${entry.path}`;
}

function reportFile(res: ServerResponse, file: string | undefined): void {
  if (!file) text(res, 404, 'no such report');
  else if (!existsSync(file)) text(res, 404, 'the report file is gone');
  // Read on each request: a report rewritten by `waver report` shows at once.
  else send(res, 200, contentType(file), readFileSync(file), REPORT_CSP);
}

function storeHtml(res: ServerResponse, entry: StoreEntry, base: string): void {
  const nonce = newNonce();
  const name = basename(entry.path);
  const problem = entry.reader.problem();
  if (problem) {
    send(res, 503, HTML, unreadableStorePage(nonce, { name, problem: problem.format() }), pageCsp(nonce));
    return;
  }
  html(res, storePage(nonce, { name, base, runs: entry.reader.runs() }), pageCsp(nonce));
}

async function transcriptsHtml(
  req: IncomingMessage,
  res: ServerResponse,
  v: ViewerState,
  entry: StoreEntry,
  base: string,
): Promise<void> {
  const query = transcriptQueryOf(entry.path, new URL(req.url ?? '/', 'http://viewer').searchParams);
  const nonce = newNonce();
  const page = await v.pageOf(query);
  html(res, transcriptsPage(nonce, { name: basename(entry.path), base, query, page }), pageCsp(nonce));
}

function subscribe(entry: StoreEntry, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-store',
    Connection: 'keep-alive',
    'X-Content-Type-Options': 'nosniff',
  });
  res.write('retry: 2000\n\n');
  entry.clients.add(res);
  // The current state at once, then only changes.
  res.write(event(snapshot(entry)));
  req.on('close', () => entry.clients.delete(res));
}

function snapshot(entry: StoreEntry): string {
  let p: RunProgress;
  try {
    p = entry.reader.progress();
  } catch (e) {
    // A store being created (tables half made) or replaced: report and retry at the next poll.
    p = { state: 'empty', total: 0, done: 0, failed: 0, pending: 0, writtenThisRun: 0, models: [] };
    const message = `waver view: reading ${entry.path}: ${(e as Error).message}`;
    if (entry.lastError !== message) process.stderr.write(`${message}\n`);
    entry.lastError = message;
    entry.last = JSON.stringify(p);
    return entry.last;
  }
  entry.lastError = undefined;
  const json = JSON.stringify(p);
  entry.last = json;
  return json;
}

/**
 * A served report is held to the report's own policy by header too (the same string as its meta
 * tag), and sandboxed: its scripts run (its charts and tables need them) at an opaque origin, so
 * nothing in a report file, which anyone may have written, can read the viewer's pages or call
 * its API (the labelling write refuses origin `null`). No `allow-same-origin`, no popups, no forms.
 */
const REPORT_CSP = `${CSP}; sandbox allow-scripts`;

function event(json: string): string {
  return `event: progress\ndata: ${json}\n\n`;
}

function newNonce(): string {
  return randomBytes(16).toString('base64');
}

function contentType(file: string): string {
  switch (extname(file).toLowerCase()) {
    case '.html':
    case '.htm':
      return 'text/html; charset=utf-8';
    case '.json':
      return 'application/json; charset=utf-8';
    case '.csv':
      return 'text/csv; charset=utf-8';
    case '.md':
      return 'text/markdown; charset=utf-8';
    default:
      return 'text/plain; charset=utf-8';
  }
}

const HTML = 'text/html; charset=utf-8';

function html(res: ServerResponse, body: string, csp: string): void {
  send(res, 200, HTML, body, csp);
}

function text(res: ServerResponse, status: number, body: string): void {
  send(res, status, 'text/plain; charset=utf-8', `${body}\n`);
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  csp = "default-src 'none'",
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
