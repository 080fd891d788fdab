import { CLIENT_JS } from '../report/html/client.js';
import { embedJson } from '../report/html/payload.js';
import { CSS as REPORT_CSS } from '../report/html/style.js';
import { transcriptBrowserHtml } from '../report/html/transcript-browser.js';
import type { RunWithCells } from '../store/store.js';
import { PAGE_SIZE, type TranscriptPage, type TranscriptQuery } from './transcripts.js';

/**
 * The viewer's own pages: an index and a page per store with its runs and a live progress panel.
 * Self-contained like the report: no external asset, inline CSS and one inline script allowed by a
 * per-response nonce. Every value from the store is escaped, and the script writes with
 * textContent only, so a model label or run id can never become markup.
 */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The viewer's CSP: nothing from outside; scripts and styles only with this response's nonce; SSE
 * and the labelling page's writes to itself; forms only to itself.
 */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The viewer's pages look like the report (its stylesheet), with its progress bar besides. */
export const VIEW_CSS = `${REPORT_CSS}
.bar{height:12px;background:#e4e6ee;border-radius:6px;overflow:hidden;max-width:24rem}
.bar>div{height:100%;background:#3a7bd5;width:0}`;

function htmlPage(title: string, nonce: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${VIEW_CSS}</style></head>
<body>${body}${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>
`;
}

export interface IndexEntry {
  href: string;
  name: string;
  note: string;
}

export function indexPage(nonce: string, stores: IndexEntry[], reports: IndexEntry[]): string {
  const list = (entries: IndexEntry[]) =>
    entries.length === 0
      ? '<p class="muted">none</p>'
      : `<ul>${entries.map((e) => `<li><a href="${escapeHtml(e.href)}">${escapeHtml(e.name)}</a> <span class="muted">${escapeHtml(e.note)}</span></li>`).join('')}</ul>`;
  return htmlPage(
    'waver view',
    nonce,
    `<header><h1>waver view</h1><p>Stores and reports this viewer serves.</p></header><main><section><h2>Stores</h2>${list(stores)}</section><section><h2>Reports</h2>${list(reports)}</section></main>`,
  );
}

/** A store that cannot be read (damaged, not a store): why, and nothing of it. */
export function unreadableStorePage(nonce: string, opts: { name: string; problem: string }): string {
  const e = escapeHtml;
  return htmlPage(
    `waver view: ${opts.name}`,
    nonce,
    `<header><h1>${e(opts.name)}</h1><p>This store cannot be read.</p></header>
<nav><a href="/">All stores</a></nav>
<main><section><p id="problem">${e(opts.problem)}</p><p class="muted">The viewer reads it again once its file changes.</p></section></main>`,
  );
}

/** The report's anchor of a protocol suite's section (report-data.ts: `<protocol>-<hash8>`). */
function sectionAnchor(suiteName: string | undefined, hash: string | undefined): string | undefined {
  const m = suiteName && /^([a-z][a-z0-9-]*)\//.exec(suiteName);
  return m && hash ? `${m[1]}-${hash.slice(0, 8)}` : undefined;
}

/**
 * A store: live progress of its latest run (updated by Server-Sent Events) and its runs, each
 * linked to its eval in the report (which opens on every eval's scores) and to its cells.
 */
export function storePage(nonce: string, opts: { name: string; base: string; runs: RunWithCells[] }): string {
  // The page's own values reach the script as constants ahead of it, JSON-encoded.
  const script = `
const eventsUrl = ${JSON.stringify(`${opts.base}/events`)};
const reportUrl = ${JSON.stringify(`${opts.base}/report`)};${STORE_JS}`;
  return htmlPage(`waver view: ${opts.name}`, nonce, storeBody(opts), script);
}

function storeBody(opts: { name: string; base: string; runs: RunWithCells[] }): string {
  const e = escapeHtml;
  const report = `${opts.base}/report`;
  return `<header><h1>${e(opts.name)}</h1><p>A store of waver runs: the report has every eval's scores, with their intervals, first.</p></header>
<nav><a href="${e(report)}">Report: evals and scores</a><a href="${e(`${opts.base}/transcripts`)}">Transcripts: every cell</a><a href="${e(`${opts.base}/label`)}">Label judged items</a><a href="/">All stores</a></nav>
<main>
<section><h2>Evals</h2><p id="scores-note" class="muted">reading the report…</p>
<div class="table-wrap"><table id="scores" hidden><thead><tr><th>eval</th><th>model</th><th>headline</th><th>protocol</th><th>dataset (licence)</th><th>cells</th><th>last run</th></tr></thead><tbody></tbody></table></div></section>
<section><h2>Latest run</h2>
<p id="run" class="muted">connecting…</p>
<div class="bar"><div id="bar"></div></div>
<p id="counts"></p>
<div class="table-wrap"><table><thead><tr><th>model</th><th class="num">done</th><th class="num">failed</th><th class="num">pending</th><th class="num">of</th></tr></thead><tbody id="models"></tbody></table></div></section>
<section><h2>Runs</h2><p class="lede">Click a run for its cells, a suite for its eval in the report.</p>
<div class="table-wrap"><table id="runs"><thead><tr><th>run</th><th>suite</th><th>status</th><th>started</th><th>finished</th><th class="num">cells written</th></tr></thead>
<tbody>${opts.runs.map((r) => runRow(r, opts.base)).join('') || '<tr><td colspan="6" class="muted">no run yet</td></tr>'}</tbody></table></div></section>
</main>`;
}

/** A run's row: its id linked to its cells, its suite to its eval in the report. */
function runRow(r: RunWithCells, base: string): string {
  const e = escapeHtml;
  const anchor = sectionAnchor(r.suiteName, r.suiteHash);
  const report = `${base}/report`;
  const cells = `${base}/transcripts?${new URLSearchParams(r.suiteHash ? { suite: r.suiteHash } : {})}`;
  return `<tr data-run="${e(r.id)}"><td><a href="${e(cells)}"><code>${e(r.id.slice(0, 8))}</code></a></td><td>${anchor ? `<a href="${e(`${report}#${anchor}`)}">${e(r.suiteName ?? '—')}</a>` : e(r.suiteName ?? '—')} <code>${e((r.suiteHash ?? '').slice(0, 12))}</code></td><td data-f="status">${e(r.status)}</td><td>${e(r.startedAt)}</td><td data-f="finished">${e(r.finishedAt ?? '—')}</td><td class="num" data-f="cells">${r.cells}</td></tr>`;
}

/**
 * The store page's script (plain ES2020 in a string, as the report's client.ts is), after the
 * constants `eventsUrl` and `reportUrl`: it writes with textContent only, so nothing received is
 * parsed as HTML.
 */
const STORE_JS = `
const $ = (id) => document.getElementById(id);
const es = new EventSource(eventsUrl);
es.addEventListener('progress', (e) => {
  const p = JSON.parse(e.data);
  if (p.state === 'missing') { $('run').textContent = 'no store file yet: waiting for a run to create it'; return; }
  if (p.state === 'unreadable') { $('run').textContent = 'the store cannot be read: ' + p.error; return; }
  if (p.state === 'empty' || !p.run) { $('run').textContent = 'no run yet'; return; }
  const r = p.run;
  $('run').textContent = 'run ' + r.id.slice(0, 8) + ' · ' + (r.suiteName || 'suite') + ' ' + (r.suiteHash || '').slice(0, 12) + ' · ' + r.status + ' · started ' + r.startedAt + (r.finishedAt ? ' · finished ' + r.finishedAt : '');
  const pct = p.share === undefined ? 0 : 100 * p.share;
  $('bar').style.width = pct.toFixed(1) + '%';
  $('counts').textContent = p.done + ' done, ' + p.failed + ' failed, ' + p.pending + ' pending of ' + p.total + ' cells (' + pct.toFixed(1) + '%); ' + p.writtenThisRun + ' written by this run';
  // The runs table follows the counter: the latest run's row (added when it is new).
  let row = Array.from(document.querySelectorAll('#runs tr[data-run]')).find((tr) => tr.dataset.run === r.id);
  if (!row) {
    row = document.createElement('tr');
    row.dataset.run = r.id;
    for (const [f, v] of [['', r.id.slice(0, 8)], ['', (r.suiteName || '—') + ' ' + (r.suiteHash || '').slice(0, 12)], ['status', ''], ['', r.startedAt], ['finished', ''], ['cells', '']]) {
      const td = document.createElement('td');
      if (f) td.dataset.f = f;
      td.textContent = v;
      row.appendChild(td);
    }
    const body = document.querySelector('#runs tbody');
    if (body.querySelector('td[colspan]')) body.replaceChildren();
    body.appendChild(row);
  }
  row.querySelector('[data-f=status]').textContent = r.status;
  row.querySelector('[data-f=finished]').textContent = r.finishedAt || '—';
  row.querySelector('[data-f=cells]').textContent = String(p.writtenThisRun);
  const body = $('models');
  body.replaceChildren();
  for (const m of p.models) {
    const tr = document.createElement('tr');
    for (const v of [m.label, m.done, m.failed, m.pending, m.total]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
});
es.onerror = () => { $('run').textContent = 'disconnected: retrying…'; };
// The scores: the report's index of evals (docs/report.md#index), read from the report this viewer
// serves and copied a node at a time: text as text, a few plain tags, links into the report only
// (nothing of it is taken as markup).
const KEEP = { STRONG: 1, SPAN: 1, DIV: 1, BR: 1, A: 1, ABBR: 1 };
function copyNode(n) {
  if (n.nodeType === 3) return document.createTextNode(n.textContent);
  if (n.nodeType !== 1 || !KEEP[n.tagName]) return document.createTextNode(n.textContent || '');
  const e = document.createElement(n.tagName.toLowerCase());
  if (n.tagName === 'A') {
    const anchor = (n.getAttribute('href') || '').slice(1);
    if (!/^[A-Za-z0-9-]+$/.test(anchor)) return document.createTextNode(n.textContent);
    e.href = reportUrl + '#' + anchor;
  }
  if (n.getAttribute('title')) e.title = n.getAttribute('title');
  for (const c of ['muted', 'na', 'model', 'figure', 'fig']) if (n.classList.contains(c)) e.classList.add(c);
  n.childNodes.forEach((c) => e.appendChild(copyNode(c)));
  return e;
}
fetch(reportUrl).then((r) => r.ok ? r.text() : Promise.reject(new Error('HTTP ' + r.status))).then((html) => {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const rows = doc.querySelectorAll('#index tbody tr');
  const body = document.querySelector('#scores tbody');
  for (const tr of rows) {
    const out = document.createElement('tr');
    if (tr.className === 'verdict') out.className = 'verdict';
    tr.querySelectorAll('td').forEach((td) => {
      const cell = document.createElement('td');
      if (td.colSpan > 1) cell.colSpan = td.colSpan;
      td.childNodes.forEach((c) => cell.appendChild(copyNode(c)));
      out.appendChild(cell);
    });
    body.appendChild(out);
  }
  $('scores').hidden = rows.length === 0;
  $('scores-note').textContent = rows.length === 0 ? 'no protocol suite in this store yet' : 'From the report: each eval, a row per model with its headline figures and their intervals, then which model is more accurate and how sure.';
}).catch((err) => { $('scores-note').textContent = 'the report could not be read: ' + err.message; });`;

/**
 * Every cell of a store a page at a time (transcripts.ts), in the report's own transcript browser
 * (transcript-browser.ts and its script): the same filters, outcomes, detail, diff and comparison,
 * over the page the viewer read; a filter or the pager asks for another page.
 */
export function transcriptsPage(
  nonce: string,
  opts: { name: string; base: string; query: TranscriptQuery; page: TranscriptPage },
): string {
  const { page } = opts;
  const e = escapeHtml;
  const url = `${opts.base}/transcripts`;
  const params = new URLSearchParams();
  const f = page.query;
  for (const k of ['suite', 'protocol', 'model', 'family', 'level', 'outcome', 'flipped', 'q'] as const) {
    const v = f[k];
    if (v) params.set(k, v);
  }
  if (f.compare) {
    params.set('cmp', '1');
    params.set('a', f.compare.a);
    params.set('b', f.compare.b);
    if (f.compare.differ) params.set('differ', '1');
  }
  const first = `${url}?${params}`;
  if (page.next) params.set('after', page.next);
  const data = {
    ...page.payload,
    paged: {
      base: url,
      query: f,
      options: page.options,
      rows: page.rows,
      first: page.first,
      ...(page.total !== undefined && { total: page.total }),
      cells: page.cells,
      scanned: page.scanned,
      more: page.next !== undefined,
    },
  };
  const intro = `<p class="lede">Every cell of this store, scored as the report scores it, ${PAGE_SIZE} a page read from the store as you go: the report's own browser, with its filters, outcomes, diff and comparison. A cell's detail opens above the table; texts longer than a page holds are cut (full texts: <code>waver export</code>).</p>`;
  const body = `<header><h1>${e(opts.name)}: transcripts</h1><p>Every cell of the store, with its outcome, a page at a time (this page read in ${page.ms.toFixed(0)} ms).</p></header>
<nav><a href="${e(opts.base)}">The store</a><a href="${e(`${opts.base}/report`)}">Report: evals and scores</a><a href="/">All stores</a></nav>
<main>
${transcriptBrowserHtml({ intro, paged: { ...(opts.query.after && { first }), ...(page.next && { next: `${url}?${params}` }) } })}
</main>
<script type="application/json" id="waver-data">${embedJson(data)}</script>`;
  return htmlPage(`waver view: ${opts.name} transcripts`, nonce, body, CLIENT_JS);
}
