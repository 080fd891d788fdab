import type { RunWithCells } from '../store/store.js';

/**
 * The viewer's own pages: an index and a page per store with its runs and a live progress panel.
 * Self-contained like the report: no external asset, inline CSS and one inline script allowed by a
 * per-response nonce. Every value from the store is escaped, and the script writes with
 * textContent only, so a model label or run id can never become markup.
 */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The viewer's CSP: nothing from outside; scripts and styles only with this response's nonce; SSE to itself. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d2125}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccd;padding:.25rem .5rem;text-align:left}
th{background:#f3f4f8}code{font-size:12px}.bar{height:12px;background:#e4e6ee;border-radius:6px;overflow:hidden;width:24rem}
.bar>div{height:100%;background:#3a7bd5;width:0}.muted{color:#667}`;

function page(title: string, nonce: string, body: string, script = ''): string {
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
  return page(
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
<p><a href="${escapeHtml(`${opts.base}/report`)}">HTML report</a> · <a href="${escapeHtml(`${opts.base}/label`)}">label judged items</a> · <a href="/">all stores</a></p>
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
  return page(`waver view: ${opts.name}`, nonce, body, script);
}
