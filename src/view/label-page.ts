import { escapeHtml, VIEW_CSS } from './pages.js';

/**
 * The labelling page (docs/judges.md#labelling-page): one judged item at a time — what was asked,
 * the response, the rubric — labelled by clicking a label or with the keyboard alone. Keys: 1..k (or a label's letter,
 * p/f for a gate) label the item, which is saved at once and the next unlabelled item shown; the
 * arrows move back and forth; `/` writes a note, Escape leaves it (saved with the label). A
 * labeller gives their name once (kept in the URL and the browser) and resumes where they
 * stopped. Everything from the store is written with textContent, never parsed as HTML.
 */

const STYLE = `${VIEW_CSS}
main{max-width:60rem}
pre{max-height:22rem;overflow:auto}
.rubric{list-style:none;padding:0}.rubric li{margin:.3rem 0}
.rubric button{font:inherit;text-align:left;width:100%;padding:.35rem .6rem;border:1px solid var(--line);border-radius:6px;background:#fff;cursor:pointer}
.rubric button:hover,.rubric button:focus{background:#eef2ff}
.rubric li.chosen button{background:#dfe9fb;outline:2px solid #3a7bd5}
kbd{border:1px solid #aab;border-bottom-width:2px;border-radius:3px;padding:0 .3rem;font-size:12px;background:#fff}
textarea{width:100%;min-height:3rem;font:inherit}#status{min-height:1.4rem}
#done{background:#ecfdf5;border-left:4px solid #10b981;padding:6px 10px}`;

export function labellingPage(nonce: string, opts: { name: string; base: string; store: string }): string {
  // The page's own values reach the script as constants ahead of it, JSON-encoded.
  const script = `
const base = ${JSON.stringify(opts.base)};
const storeName = ${JSON.stringify(opts.name)};${LABELLING_JS}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>waver view: label ${escapeHtml(opts.name)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body>${labellingBody(opts)}<script nonce="${nonce}">${script}</script></body></html>
`;
}

/** The command that makes a labelling set of this store (docs/judges.md), quoted for a shell when it must be. */
export function sampleCommand(store: string): string {
  const arg = /^[\w./:@%+,=-]+$/.test(store) ? store : `'${store.replace(/'/g, `'\\''`)}'`;
  return `waver judge sample --store ${arg} --n 60`;
}

function labellingBody(opts: { name: string; base: string; store: string }): string {
  return `<header><h1>Label judged items <span class="muted">${escapeHtml(opts.name)}</span></h1></header>
<nav><a href="${escapeHtml(opts.base)}">the store</a><a href="/">all stores</a></nav>
<main>
<form id="who"><label>Your name <input id="rater" autocomplete="off" required></label> <label>set <select id="set"></select></label> <button type="submit">start</button> <span class="muted">or Enter</span></form>
<div id="none" hidden><p>This store has no labelling set yet: nothing to label. Draw one (60 judged items, stratified by protocol and task; docs/judges.md) with</p>
<pre><code id="sample-command">${escapeHtml(sampleCommand(opts.store))}</code></pre>
<p>then reload this page.</p></div>
<div id="work" hidden>
<p id="progress" class="muted"></p>
<p><strong id="task"></strong> <span id="strata" class="muted"></span> <code id="itemid" class="muted"></code></p>
<h2 id="h-item">What was asked</h2><pre id="item"></pre>
<h2 id="h-response">Response</h2><pre id="response"></pre>
<h2>Rubric</h2><p id="instructions"></p><ol id="rubric" class="rubric"></ol>
<p><label>Notes (<kbd>/</kbd> to write, <kbd>Esc</kbd> to leave) <textarea id="notes"></textarea></label></p>
<p id="status" role="status" aria-live="polite"></p>
<p id="done" hidden></p>
<p class="muted">Click a label, or press <span id="keys"></span> or its letter (saved at once, then the next item) · <kbd>←</kbd> <kbd>→</kbd> previous and next</p>
</div>
</main>`;
}

/**
 * The page's script (plain ES2020 in a string, as the report's client.ts is: no DOM types to check
 * it against; label.browser.test.ts drives it), after the constants `base` (the store's path in
 * the viewer) and `storeName`.
 */
const LABELLING_JS = `
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let state = { set: null, items: [], labels: new Map(), at: 0, rater: '' };
$('rater').value = params.get('rater') || localStorage.getItem('waver-rater') || '';

async function load(setName, rater) {
  const q = new URLSearchParams({ rater });
  if (setName) q.set('set', setName);
  const r = await fetch(base + '/label/data?' + q.toString());
  return r.json();
}

async function fillSets() {
  const data = await load(params.get('set'), '');
  const select = $('set');
  select.replaceChildren();
  for (const name of data.sets) {
    const o = document.createElement('option');
    o.value = name; o.textContent = name;
    select.appendChild(o);
  }
  if (params.get('set')) select.value = params.get('set');
  if (data.sets.length === 0) { $('who').hidden = true; $('none').hidden = false; return; }
  $('rater').focus();
}

async function start(e) {
  if (e) e.preventDefault();
  const rater = $('rater').value.trim();
  if (!rater) return;
  const data = await load($('set').value, rater);
  if (!data.set) { $('status').textContent = 'no labelling set'; return; }
  localStorage.setItem('waver-rater', rater);
  const q = new URLSearchParams({ set: data.set.name, rater });
  history.replaceState(null, '', location.pathname + '?' + q.toString());
  state = { set: data.set.name, items: data.set.items, labels: new Map(data.labels.map((l) => [l.item, l])), at: 0, rater };
  const first = state.items.findIndex((i) => !state.labels.has(i.id));
  state.at = first < 0 ? 0 : first;
  $('who').hidden = true;
  $('work').hidden = false;
  $('rater').blur();
  showDone();
  show();
}

// The keys of this item's rubric: "1 or 2" for a pass/fail gate, "1…4" for four points.
function showKeys(n) {
  const kbd = (k) => { const e = document.createElement('kbd'); e.textContent = String(k); return e; };
  const keys = $('keys');
  keys.replaceChildren(kbd(1));
  if (n === 2) keys.append(' or ', kbd(2));
  else if (n > 2) keys.append('…', kbd(n));
}

function show() {
  const item = state.items[state.at];
  const done = state.items.filter((i) => state.labels.has(i.id)).length;
  $('progress').textContent = state.rater + ' · set ' + state.set + ' · item ' + (state.at + 1) + ' of ' + state.items.length + ' · ' + done + ' labelled';
  if (!item) return;
  $('task').textContent = item.task;
  $('strata').textContent = Object.entries(item.strata).map(([k, v]) => k + ' ' + v).join(' · ');
  $('itemid').textContent = item.id;
  $('item').textContent = item.item;
  $('response').textContent = item.response;
  // The rubric's own names for the two texts (a gate's ORIGINAL and CANDIDATE).
  const headings = item.rubric.headings || { item: 'What was asked', response: 'Response' };
  $('h-item').textContent = headings.item;
  $('h-response').textContent = headings.response;
  $('instructions').textContent = item.rubric.instructions;
  showKeys(item.rubric.labels.length);
  const mine = state.labels.get(item.id);
  const list = $('rubric');
  list.replaceChildren();
  item.rubric.labels.forEach((l, i) => {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    const k = document.createElement('kbd');
    k.textContent = String(i + 1) + (l.key ? ' ' + l.key : '');
    button.appendChild(k);
    button.appendChild(document.createTextNode(' ' + l.value + ' — ' + l.description));
    button.addEventListener('click', () => label(l.value));
    li.appendChild(button);
    li.dataset.value = l.value;
    if (mine && mine.label === l.value) li.className = 'chosen';
    list.appendChild(li);
  });
  $('notes').value = mine ? mine.notes : '';
}

async function choose(value) {
  const item = state.items[state.at];
  const notes = $('notes').value;
  $('status').textContent = 'saving…';
  const r = await fetch(base + '/label/save', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ set: state.set, item: item.id, rater: state.rater, label: value, notes }),
  });
  const out = await r.json();
  if (!r.ok) { $('status').textContent = 'not saved: ' + out.error; return; }
  state.labels.set(item.id, { item: item.id, label: out.label, notes });
  $('status').textContent = 'saved ' + item.id + ' = ' + out.label;
  const next = state.items.findIndex((i, k) => k > state.at && !state.labels.has(i.id));
  if (next >= 0) state.at = next;
  else if (state.items.every((i) => state.labels.has(i.id))) $('status').textContent += ' · every item is labelled';
  showDone();
  show();
}

/** When the set is labelled: what to do next. */
function showDone() {
  const all = state.items.length > 0 && state.items.every((i) => state.labels.has(i.id));
  $('done').hidden = !all;
  if (all)
    $('done').textContent = 'Every item of set ' + state.set + ' is labelled. Measure how the judges agree with people: waver judge agreement --store ' + storeName + ' --set ' + state.set;
}

function label(value) {
  choose(value).catch((err) => { $('status').textContent = 'not saved: ' + err.message; });
}

async function saveNotes() {
  const item = state.items[state.at];
  const mine = item && state.labels.get(item.id);
  if (mine && $('notes').value !== mine.notes) await choose(mine.label).catch(() => {});
}

$('who').addEventListener('submit', start);
$('notes').addEventListener('keydown', (e) => {
  if (e.key === 'Escape') { e.preventDefault(); $('notes').blur(); }
});
$('notes').addEventListener('blur', () => { saveNotes(); });
document.addEventListener('keydown', (e) => {
  if ($('work').hidden || e.target === $('notes') || e.ctrlKey || e.metaKey || e.altKey) return;
  const item = state.items[state.at];
  if (!item) return;
  if (e.key === 'ArrowRight') { state.at = Math.min(state.items.length - 1, state.at + 1); show(); e.preventDefault(); return; }
  if (e.key === 'ArrowLeft') { state.at = Math.max(0, state.at - 1); show(); e.preventDefault(); return; }
  if (e.key === '/') { e.preventDefault(); $('notes').focus(); return; }
  const labels = item.rubric.labels;
  const n = Number(e.key);
  const chosen = Number.isInteger(n) && n >= 1 && n <= labels.length ? labels[n - 1] : labels.find((l) => l.key && l.key === e.key.toLowerCase());
  if (chosen) { e.preventDefault(); label(chosen.value); }
});
fillSets().then(() => { if ($('rater').value && params.get('set')) start(); });`;
