import { comparisonMarkdown } from '../../check/eval-comparison.js';
import { judgeMarkdown } from '../../judge/report.js';
import { chartSvg } from '../charts.js';
import { shortLabel, shortLabels } from '../labels.js';
import type { ReportedProtocol } from '../report-data.js';
import {
  COVERAGE_COLUMNS,
  COVERAGE_NUMERIC_COLUMNS,
  coverageRow,
  evalCoverage,
  formatDataset,
  formatFigure,
  headerCaveats,
  type ReportData,
  type ReportSection,
  RUN_COLUMNS,
  RUN_NUMERIC_COLUMNS,
  runRow,
} from '../report-data.js';
import { colorsFor } from './chart-kit.js';
import { CLIENT_JS } from './client.js';
import { escapeHtml as esc, markdownToHtml } from './markdown.js';
import { buildPayload, embedJson, TRUNCATION_NOTE } from './payload.js';
import type { HtmlKit } from './section.js';
import { abbreviateLabels, labelKey } from './short-labels.js';
import { CSS } from './style.js';
import { transcriptBrowserHtml } from './transcript-browser.js';

/**
 * The self-contained HTML report: one file, no network (a Content-Security-Policy forbids any
 * request), charts as inline SVG, the transcript data as escaped JSON in a non-executable script
 * element, and the page's own small script. Every text from the store is escaped here or set with
 * textContent by the script (docs/report.md#security).
 */

export const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

export interface HtmlOptions {
  /** Text budget of the embedded transcripts (characters). */
  textBudget?: number;
}

export interface HtmlStats {
  charts: number;
  /** Chart specs that failed to render (the figure says why). */
  chartErrors: number;
  /** Time spent drawing them. */
  chartMs: number;
}

export function renderHtml(
  data: ReportData,
  protocols: readonly ReportedProtocol[],
  opts: HtmlOptions = {},
  stats: HtmlStats = { charts: 0, chartErrors: 0, chartMs: 0 },
): string {
  const kit = htmlKit(data, stats);

  // Results first (docs/report.md#index): the index of evals, each eval's section, then the
  // transcripts; what was run and coverage are a collapsed appendix.
  const nav: string[] = ['<a href="#evals">Evals</a>'];
  const body: string[] = [evalIndex(data)];
  for (const section of data.sections) body.push(sectionHtml(section, protocols, kit));
  if (data.judges) {
    nav.push('<a href="#judges">Judges and people</a>');
    body.push(
      `<section id="judges"><h2>Judges and people</h2><p class="lede">How the LLM judges agree with people on a labelled sample, and the judges' figures corrected by their error rates there (docs/judges.md).</p>${markdownToHtml(judgeMarkdown(data.judges))}</section>`,
    );
  }
  nav.push('<a href="#transcripts">Transcripts</a>', '<a href="#appendix">What was run</a>');
  const payload = buildPayload(data.cells, { budget: opts.textBudget });
  body.push(transcriptsHtml(data, payload.truncated, payload.cap), appendix(data));

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="waver ${esc(data.waverVersion)}">
<title>waver report — ${esc(data.store.file)}</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>waver report</h1><p>Store <code>${esc(data.store.file)}</code> (schema v${data.store.schemaVersion}) · ${data.sections.length} evals · ${data.runs.length} runs · ${data.transcripts.total} cells · generated ${esc(data.generatedAt)} by waver ${esc(data.waverVersion)}</p>${headerCaveats(
    data,
  )
    .map(
      (c) => `<p class="warn caveat"><a href="#${esc(c.section)}">${esc(c.label)}</a>: ${esc(c.text)}.</p>`,
    )
    .join('')}</header>
<nav>${nav.join('')}</nav>
<main>
${body.join('\n')}
</main>
<footer>Every model response and dataset text in this file is shown as plain text: nothing from the store is run or loaded. This file makes no network request.</footer>
<script type="application/json" id="waver-data">${embedJson(payload)}</script>
<script>${CLIENT_JS}</script>
</body>
</html>
`;
}

/** What the sections draw with: charts numbered in page order (their time and failures counted), escaping, the models' colours. */
function htmlKit(data: ReportData, stats: HtmlStats): HtmlKit {
  const labels = [
    ...data.coverage.filter((c) => c.role === 'system under test').map((c) => c.model),
    ...data.cells.map((c) => c.model),
  ];
  return {
    chart(spec, label) {
      const id = `c${++stats.charts}`;
      let body: string;
      const started = performance.now();
      try {
        body = chartSvg(spec, id);
      } catch (e) {
        stats.chartErrors++;
        body = `<p class="warn">chart unavailable: ${esc((e as Error).message)}</p>`;
      }
      stats.chartMs += performance.now() - started;
      return `<figure class="chart" id="${id}" role="img" aria-label="${esc(label.title)}"><div class="plot">${legibleSvg(body)}</div><figcaption><strong>${esc(
        label.title,
      )}</strong>${esc(label.caption)}</figcaption></figure>`;
    },
    md: markdownToHtml,
    esc,
    modelColors: colorsFor(labels),
    label: shortLabel,
  };
}

/** The smallest text a chart may be drawn at, in CSS pixels (issue 37.6: 7.4 px at 800 px wide). */
export const MIN_CHART_TEXT_PX = 10;

/**
 * A chart wider than its card is scaled down to fit only as far as its smallest text stays at
 * MIN_CHART_TEXT_PX: the SVG's min-width is its width times the smallest scale that allows; past
 * that its card scrolls sideways (`.plot`) rather than shrink the text (docs/report.md#charts).
 */
function legibleSvg(svg: string): string {
  const sizes = [...svg.matchAll(/font-size="([\d.]+)px"/g)].map((m) => Number(m[1]));
  const width = Number(/^<svg[^>]*\swidth="([\d.]+)"/.exec(svg)?.[1]);
  if (sizes.length === 0 || !Number.isFinite(width)) return svg;
  const scale = Math.min(1, MIN_CHART_TEXT_PX / Math.min(...sizes));
  return svg.replace(/^<svg /, `<svg style="min-width:${Math.ceil(width * scale)}px" `);
}

/**
 * The kit of one eval: its models' labels shortened against each other, in its charts and its
 * text, and its models' colours (the report's) in the eval's order, so every legend lists them so
 * (docs/report.md#model-order).
 */
function evalKit(kit: HtmlKit, labels: ReadonlyMap<string, string>, order: readonly string[]): HtmlKit {
  const colorOf = (label: string) => kit.modelColors.range[kit.modelColors.domain.indexOf(label)];
  const own = order.filter((label) => colorOf(label) !== undefined);
  return {
    ...kit,
    ...(own.length > 0 && {
      modelColors: { domain: own, range: own.map((label) => colorOf(label) as string) },
    }),
    chart: (spec, label) => kit.chart({ ...spec, labels }, label),
    label: (model) => labels.get(model) ?? shortLabel(model),
  };
}

/** The labels of an eval's models as it shows them (labels.ts), from its index line. */
function evalLabels(section: ReportSection): Map<string, string> {
  return shortLabels(section.summary?.models.map((m) => m.label) ?? []);
}

/** An eval's section: its protocol's HTML, or why it is unavailable or could not be drawn. */
function sectionHtml(
  section: ReportSection,
  protocols: readonly ReportedProtocol[],
  reportKit: HtmlKit,
): string {
  const module = protocols.find((p) => p.name === section.protocol)?.section;
  const labels = evalLabels(section);
  const kit = evalKit(reportKit, labels, section.modelOrder?.models ?? []);
  let inner: string;
  if (section.unavailable !== undefined || section.results === undefined || !module)
    inner = `<p class="unavailable-section">Unavailable: ${esc(section.unavailable ?? 'no module for this protocol')}</p>`;
  else {
    try {
      inner = module.html(section.results, kit);
    } catch (e) {
      inner = `<p class="unavailable-section">This section could not be drawn: ${esc((e as Error).message)}</p>`;
    }
  }
  // The answer first: the comparison of the eval's models opens its section (docs/report.md#comparison).
  const comparison = section.comparison
    ? `<div class="comparison" id="${esc(section.id)}-comparison"><h3>Comparison</h3>${markdownToHtml(comparisonMarkdown(section.comparison).join('\n'))}</div>`
    : '';
  return `<section id="${esc(section.id)}" class="protocol" data-protocol="${esc(section.protocol)}"><h2>${esc(section.title)} — ${abbreviateLabels(esc(section.name), labels)}</h2>${evalMeta(section)}${labelKey(labels)}${abbreviateLabels(comparison + inner, labels)}</section>`;
}

/** A table that becomes one card per row on a narrow page (each cell labelled with its column). */
function table(head: string[], rows: string[][], numeric: number[] = [], id?: string): string {
  const cls = (k: number) => (numeric.includes(k) ? ' class="num"' : '');
  return `<div class="table-wrap"><table class="stack"${id ? ` id="${id}"` : ''}><thead><tr>${head.map((h, k) => `<th${cls(k)}>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (r) =>
        // The value in one element: on a narrow page the cell is a grid of its label and its value.
        `<tr>${r.map((c, k) => `<td${cls(k)} data-label="${esc(head[k] ?? '')}"><div>${c}</div></td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table></div>`;
}

/** `2025-06-01 12:00` of an ISO time (UTC, as stored). */
function day(iso: string | undefined): string {
  return iso === undefined ? '—' : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * The report's first screen: per eval, one row per model in the comparison's ranking (the order of
 * every table of the eval) with its headline figures and their intervals, then the comparison's
 * answer in one sentence; the eval's name links to its section (docs/report.md#index).
 */
function evalIndex(data: ReportData): string {
  const head = ['eval', 'model', 'headline', 'protocol', 'dataset (licence)', 'cells', 'last run'];
  const td = (k: number, html: string, extra = '') =>
    `<td data-label="${esc(head[k] ?? '')}"${extra}><div>${html}</div></td>`;
  const bodies = data.sections.map((s) => {
    const cov = evalCoverage(data, s.suite.hash);
    const labels = evalLabels(s);
    const cells = `${cov.done}/${cov.total} done${cov.failed ? `, <strong>${cov.failed} failed</strong>` : ''}${cov.pending ? `, ${cov.pending} pending` : ''}${cov.complete ? '' : ' (<strong>incomplete</strong>)'}`;
    const datasets = s.summary
      ? s.summary.datasets.map((d) => esc(formatDataset(d))).join('<br>') || '—'
      : '—';
    const link = `<a href="#${esc(s.id)}">${abbreviateLabels(esc(s.name), labels)}</a>`;
    const models = s.summary?.models ?? [];
    const rows = models.map((m, i) => {
      const figures = m.figures
        .map(
          (f) =>
            `<span class="fig${f.value === undefined && f.shown === undefined ? ' na' : ''}">${esc(formatFigure(f))}</span>`,
        )
        .join(' · ');
      const short = labels.get(m.label) ?? m.label;
      const model = `<span class="model" title="${esc(m.label)}">${esc(short)}</span>`;
      // The eval's own columns once, on its first model's row.
      const own = (k: number, html: string) => td(k, i === 0 ? html : '', i === 0 ? '' : ' class="same"');
      return `<tr>${td(0, link)}${td(1, model)}${td(2, `<div class="figure">${figures}</div>`)}${own(3, esc(s.protocol))}${own(4, datasets)}${own(5, cells)}${own(6, esc(day(s.date)))}</tr>`;
    });
    if (rows.length === 0)
      rows.push(
        `<tr>${td(0, link)}${td(1, '—')}${td(2, `<span class="na">${esc(s.unavailable ?? 'no headline for this protocol')}</span>`)}${td(3, esc(s.protocol))}${td(4, datasets)}${td(5, cells)}${td(6, esc(day(s.date)))}</tr>`,
      );
    const notes = [
      s.comparison
        ? `<strong>${abbreviateLabels(esc(s.comparison.headline), labels)}</strong> <a href="#${esc(s.id)}-comparison">the comparison</a>`
        : '',
      s.summary?.interval ? `<span class="muted">intervals: ${esc(s.summary.interval)}</span>` : '',
    ].filter((x) => x !== '');
    if (notes.length > 0)
      rows.push(
        `<tr class="verdict"><td data-label="comparison" colspan="${head.length}"><div>${notes.join(' ')}</div></td></tr>`,
      );
    return `<tbody data-eval="${esc(s.id)}">${rows.join('')}</tbody>`;
  });
  return `<section id="evals"><h2>Evals</h2><p class="lede">Each eval in this store: one row per model, ranked as the eval's comparison ranks them, with its headline figures, their intervals and what they are over; then, with two or more models, which is more accurate and how sure (the paired test of <code>waver check --compare</code>). Click an eval for its charts and tables; every cell is in the transcripts below.</p>${
    bodies.length === 0
      ? '<p>No protocol suite in this store: its runs and cells are in the appendix and the transcripts.</p>'
      : `<div class="table-wrap"><table class="stack" id="index"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>${bodies.join('')}</table></div>`
  }</section>`;
}

/** Under an eval's heading: its suite, runs, date and datasets with their licences. */
function evalMeta(s: ReportSection): string {
  const datasets = s.summary?.datasets.map((d) => formatDataset(d)).join('; ');
  return `<p class="eval-meta">Suite <code>${esc(s.suite.name)}</code> <code>${esc(s.suite.hash.slice(0, 12))}</code> · ${s.runs.length} run${s.runs.length === 1 ? '' : 's'}${s.runs.length ? ` (${s.runs.map((r) => `<code>${esc(r.slice(0, 8))}</code>`).join(', ')})` : ''} · last run ${esc(day(s.date))}${datasets ? ` · dataset ${esc(datasets)}` : ''}${s.modelOrder && s.modelOrder.models.length > 1 ? ` · models in every table and chart ${esc(s.modelOrder.says)}` : ''}</p>`;
}

/** What was run and coverage, collapsed: bookkeeping a reader opens when a figure needs it. */
function appendix(data: ReportData): string {
  return `<section id="appendix"><h2>Appendix: what was run</h2><details id="appendix-details"><summary>Every run (${data.runs.length}), and coverage and errors per suite and model (${data.errors.reduce((n, e) => n + e.count, 0)} failed cells)</summary>${whatWasRun(data)}${coverageHtml(data)}</details></section>`;
}

function whatWasRun(data: ReportData): string {
  const rows = data.runs.map((r) => runRow(r, { text: esc, code: (x) => `<code>${esc(x)}</code>` }));
  return `<div id="run"><h3>Runs</h3><p class="lede">Every run recorded in the store, oldest first: the suite (name and sha256), whether its models were the systems under test or served a role, the models and roles configured, and the seed, repeats and temperature the run used.</p>${
    rows.length === 0
      ? '<p>No runs in this store.</p>'
      : table([...RUN_COLUMNS], rows, [...RUN_NUMERIC_COLUMNS])
  }</div>`;
}

function coverageHtml(data: ReportData): string {
  const rows = data.coverage.map((c) =>
    coverageRow(c, {
      text: esc,
      code: (x) => `<code>${esc(x)}</code>`,
      strong: (x) => `<strong>${esc(x)}</strong>`,
    }),
  );
  const errors = data.errors.map((e) => [
    esc(e.suite.name),
    esc(e.model),
    esc(e.kind + (e.status !== undefined ? ` (${e.status})` : '')),
    String(e.count),
    esc(e.example.length > 300 ? `${e.example.slice(0, 300)}…` : e.example),
  ]);
  return `<div id="coverage"><h3>Coverage and errors</h3><p class="lede">Per suite and model: responses stored out of those the suite asks for (tests × repeats), failed calls (they count as incorrect in every metric), pending cells, and cells answered from the store without a call.</p>${
    rows.length === 0
      ? '<p>No cells in this store.</p>'
      : table([...COVERAGE_COLUMNS], rows, [...COVERAGE_NUMERIC_COLUMNS])
  }${errors.length === 0 ? '<p>No failed cells.</p>' : `<h4>Errors</h4>${table(['suite', 'model', 'kind', 'cells', 'latest message'], errors, [3])}`}</div>`;
}

function transcriptsHtml(data: ReportData, truncated: number, cap: number): string {
  const t = data.transcripts;
  // docs/report.md#transcript-sample: what a large store's page leaves out, and where it all is.
  const sample = t.sampled
    ? `<p class="warn" id="sample-note">This page holds ${t.shown} of the ${t.total} cells: ${t.flaggedShown} of the ${t.flagged} flipped or failed ones${t.flaggedShown < t.flagged ? ' (a stratified sample)' : ''}, and a sample of the others stratified by protocol, suite, model, family, level and outcome (${t.shown - t.flaggedShown} of ${t.total - t.flagged}); the counts above and in every table are over all cells. Browse, filter and search every cell with <code>waver view --store ${esc(data.store.file)}</code>; <code>waver report --format json</code> or <code>csv</code> and <code>waver export</code> hold them all.</p>${table(
        ['protocol', 'model', 'cells', 'in this page', 'flipped', 'failed'],
        t.groups.map((g) => [
          esc(g.protocol),
          esc(g.model),
          String(g.cells),
          String(g.shown),
          String(g.flipped),
          String(g.failed),
        ]),
        [2, 3, 4, 5],
      )}`
    : '';
  const note =
    sample +
    (truncated > 0
      ? `<p class="warn">${truncated} long texts are cut to ${cap} characters in this file to keep it small, each marked “truncated”; ${esc(TRUNCATION_NOTE)} (e.g. <code>waver export --store ${esc(data.store.file)} --suite HASH</code>).</p>`
      : '');
  return transcriptBrowserHtml({
    intro: `<p class="lede">Every cell of the protocol suites: the prompt as sent, the original item and a word diff against what was asked (characters on request), the response, the parsed answer, the score and the judge's reason. Pick two models to compare them side by side on the same tests; a cell's detail opens above the table.</p>${note}`,
  });
}
