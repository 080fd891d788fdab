import type { RunWithCells } from '../store/store.js';
import type { TranscriptPage, TranscriptQuery } from './transcripts.js';

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
 * to itself; forms (the transcript filters, GET) only to itself.
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

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d2125}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccd;padding:.25rem .5rem;text-align:left}
th{background:#f3f4f8}code{font-size:12px}.bar{height:12px;background:#e4e6ee;border-radius:6px;overflow:hidden;width:24rem}
.bar>div{height:100%;background:#3a7bd5;width:0}.muted{color:#667}
pre{white-space:pre-wrap;margin:.25rem 0;font-size:12px}td.failed{color:#a02020}form>*{margin-right:.5rem}`;

function htmlPage(title: string, nonce: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
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
    `<h1>waver view</h1><h2>Stores</h2>${list(stores)}<h2>Reports</h2>${list(reports)}`,
  );
}

/** A store: live progress of its latest run (updated by Server-Sent Events) and its runs. */
export function storePage(nonce: string, opts: { name: string; base: string; runs: RunWithCells[] }): string {
  const rows = opts.runs
    .map(
      (r) =>
        `<tr><td><code>${escapeHtml(r.id.slice(0, 8))}</code></td><td>${escapeHtml(r.suiteName ?? '—')} <code>${escapeHtml((r.suiteHash ?? '').slice(0, 12))}</code></td><td>${escapeHtml(r.status)}</td><td>${escapeHtml(r.startedAt)}</td><td>${escapeHtml(r.finishedAt ?? '—')}</td><td>${r.cells}</td></tr>`,
    )
    .join('');
  const body = `<h1>${escapeHtml(opts.name)}</h1>
<p><a href="${escapeHtml(`${opts.base}/report`)}">HTML report</a> · <a href="${escapeHtml(`${opts.base}/transcripts`)}">every cell</a> · <a href="${escapeHtml(`${opts.base}/label`)}">label judged items</a> · <a href="/">all stores</a></p>
<h2>Latest run</h2>
<p id="run" class="muted">connecting…</p>
<div class="bar"><div id="bar"></div></div>
<p id="counts"></p>
<table><thead><tr><th>model</th><th>done</th><th>failed</th><th>pending</th><th>of</th></tr></thead><tbody id="models"></tbody></table>
<h2>Runs</h2>
<table><thead><tr><th>run</th><th>suite</th><th>status</th><th>started</th><th>finished</th><th>cells written</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6" class="muted">no run yet</td></tr>'}</tbody></table>`;
  // textContent only: nothing received is parsed as HTML.
  const script = `
const $ = (id) => document.getElementById(id);
const es = new EventSource(${JSON.stringify(`${opts.base}/events`)});
es.addEventListener('progress', (e) => {
  const p = JSON.parse(e.data);
  if (p.state === 'missing') { $('run').textContent = 'no store file yet: waiting for a run to create it'; return; }
  if (p.state === 'empty' || !p.run) { $('run').textContent = 'no run yet'; return; }
  const r = p.run;
  $('run').textContent = 'run ' + r.id.slice(0, 8) + ' · ' + (r.suiteName || 'suite') + ' ' + (r.suiteHash || '').slice(0, 12) + ' · ' + r.status + ' · started ' + r.startedAt + (r.finishedAt ? ' · finished ' + r.finishedAt : '');
  const pct = p.share === undefined ? 0 : 100 * p.share;
  $('bar').style.width = pct.toFixed(1) + '%';
  $('counts').textContent = p.done + ' done, ' + p.failed + ' failed, ' + p.pending + ' pending of ' + p.total + ' cells (' + pct.toFixed(1) + '%); ' + p.writtenThisRun + ' written by this run';
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
es.onerror = () => { $('run').textContent = 'disconnected: retrying…'; };`;
  return htmlPage(`waver view: ${opts.name}`, nonce, body, script);
}

/**
 * Every cell of a store a page at a time (transcripts.ts): a GET form of filters (suite, model,
 * status, text) and the page's cells with their prompt and response. No script: each page is one
 * indexed query on the server, and the next page is a link.
 */
export function transcriptsPage(
  nonce: string,
  opts: { name: string; base: string; query: TranscriptQuery; page: TranscriptPage },
): string {
  const { page, query } = opts;
  const e = escapeHtml;
  const option = (value: string, label: string, selected: boolean) =>
    `<option value="${e(value)}"${selected ? ' selected' : ''}>${e(label)}</option>`;
  const suite = page.suite?.hash ?? '';
  const form = `<form method="get" action="${e(`${opts.base}/transcripts`)}">
<select name="suite" aria-label="suite">${page.suites.map((s) => option(s.hash, `${s.name} ${s.hash.slice(0, 12)} (${s.cells} cells)`, s.hash === suite)).join('')}</select>
<select name="model" aria-label="model">${option('', 'every model', !query.model)}${page.models.map((m) => option(m.identity, m.label, m.identity === query.model)).join('')}</select>
<select name="status" aria-label="status">${option('', 'done or failed', !query.status)}${option('done', 'done', query.status === 'done')}${option('failed', 'failed', query.status === 'failed')}</select>
<input type="search" name="q" value="${e(query.q ?? '')}" placeholder="text in the prompt or response" aria-label="search">
<button type="submit">show</button></form>`;
  const rows = page.rows
    .map(
      (r) =>
        `<tr><td>${e(r.model)}</td><td><code>${e(r.test)}</code></td><td>${r.repeat}</td><td class="${r.status}">${r.status}</td><td>${r.system !== undefined ? `<pre class="muted">${e(r.system)}</pre>` : ''}<pre>${e(r.prompt ?? '')}</pre></td><td><pre>${e(r.response ?? r.error ?? '')}</pre></td></tr>`,
    )
    .join('');
  const params = new URLSearchParams();
  if (suite) params.set('suite', suite);
  if (query.model) params.set('model', query.model);
  if (query.status) params.set('status', query.status);
  if (query.q) params.set('q', query.q);
  const first = `${opts.base}/transcripts?${params}`;
  if (page.next) params.set('after', page.next);
  const nav = [
    query.after ? `<a href="${e(first)}">first page</a>` : '',
    page.next
      ? `<a id="next" href="${e(`${opts.base}/transcripts?${params}`)}">${query.q && page.rows.length < 50 ? 'search on' : 'next page'}</a>`
      : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const body = `<h1>${e(opts.name)}: every cell</h1>
<p><a href="${e(opts.base)}">the store</a> · <a href="${e(`${opts.base}/report`)}">HTML report</a></p>
${form}
<p class="muted">${page.counts.done} done and ${page.counts.failed} failed cells in this suite${query.model ? ' for this model' : ''}; ${page.rows.length} shown${query.q ? ` that hold the text, of ${page.scanned} cells looked at (a search looks at ${page.next ? 'a part of the suite a page: the next page goes on' : 'the rest of the suite'})` : ''}, in the order of model, test id and repeat (read in ${page.ms.toFixed(0)} ms). Full texts: <code>waver export</code>.</p>
<table><thead><tr><th>model</th><th>test</th><th>repeat</th><th>status</th><th>prompt</th><th>response or error</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6" class="muted">no cell</td></tr>'}</tbody></table>
<p>${nav}</p>`;
  return htmlPage(`waver view: ${opts.name} cells`, nonce, body);
}
