/**
 * The transcript browser's script (no library), the report's and the viewer's
 * (transcript-browser.ts): filters, a paged table, a cell's detail (above the table) with a word
 * diff of original vs perturbed text (characters on request), and a side-by-side comparison of two
 * models on the same tests. Over the cells a report holds it filters and pages in place; over a
 * page of the viewer's (the data's `paged`, view/transcripts.ts) each filter asks the viewer for
 * the page that matches, and the pager's links go on. Every text from the data is put in the page with
 * textContent (never as HTML), so a model's `<script>` or `onerror=` stays text
 * (docs/report.md#security). Kept as plain ES2020 in a string: the page must work offline in any
 * browser, and the repository's TypeScript has no DOM types to check it against (the browser tests
 * in report.browser.test.ts drive it instead).
 */
export const CLIENT_JS = String.raw`
(function () {
  'use strict';
  var el = document.getElementById('waver-data');
  if (!el) return;
  var D = JSON.parse(el.textContent || '{}');
  var S = D.s || [];
  var str = function (i) { return i === undefined || i < 0 ? undefined : S[i]; };
  var PAGE = 50;
  // A page of the viewer's: its rows, the query it answers, the filters' options, where it stands.
  var P = D.paged;

  var tests = (D.t || []).map(function (t) {
    var perturbed = str(t.x);
    return {
      protocol: D.protocols[t.p], suite: S[t.s], id: S[t.i], item: S[t.it],
      family: str(t.f), level: str(t.l), variant: str(t.v), system: str(t.sy),
      prompt: t.qp !== undefined ? S[t.qp] + perturbed : S[t.q],
      original: str(t.o), perturbed: perturbed, gold: str(t.g)
    };
  });
  var cells = (D.c || []).map(function (c, n) {
    var t = tests[c[0]];
    return {
      n: n, t: t, key: t.protocol + '\u0000' + t.suite + '\u0000' + t.id + '\u0000' + c[2],
      model: D.models[c[1]], repeat: c[2], done: c[3] === 1,
      response: str(c[4]), error: str(c[5]), parsed: str(c[6]), score: c[7],
      correct: c[8] === -1 ? undefined : c[8] === 1, flipped: c[9] === -1 ? undefined : c[9] === 1,
      reason: str(c[10])
    };
  });

  function $(id) { return document.getElementById(id); }
  function node(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function outcome(c) {
    if (!c.done) return 'failed';
    if (c.correct === true) return 'correct';
    if (c.correct === false) return 'incorrect';
    return 'unscored';
  }
  // Two models' cells differ by outcome; unscored ones, which have none, by their text (view/transcripts.ts differ).
  function differ(a, b) {
    var o = outcome(a);
    return o !== outcome(b) || (o === 'unscored' && a.response !== b.response);
  }
  var MARK = { correct: '\u2713 correct', incorrect: '\u2717 incorrect', unscored: '\u2013 unscored', failed: '! failed' };
  function excerpt(s, n) {
    if (s === undefined) return '';
    s = s.replace(/\s+/g, ' ').trim();
    return s.length > n ? s.slice(0, n - 1) + '\u2026' : s;
  }
  function uniq(xs) {
    var seen = {}, out = [];
    xs.forEach(function (x) { if (x !== undefined && !seen['$' + x]) { seen['$' + x] = 1; out.push(x); } });
    return out;
  }
  function fill(select, values, allLabel, shownAs) {
    clear(select);
    var o = node('option', allLabel); o.value = ''; select.appendChild(o);
    values.forEach(function (v) {
      var x = node('option', shownAs ? shownAs(v) : v); x.value = v; x.title = v; select.appendChild(x);
    });
  }
  // Each model as the report shows it (labels.ts shortLabels: the part that tells the models
  // apart), whole on hover.
  var SHORT = Object.create(null);
  [[D.models, D.short], P ? [P.options.models, P.options.short] : [[], []]].forEach(function (m) {
    (m[0] || []).forEach(function (label, i) { if (m[1] && m[1][i] !== undefined) SHORT[label] = m[1][i]; });
  });
  function shown(model) { return SHORT[model] !== undefined ? SHORT[model] : model; }
  function labelled(tag, model, cls) { var e = node(tag, shown(model), cls); e.title = model; return e; }

  var F = {
    protocol: $('f-protocol'), model: $('f-model'), family: $('f-family'), level: $('f-level'),
    outcome: $('f-outcome'), flipped: $('f-flipped'), search: $('f-search')
  };
  var O = P ? P.options : {
    protocols: D.protocols, models: D.models,
    families: uniq(tests.map(function (t) { return t.family; })).sort(),
    levels: uniq(tests.map(function (t) { return t.level; })).sort()
  };
  fill(F.protocol, O.protocols, 'every protocol');
  fill(F.model, O.models, 'every model', shown);
  fill(F.family, O.families, 'every family / phrasing');
  fill(F.level, O.levels, 'every level');
  var cmpA = $('cmp-a'), cmpB = $('cmp-b'), cmpOn = $('cmp-toggle'), cmpDiffer = $('cmp-differ');
  fill(cmpA, O.models, '(model A)', shown); fill(cmpB, O.models, '(model B)', shown);
  if (O.models.length > 0) cmpA.value = O.models[0];
  if (O.models.length > 1) cmpB.value = O.models[1];
  var evals = $('f-suite');
  if (P) {
    clear(evals);
    var every = node('option', 'every eval'); every.value = ''; evals.appendChild(every);
    P.options.evals.forEach(function (e) {
      var o = node('option', e.label + ' (' + e.cells + ' cells)'); o.value = e.hash; evals.appendChild(o);
    });
    var q = P.query;
    evals.value = q.suite || '';
    ['protocol', 'model', 'family', 'level', 'outcome', 'flipped'].forEach(function (k) { F[k].value = q[k] || ''; });
    F.search.value = q.q || '';
    if (q.compare) {
      cmpOn.checked = true; cmpA.value = q.compare.a; cmpB.value = q.compare.b; cmpDiffer.checked = q.compare.differ;
    }
  }

  var state = { page: 0, rows: [], selected: null };

  function matches(c) {
    var t = c.t, v;
    if ((v = F.protocol.value) && t.protocol !== v) return false;
    if ((v = F.family.value) && t.family !== v) return false;
    if ((v = F.level.value) && t.level !== v) return false;
    if ((v = F.flipped.value)) {
      if (v === 'yes' && c.flipped !== true) return false;
      if (v === 'no' && c.flipped === true) return false;
    }
    if ((v = F.search.value.trim().toLowerCase())) {
      var hay = (t.id + ' ' + t.item + ' ' + (t.prompt || '') + ' ' + (c.response || '') + ' ' + (c.error || '')).toLowerCase();
      if (hay.indexOf(v) < 0) return false;
    }
    return true;
  }

  // The viewer: a filter asks for the first page that matches it.
  function ask() {
    var p = new URLSearchParams();
    var put = function (k, v) { if (v) p.set(k, v); };
    put('suite', evals.value);
    ['protocol', 'model', 'family', 'level', 'outcome', 'flipped'].forEach(function (k) { put(k, F[k].value); });
    put('q', F.search.value.trim());
    if (cmpOn.checked && cmpA.value && cmpB.value && cmpA.value !== cmpB.value) {
      p.set('cmp', '1'); p.set('a', cmpA.value); p.set('b', cmpB.value);
      if (cmpDiffer.checked) p.set('differ', '1');
    }
    location.assign(P.base + '?' + p.toString());
  }

  function compute() {
    if (P) { ask(); return; }
    var comparing = cmpOn.checked && cmpA.value && cmpB.value && cmpA.value !== cmpB.value;
    var out = [];
    if (!comparing) {
      var m = F.model.value, o = F.outcome.value;
      cells.forEach(function (c) {
        if (m && c.model !== m) return;
        if (o && outcome(c) !== o) return;
        if (matches(c)) out.push({ a: c });
      });
    } else {
      var byKey = {};
      cells.forEach(function (c) { if (c.model === cmpB.value) byKey[c.key] = c; });
      var o2 = F.outcome.value;
      cells.forEach(function (c) {
        if (c.model !== cmpA.value || !matches(c)) return;
        var b = byKey[c.key];
        if (!b) return;
        if (o2 && outcome(c) !== o2 && outcome(b) !== o2) return;
        if (cmpDiffer.checked && !differ(c, b)) return;
        out.push({ a: c, b: b });
      });
    }
    state.rows = out;
    state.comparing = !!comparing;
    state.page = 0;
    render();
  }

  function outcomeCell(c) {
    var o = outcome(c);
    var td = node('td', MARK[o] + (c.score !== null && c.score !== undefined && c.score !== 0 && c.score !== 1 ? ' (' + c.score + ')' : ''), 'o-' + o);
    return td;
  }

  function render() {
    var body = $('rows'), head = $('rows-head');
    clear(body); clear(head);
    var cols = state.comparing
      ? ['protocol', 'item', 'family', 'level', 'rep', 'A: ' + shown(cmpA.value), 'B: ' + shown(cmpB.value), 'A response', 'B response']
      : ['protocol', 'model', 'item', 'family', 'level', 'rep', 'outcome', 'flipped', 'response'];
    var tr = node('tr');
    cols.forEach(function (c) { tr.appendChild(node('th', c)); });
    head.appendChild(tr);
    var start = state.page * PAGE, rows = state.rows.slice(start, start + PAGE);
    rows.forEach(function (r, k) {
      var c = r.a, t = c.t;
      var row = node('tr');
      row.tabIndex = 0;
      row.setAttribute('data-row', String(start + k));
      row.appendChild(node('td', t.protocol));
      if (!state.comparing) row.appendChild(labelled('td', c.model));
      row.appendChild(node('td', t.item));
      row.appendChild(node('td', t.family || ''));
      row.appendChild(node('td', t.level || ''));
      row.appendChild(node('td', c.repeat));
      if (state.comparing) {
        row.appendChild(outcomeCell(c));
        row.appendChild(outcomeCell(r.b));
        row.appendChild(node('td', excerpt(c.response || c.error, 70), 'resp'));
        row.appendChild(node('td', excerpt(r.b.response || r.b.error, 70), 'resp'));
      } else {
        row.appendChild(outcomeCell(c));
        row.appendChild(node('td', c.flipped === true ? '\u21c4 flipped' : ''));
        row.appendChild(node('td', excerpt(c.response || c.error, 100), 'resp'));
      }
      // Each cell names its column: on a narrow page a row is a card (style.ts).
      Array.prototype.forEach.call(row.children, function (td, i) { td.setAttribute('data-label', cols[i]); });
      var open = function () { show(r); };
      row.addEventListener('click', open);
      row.addEventListener('keydown', function (e) { if (e.key === 'Enter') open(); });
      body.appendChild(row);
    });
    if (P) { $('count').textContent = pagedCount(rows.length); return; }
    var total = state.rows.length;
    $('count').textContent = total === 0
      ? 'no ' + (state.comparing ? 'paired tests' : 'cells') + ' match'
      : 'showing ' + (start + 1) + '\u2013' + (start + rows.length) + ' of ' + total + (state.comparing ? ' paired tests' : ' cells') + ' (' + cells.length + ' in the report)';
    $('prev').disabled = state.page === 0;
    $('next').disabled = start + PAGE >= total;
  }

  function pagedCount(shown) {
    var what = state.comparing ? ' paired tests' : ' cells';
    if (shown === 0) return (P.first > 1 ? 'no more' : 'no') + what + ' match (' + P.cells + ' cells in ' + (P.query.suite ? 'this eval' : 'the store') + ')';
    return 'showing ' + P.first + '\u2013' + (P.first + shown - 1) + (P.total !== undefined ? ' of ' + P.total : '') + what +
      ' (' + P.cells + ' cells in ' + (P.query.suite ? 'this eval' : 'the store') +
      (P.total === undefined ? '; ' + P.scanned + ' looked at for this page' + (P.more ? ', the next page goes on' : '') : '') + ')';
  }

  // --- diff: common prefix and suffix, then an LCS of the middle ----------------------------
  // By words (a changed word is marked whole: easier to read), by characters on request.
  function lcsOps(a, b) {
    var n = a.length, m = b.length, w = m + 1;
    var T = new Uint32Array((n + 1) * w);
    for (var i = n - 1; i >= 0; i--)
      for (var j = m - 1; j >= 0; j--)
        T[i * w + j] = a[i] === b[j] ? T[(i + 1) * w + j + 1] + 1 : Math.max(T[(i + 1) * w + j], T[i * w + j + 1]);
    var ops = [];
    i = 0; j = 0;
    while (i < n && j < m) {
      if (a[i] === b[j]) { ops.push(['eq', a[i]]); i++; j++; }
      else if (T[(i + 1) * w + j] >= T[i * w + j + 1]) { ops.push(['del', a[i]]); i++; }
      else { ops.push(['ins', b[j]]); j++; }
    }
    for (; i < n; i++) ops.push(['del', a[i]]);
    for (; j < m; j++) ops.push(['ins', b[j]]);
    return ops;
  }
  function tokens(x, chars) {
    return chars ? Array.from(x) : x.match(/\s+|[\p{L}\p{N}_']+|[^\s\p{L}\p{N}_']/gu) || [];
  }
  function diff(x, y, chars) {
    var a = tokens(x, chars), b = tokens(y, chars);
    var p = 0;
    while (p < a.length && p < b.length && a[p] === b[p]) p++;
    var s = 0;
    while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
    var am = a.slice(p, a.length - s), bm = b.slice(p, b.length - s);
    var mid;
    if (am.length * bm.length <= 4e6) mid = lcsOps(am, bm);
    else if (chars) return diff(x, y, false);
    else mid = [['del', am.join('')], ['ins', bm.join('')]];
    var ops = [], out = 0, added = 0;
    if (p > 0) ops.push(['eq', a.slice(0, p).join('')]);
    mid.forEach(function (o) {
      if (o[0] !== 'eq' && (chars || /\S/.test(o[1]))) { if (o[0] === 'del') out++; else added++; }
      var last = ops[ops.length - 1];
      if (last && last[0] === o[0]) last[1] += o[1]; else ops.push([o[0], o[1]]);
    });
    if (s > 0) ops.push(['eq', a.slice(a.length - s).join('')]);
    return { ops: ops, out: out, added: added };
  }
  function diffNode(x, y, chars) {
    var pre = node('pre', undefined, 'diff');
    var d = diff(x, y, chars);
    d.ops.forEach(function (o) {
      if (o[0] === 'eq') pre.appendChild(document.createTextNode(o[1]));
      else pre.appendChild(node(o[0] === 'del' ? 'del' : 'ins', o[1]));
    });
    return { el: pre, out: d.out, added: d.added };
  }
  var diffChars = false;
  function diffBlock(original, changed) {
    var box = node('div', undefined, 'diff-block');
    var head = node('div', undefined, 'diff-head');
    var title = node('h4');
    var toggle = node('label');
    var box2 = node('input'); box2.type = 'checkbox'; box2.id = 'diff-chars'; box2.checked = diffChars;
    toggle.appendChild(box2); toggle.appendChild(document.createTextNode(' by character'));
    head.appendChild(title); head.appendChild(toggle);
    box.appendChild(head);
    var pre = null;
    function draw() {
      var df = diffNode(original, changed, diffChars);
      var unit = diffChars ? 'character' : 'word';
      var count = function (n) { return n + ' ' + unit + (n === 1 ? '' : 's'); };
      title.textContent = 'original \u2192 as asked (' + unit + ' diff: ' + count(df.out) + ' taken out, ' +
        count(df.added) + ' put in)';
      if (pre) box.replaceChild(df.el, pre); else box.appendChild(df.el);
      pre = df.el;
    }
    box2.addEventListener('change', function () { diffChars = box2.checked; draw(); });
    draw();
    return box;
  }

  function field(dl, name, value, pre) {
    if (value === undefined || value === null || value === '') return;
    dl.appendChild(node('dt', name));
    var dd = node('dd');
    dd.appendChild(node(pre ? 'pre' : 'span', value));
    dl.appendChild(dd);
  }
  function cellPanel(c, title) {
    var box = node('div', undefined, 'cell');
    box.appendChild(labelled('h4', title));
    var dl = node('dl');
    field(dl, 'outcome', MARK[outcome(c)] + (c.flipped === true ? ' \u00b7 \u21c4 flipped (right on the unperturbed form)' : ''));
    field(dl, 'score', c.score === null ? undefined : String(c.score));
    field(dl, 'parsed answer', c.parsed);
    field(dl, 'reason', c.reason, true);
    field(dl, 'error', c.error, true);
    var resp = node('dt', 'response'); dl.appendChild(resp);
    var dd = node('dd');
    var pre = node('pre', c.response === undefined ? '(no response)' : c.response, 'response');
    pre.setAttribute('data-testid', 'response');
    dd.appendChild(pre); dl.appendChild(dd);
    box.appendChild(dl);
    return box;
  }

  function show(r) {
    var c = r.a, t = c.t, d = $('detail');
    clear(d);
    d.hidden = false;
    var close = node('button', 'close', 'close'); close.type = 'button';
    close.addEventListener('click', function () { d.hidden = true; clear(d); });
    d.appendChild(close);
    d.appendChild(node('h3', t.protocol + ' \u00b7 ' + t.item + (t.family ? ' \u00b7 ' + t.family : '') + (t.level ? ' \u00b7 ' + t.level : '') + ' \u00b7 repeat ' + c.repeat));
    var dl = node('dl');
    field(dl, 'test', t.id);
    field(dl, 'suite', t.suite);
    field(dl, 'variant', t.variant);
    field(dl, 'gold', t.gold);
    field(dl, 'system prompt', t.system, true);
    field(dl, 'prompt', t.prompt, true);
    field(dl, 'original item', t.original, true);
    d.appendChild(dl);
    var changed = t.perturbed !== undefined ? t.perturbed : t.prompt;
    if (t.original !== undefined && changed !== undefined) d.appendChild(diffBlock(t.original, changed));
    var panes = node('div', undefined, r.b ? 'panes two' : 'panes');
    panes.appendChild(cellPanel(c, c.model));
    if (r.b) panes.appendChild(cellPanel(r.b, r.b.model));
    d.appendChild(panes);
    d.scrollIntoView({ block: 'start' });
  }

  ['protocol', 'model', 'family', 'level', 'outcome', 'flipped'].forEach(function (k) { F[k].addEventListener('change', compute); });
  // The viewer asks once the text is typed (Enter or leaving the field), not at each key.
  F.search.addEventListener(P ? 'change' : 'input', compute);
  [cmpA, cmpB, cmpOn, cmpDiffer].forEach(function (e) { e.addEventListener('change', compute); });
  if (P) evals.addEventListener('change', compute);
  else {
    // The viewer's pager is links to its pages; the report's pages its cells in place.
    $('prev').addEventListener('click', function () { if (state.page > 0) { state.page--; render(); } });
    $('next').addEventListener('click', function () { if ((state.page + 1) * PAGE < state.rows.length) { state.page++; render(); } });
  }
  // A link into the collapsed appendix opens it, so its target is there to scroll to.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    for (var e = target; e; e = e.parentElement) if (e.tagName === 'DETAILS') e.open = true;
    if (target.tagName === 'SECTION' && target.querySelector('details')) target.querySelector('details').open = true;
    target.scrollIntoView({ block: 'start' });
  }
  window.addEventListener('hashchange', reveal);
  if (location.hash) reveal();
  if (P) {
    state.rows = P.rows.map(function (r) { return r.length > 1 ? { a: cells[r[0]], b: cells[r[1]] } : { a: cells[r[0]] }; });
    state.comparing = !!P.query.compare;
    render();
  } else compute();
  document.body.setAttribute('data-ready', '1');
})();
`;
