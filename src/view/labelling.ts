import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { InputError } from '../errors.js';
import { HttpError } from '../http/http-error.js';
import { readBody } from '../http/request-body.js';
import { onRubric, rubricOf } from '../judge/labels.js';
import { openStore, readStore, type Store, storeFailure } from '../store/store.js';
import { labellingPage } from './label-page.js';
import { pageCsp } from './pages.js';

/**
 * The labelling page's routes in `waver view` (docs/judges.md#labelling-page), under a store's
 * path: `GET /stores/N/label` (the page), `GET /stores/N/label/data?set=&rater=` (the set's items
 * and that rater's labels so far, so a labeller resumes where they stopped) and
 * `POST /stores/N/label/save` (one label, written at once). The one write the viewer makes: it is
 * refused unless it is JSON from the viewer's own page (a page elsewhere cannot send JSON to it
 * without a CORS preflight, which the viewer never grants, and a browser names its origin).
 */

const ROUTE = /^\/stores\/(\d+)\/label(\/data|\/save)?$/;
const MAX_BODY = 64 * 1024;

/** Handles the request when it is one of the labelling routes; false when it is not. */
export async function handleLabelling(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  stores: readonly string[],
): Promise<boolean> {
  const m = ROUTE.exec(path);
  if (!m) return false;
  const file = stores[Number(m[1])];
  if (file === undefined) return reply(res, 404, { error: 'no such store' });
  const url = new URL(req.url ?? '/', 'http://viewer');
  if (m[2] === '/save') {
    if (req.method !== 'POST') return reply(res, 405, { error: 'POST only' });
    return unlessUnreadable(res, file, () => save(req, res, file));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, { error: 'GET only' });
  if (m[2] === undefined) {
    const nonce = randomBytes(16).toString('base64');
    const body = labellingPage(nonce, { name: basename(file), base: `/stores/${m[1]}`, store: file });
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': pageCsp(nonce),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }
  if (!existsSync(file)) return reply(res, 404, { error: 'no store file yet' });
  return unlessUnreadable(res, file, () => readStore(file, (store) => data(res, store, url)));
}

/**
 * Runs a labelling route over its store: one that cannot be read (damaged, not a store) is
 * answered 503 with why, as the viewer's other routes answer it.
 */
async function unlessUnreadable(
  res: ServerResponse,
  file: string,
  route: () => Promise<true> | true,
): Promise<true> {
  try {
    return await route();
  } catch (e) {
    const failure = e instanceof InputError ? e : storeFailure(e, file);
    if (failure?.file !== file) throw e;
    return reply(res, 503, { error: failure.format() });
  }
}

/** The set's items and the rater's labels so far, so a labeller resumes where they stopped. */
function data(res: ServerResponse, store: Store, url: URL): true {
  const sets = store.labels.sets().map((s) => s.name);
  const name = url.searchParams.get('set') || sets[0];
  const rater = (url.searchParams.get('rater') ?? '').trim();
  const set = name === undefined ? undefined : store.labels.set(name);
  if (!set) return reply(res, 200, { sets, set: null, labels: [] });
  const labels = rater === '' ? [] : store.labels.of(set.name).filter((l) => l.rater === rater);
  return reply(res, 200, {
    sets,
    set: {
      name: set.name,
      // What the labeller sees: the judges' verdicts stay out, so they do not lead the label.
      items: set.items.map((i) => ({
        id: i.id,
        task: i.task,
        strata: i.strata,
        item: i.item,
        response: i.response,
        rubric: i.rubric,
      })),
    },
    labels: labels.map((l) => ({ item: l.item, label: l.label, notes: l.notes ?? '' })),
  });
}

async function save(req: IncomingMessage, res: ServerResponse, file: string): Promise<true> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
  if (type !== 'application/json') return reply(res, 415, { error: 'a label is sent as application/json' });
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`)
    return reply(res, 403, { error: 'labels are saved from the viewer’s own page only' });
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin')
    return reply(res, 403, { error: 'labels are saved from the viewer’s own page only' });
  const text = await bodyText(req);
  if (text === undefined) {
    // Answered, then the connection closed: the rest of the body is never read.
    res.setHeader('Connection', 'close');
    return reply(res, 413, { error: `a label body is at most ${MAX_BODY} bytes` });
  }
  let body: { set?: unknown; item?: unknown; rater?: unknown; label?: unknown; notes?: unknown };
  try {
    body = JSON.parse(text);
  } catch (e) {
    return reply(res, 400, { error: `not JSON: ${(e as Error).message}` });
  }
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const [setName, item, rater, label] = [str(body.set), str(body.item), str(body.rater), str(body.label)];
  if (!setName || !item || !rater || !label)
    return reply(res, 400, { error: 'set, item, rater and label are needed' });
  if (!existsSync(file)) return reply(res, 404, { error: 'no store file' });
  const store = openStore(file);
  try {
    const set = store.labels.set(setName);
    const stored = set?.items.find((i) => i.id === item);
    if (!stored) return reply(res, 400, { error: `no item ${item} in the labelling set ${setName}` });
    const value = onRubric(rubricOf(stored), label);
    if (value === undefined) return reply(res, 400, { error: `label ${label} is not on the rubric` });
    const notes = str(body.notes);
    store.labels.save([{ set: setName, item, rater, label: value, ...(notes && { notes }), source: 'view' }]);
    return reply(res, 200, { ok: true, item, label: value });
  } finally {
    store.close();
  }
}

/** The body as text, or undefined when it is over MAX_BODY bytes (declared or sent). */
async function bodyText(req: IncomingMessage): Promise<string | undefined> {
  try {
    return (await readBody(req, MAX_BODY)).toString('utf8');
  } catch (e) {
    if (e instanceof HttpError && e.status === 413) return undefined;
    throw e;
  }
}

function reply(res: ServerResponse, status: number, value: unknown): true {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Content-Security-Policy': "default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
  return true;
}
