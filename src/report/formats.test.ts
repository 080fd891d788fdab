import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { buildReportStore, HOSTILE_RESPONSE, REPORTED } from '../test-support/report-store.js';
import { connectionOf } from '../test-support/store/connection.js';
import { inertMarkdown, renderReport, reportCsv } from './formats.js';
import { markdownToHtml } from './html/markdown.js';
import { buildPayload, embedJson } from './html/payload.js';
import { buildReport, type ReportData, type TranscriptCell } from './report-data.js';

/**
 * The fixed store, made deterministic: the store stamps runs and suites with the wall clock and
 * the sago manifest's run with a random id, so both are set to fixed values before the report.
 */
function fixedReport(): ReportData {
  const store = buildReportStore();
  const db = connectionOf(store);
  const runs = db.prepare('SELECT rowid, id FROM runs ORDER BY rowid').all() as {
    rowid: number;
    id: string;
  }[];
  for (const r of runs) {
    const at = `2025-01-01T00:00:${String(r.rowid).padStart(2, '0')}.000Z`;
    const id = r.id.startsWith('run-') ? r.id : 'run-manifest';
    db.prepare('UPDATE cells SET run_id = ? WHERE run_id = ?').run(id, r.id);
    db.prepare('UPDATE runs SET id = ?, started_at = ?, finished_at = ? WHERE rowid = ?').run(
      id,
      at,
      at,
      r.rowid,
    );
  }
  db.prepare("UPDATE suites SET created_at = '2025-01-01T00:00:00.000Z'").run();
  const data = buildReport(store, REPORTED, { now: '2025-06-01T12:00:00.000Z' });
  store.close();
  return { ...data, waverVersion: 'VERSION' };
}

/** Floats rounded to 10 significant digits: a Node upgrade may move the last bit of a p-value. */
function stableJson(text: string): string {
  return `${JSON.stringify(
    JSON.parse(text),
    (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(10)) : v),
    2,
  )}\n`;
}

describe('report formats on a fixed store (snapshots)', () => {
  const data = fixedReport();

  it('Markdown: the index of evals first, each protocol’s tables, transcript counts, what was run last', async () => {
    const md = renderReport(data, 'md', REPORTED);
    await expect(md).toMatchFileSnapshot('./__snapshots__/report.md.snap');
    const headings = [...md.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe('Evals');
    expect(headings.at(-1)).toBe('Appendix: what was run');
    expect(md).toMatch(/^### Coverage and errors$/m);
    // Each eval is named by its dataset and models, and its dataset's licence is stated.
    expect(md).toMatch(/^## Ladder: .* — builtin · replay:alpha, replay:beta &lt;b>$/m);
    expect(md).toMatch(
      /^\| builtin · replay:alpha, replay:beta &lt;b> \| replay:alpha \| Stability \(lowest of 2 families: SV\) 1\.000 \[1\.000, 1\.000\] over 2 responses, 2 seeds · Collapse Point L2 in IQ \(76% of 200 resamples; 2 of 3 families collapse\) over 3 families \| ladder \| builtin \(MIT\) \|/m,
    );
    expect(md).toContain("Dataset: `builtin`: waver's own seeds (licence: MIT, as waver).");
    expect(md).toMatch(/^#+ Stability per family \(Table 4\) — replay:alpha$/m);
    expect(md).toMatch(/^## SAGO: /m);
    expect(md).toMatch(/^## Paraphrase: /m);
    expect(md).toMatch(/^## Transcripts$/m);
    // Untrusted text cannot become markup where the Markdown is rendered (a code span, such as the
    // comparison's command to copy, shows its text as it is: docs/report.md#security).
    expect(md.replace(/`[^`\n]*`/g, '')).not.toMatch(/<b>|<script|<img/i);
    expect(md).toContain('replay:beta &lt;b>');
  });

  it('CSV: one row per cell with its scores', async () => {
    const csv = renderReport(data, 'csv', REPORTED);
    await expect(csv).toMatchFileSnapshot('./__snapshots__/report.csv.snap');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'protocol,suite,model,model_identity,test,repeat,item,family,level,variant,gold,status,parsed,score,correct,flipped,reason,error,response',
    );
    // Rows: one per cell (responses with newlines are quoted, so count records, not lines).
    expect(parseCsv(csv)).toHaveLength(data.cells.length + 1);
  });

  it('JSON: the same content, every figure of every section and every cell', async () => {
    const json = renderReport(data, 'json', REPORTED);
    await expect(stableJson(json)).toMatchFileSnapshot('./__snapshots__/report.json.snap');
    const parsed = JSON.parse(json);
    expect(Object.keys(parsed)).toEqual([
      'report',
      'version',
      'generatedAt',
      'waverVersion',
      'store',
      'runs',
      'suites',
      'coverage',
      'errors',
      'caveats',
      'sections',
      'transcripts',
      'cells',
    ]);
    expect(parsed.sections.map((s: { protocol: string }) => s.protocol)).toEqual([
      'ladder',
      'sago',
      'paraphrase',
    ]);
    expect(parsed.sections[0].results.models[0].families).toHaveLength(7);
    expect(parsed.cells).toHaveLength(182);
    // What cannot be computed is null with a reason, never 0.
    const kb = parsed.sections[0].results.models[0].families.find(
      (f: { family: string }) => f.family === 'CL',
    );
    expect(kb.overall.accuracy).toEqual({ value: null, low: null, high: null, unavailable: 'no tests' });
  });

  it('HTML: one document with the CSP, a section per protocol and the transcript data', () => {
    const html = renderReport(data, 'html', REPORTED);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`,
    );
    for (const p of ['ladder', 'sago', 'paraphrase']) expect(html).toContain(`data-protocol="${p}"`);
    // Nothing from the store reaches the markup unescaped: only the page's own two scripts exist,
    // and the hostile texts are inside the JSON data element, with every `<` escaped.
    expect(html.match(/<script/g)).toHaveLength(2);
    const embedded =
      /<script type="application\/json" id="waver-data">([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(embedded).toContain('\\u003cscript>window.__waverPwned');
    const markup = html.replace(embedded, '');
    expect(markup).not.toContain('<b>bold</b>');
    expect(markup).not.toMatch(/<img|javascript:|onerror=/);
    expect(markup).not.toMatch(/src=|href="(?!#)/);
  });
});

describe('an empty store', () => {
  it('renders every format, saying there is nothing', () => {
    const store = openStore(':memory:');
    const data = buildReport(store, REPORTED, { now: '2025-06-01T12:00:00.000Z' });
    store.close();
    expect(renderReport(data, 'md', REPORTED)).toContain('No runs in this store.');
    expect(renderReport(data, 'html', REPORTED)).toContain('<p>No runs in this store.</p>');
    expect(JSON.parse(renderReport(data, 'json', REPORTED))).toMatchObject({
      runs: [],
      sections: [],
      cells: [],
    });
    expect(renderReport(data, 'csv', REPORTED).split('\r\n')).toHaveLength(2);
  });
});

describe('CSV', () => {
  const cell: TranscriptCell = {
    protocol: 'ladder',
    suite: 'abc',
    model: 'm',
    identity: 'm@x',
    test: 't1',
    repeat: 0,
    item: 'seed-1',
    prompt: 'Q?',
    status: 'done',
    response: '=HYPERLINK("http://x","click"), then "quotes"\nand a new line',
    score: -0.5,
    reason: '+1 from the judge',
  };

  it('quotes fields with commas, quotes and newlines, and neutralises spreadsheet formulas in text', () => {
    const [, row] = parseCsv(reportCsv([cell]));
    const header = parseCsv(reportCsv([]))[0] as string[];
    const get = (name: string) => row?.[header.indexOf(name)];
    expect(get('response')).toBe(`'${cell.response}`);
    expect(get('reason')).toBe("'+1 from the judge");
    // Numbers stay numbers.
    expect(get('score')).toBe('-0.5');
    expect(get('correct')).toBe('');
  });
});

describe('inertMarkdown', () => {
  it('turns tags, links and images in text into text, leaving code spans and comparisons alone', () => {
    expect(inertMarkdown('a <script>x</script> b')).toBe('a &lt;script>x&lt;/script> b');
    expect(inertMarkdown('[x](javascript:alert(1)) ![](http://t/p.png)')).toBe(
      '[x]\\(javascript:alert(1)) ![]\\(http://t/p.png)',
    );
    expect(inertMarkdown('p < .05 and `<b>` in code')).toBe('p < .05 and `<b>` in code');
  });
});

describe('markdownToHtml', () => {
  it('renders the table writers’ Markdown with every text escaped', () => {
    const html = markdownToHtml(
      [
        '### Title <i>',
        '',
        'Text with `code` and **bold** <img src=x onerror=alert(1)>.',
        '',
        '| a | b \\| c |',
        '|---|---:|',
        `| ${HOSTILE_RESPONSE.replace(/\|/g, '\\|')} | 1 |`,
        '',
        '- item <b>',
        '> warning: <script>',
      ].join('\n'),
    );
    expect(html).toContain('<h3>Title &lt;i&gt;</h3>');
    expect(html).toContain('<code>code</code> and <strong>bold</strong> &lt;img src=x onerror=alert(1)&gt;.');
    expect(html).toContain('<th>a</th><th class="num">b | c</th>');
    expect(html).toContain('&lt;script&gt;window.__waverPwned');
    expect(html).toContain('<li>item &lt;b&gt;</li>');
    expect(html).toContain('<blockquote>warning: &lt;script&gt;</blockquote>');
    expect(html).not.toMatch(/<(script|img|b|i)\b/);
  });
});

describe('the embedded transcript payload', () => {
  const base: TranscriptCell = {
    protocol: 'ladder',
    suite: 's',
    model: 'm',
    identity: 'm',
    test: 't',
    repeat: 0,
    item: 'seed',
    prompt: 'QUESTION: perturbed text',
    perturbed: 'perturbed text',
    original: 'original text',
    status: 'done',
    response: 'r'.repeat(5000),
  };

  it('stores shared texts once and a wrapped prompt as prefix + perturbed text', () => {
    const p = buildPayload([base, { ...base, model: 'n', response: 'short' }]);
    expect(p.t).toHaveLength(1);
    expect(p.c).toHaveLength(2);
    expect(p.s[p.t[0]?.qp as number]).toBe('QUESTION: ');
    expect(p.s[p.t[0]?.x as number]).toBe('perturbed text');
    expect(p.models).toEqual(['m', 'n']);
  });

  it('cuts the longest texts to fit the budget, each with a marker that says where the full text is', () => {
    const p = buildPayload([base], { budget: 1000 });
    expect(p.truncated).toBe(1);
    expect(p.cap).toBeGreaterThanOrEqual(200);
    const cut = p.s.find((s) => s.startsWith('rrr')) as string;
    expect(cut).toMatch(/\n… \[truncated: \d+ more characters; full text: waver export\]$/);
    expect(cut.slice(0, cut.indexOf('\n…')).length).toBeLessThan(1000);
    const untouched = buildPayload([base]);
    expect(untouched.truncated).toBe(0);
  });

  it('embeds JSON that no string can break out of', () => {
    const json = embedJson({ s: ['</script><script>alert(1)</script>', '<!--', '\u2028'] });
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ s: ['</script><script>alert(1)</script>', '<!--', '\u2028'] });
  });
});

/** RFC 4180 records (quoted fields may hold commas, quotes and newlines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}
