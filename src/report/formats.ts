import { comparisonMarkdown } from '../check/eval-comparison.js';
import { judgeMarkdown } from '../judge/report.js';
import { renderHtml } from './html/page.js';
import type { ReportedProtocol, SectionModule } from './report-data.js';
import {
  COVERAGE_COLUMNS,
  COVERAGE_NUMERIC_COLUMNS,
  coverageRow,
  evalCoverage,
  formatDataset,
  formatFigure,
  headerCaveats,
  type ReportData,
  RUN_COLUMNS,
  RUN_NUMERIC_COLUMNS,
  runRow,
  type TranscriptCell,
} from './report-data.js';

/**
 * One report, four forms (docs/report.md#formats): `html` (charts, tables, the transcript browser),
 * `md` and `json` (the same content without the interactivity: the JSON carries every cell, the
 * Markdown counts them), `csv` (one row per cell with its scores).
 */

export type ReportFormat = 'html' | 'md' | 'json' | 'csv';
export const REPORT_FORMATS: readonly ReportFormat[] = ['html', 'md', 'json', 'csv'];

export interface RenderOptions {
  /** html: characters of transcript text the page may embed (long texts are cut beyond it). */
  textBudget?: number;
}

/** `protocols` are those the report was built with: each section is rendered by its own. */
export function renderReport(
  data: ReportData,
  format: ReportFormat,
  protocols: readonly ReportedProtocol[],
  opts: RenderOptions = {},
): string {
  const parts: string[] = [];
  writeReport(data, format, protocols, (chunk) => parts.push(chunk), opts);
  return parts.join('');
}

/**
 * The report written a piece at a time: the JSON and CSV hold every cell, which a large store
 * could not hold as one string, so they are written cell by cell as the store is read again.
 */
export function writeReport(
  data: ReportData,
  format: ReportFormat,
  protocols: readonly ReportedProtocol[],
  write: (chunk: string) => void,
  opts: RenderOptions = {},
): void {
  switch (format) {
    case 'html':
      write(renderHtml(data, protocols, opts));
      return;
    case 'md':
      write(inertMarkdown(reportMarkdown(data, protocols)));
      return;
    case 'json':
      writeJson(data, protocols, write);
      return;
    case 'csv':
      writeCsv(data.eachCell(), write);
      return;
    default:
      throw new Error(`unknown report format ${String(format)}`);
  }
}

// --- JSON --------------------------------------------------------------------------------------

/** The section module of a report section's protocol. */
export function sectionOf(
  protocols: readonly ReportedProtocol[],
  protocol: string,
): SectionModule | undefined {
  return protocols.find((p) => p.name === protocol)?.section;
}

/** Everything but the cells, which come last (writeJson streams them). */
function reportJsonHead(data: ReportData, protocols: readonly ReportedProtocol[]): Record<string, unknown> {
  return {
    report: data.report,
    version: data.version,
    generatedAt: data.generatedAt,
    waverVersion: data.waverVersion,
    store: data.store,
    runs: data.runs,
    suites: data.suites,
    coverage: data.coverage,
    errors: data.errors,
    caveats: headerCaveats(data).map(({ section, text }) => ({ section, caveat: text })),
    sections: data.sections.map((s) => {
      const module = sectionOf(protocols, s.protocol);
      const head = {
        protocol: s.protocol,
        id: s.id,
        title: s.title,
        name: s.name,
        suite: s.suite,
        ...(s.date !== undefined && { date: s.date }),
        runs: s.runs,
        ...(s.summary && { summary: s.summary }),
        ...(s.comparison && { comparison: s.comparison }),
        ...(s.modelOrder && { modelOrder: s.modelOrder }),
        ...(s.caveats && { caveats: s.caveats }),
      };
      if (s.unavailable !== undefined || s.results === undefined || !module)
        return { ...head, unavailable: s.unavailable ?? 'no module for this protocol' };
      return { ...head, results: module.json(s.results) };
    }),
    transcripts: data.transcripts,
    ...(data.judges && { judges: data.judges }),
  };
}

/** As JSON.stringify(report, null, 2) would write it, with the cells written one at a time. */
function writeJson(data: ReportData, protocols: readonly ReportedProtocol[], write: (chunk: string) => void) {
  const head = JSON.stringify({ ...reportJsonHead(data, protocols), cells: [] }, null, 2);
  write(head.slice(0, head.lastIndexOf('[]')));
  let first = true;
  for (const c of data.eachCell()) {
    write(`${first ? '[\n' : ',\n'}    ${JSON.stringify(c, null, 2).replace(/\n/g, '\n    ')}`);
    first = false;
  }
  write(first ? '[]\n}\n' : '\n  ]\n}\n');
}

// --- Markdown ----------------------------------------------------------------------------------

function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

export function reportMarkdown(data: ReportData, protocols: readonly ReportedProtocol[]): string {
  const out: string[] = [
    '# waver report',
    '',
    `Store \`${data.store.file}\` (schema v${data.store.schemaVersion}) · ${data.sections.length} evals · ${data.runs.length} runs · ${data.transcripts.total} cells · generated ${data.generatedAt} by waver ${data.waverVersion}.`,
    '',
    ...headerCaveats(data).flatMap((c) => [`> **${c.label}**: ${c.text}.`, '']),
    ...evalIndexMarkdown(data),
  ];
  for (const s of data.sections) {
    const module = sectionOf(protocols, s.protocol);
    out.push(
      `## ${s.title} — ${s.name}`,
      '',
      `Suite \`${s.suite.name}\` \`${s.suite.hash.slice(0, 12)}\` · ${s.runs.length} run(s) · last run ${s.date ?? '—'}${s.summary ? ` · dataset ${s.summary.datasets.map(formatDataset).join('; ')}` : ''}${s.modelOrder && s.modelOrder.models.length > 1 ? ` · models in every table ${s.modelOrder.says}` : ''}`,
      '',
    );
    if (s.comparison) out.push('### Comparison', '', ...comparisonMarkdown(s.comparison), '');
    if (s.unavailable !== undefined || s.results === undefined || !module)
      out.push(`Unavailable: ${s.unavailable ?? 'no module for this protocol'}.`, '');
    else out.push(module.markdown(s.results).trimEnd(), '');
  }

  if (data.judges) out.push('## Judges and people', '', judgeMarkdown(data.judges).trimEnd(), '');

  out.push('## Transcripts', '');
  if (data.transcripts.total === 0) out.push('No cells.', '');
  else {
    out.push(
      data.transcripts.sampled
        ? `${data.transcripts.total} cells. Every prompt, response, parsed answer, score and judge reason is in the JSON report and the CSV (one row per cell), and ${sampleNote(data)}; \`waver export\` writes the stored transcripts with every attempt.`
        : `${data.transcripts.total} cells. Every prompt, response, parsed answer, score and judge reason is in the HTML report's transcript browser, the JSON report and the CSV (one row per cell); \`waver export\` writes the stored transcripts with every attempt.`,
      '',
      row(['protocol', 'model', 'cells', 'done', 'failed', 'correct', 'incorrect', 'unscored', 'flipped']),
      row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    );
    for (const g of data.transcripts.groups)
      out.push(
        row([
          g.protocol,
          g.model,
          String(g.cells),
          String(g.done),
          String(g.failed),
          String(g.correct),
          String(g.incorrect),
          String(g.unscored),
          String(g.flipped),
        ]),
      );
    out.push('');
  }
  out.push(...appendixMarkdown(data));
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** The index of evals the report opens on (docs/report.md#index): a row per model, in the eval's ranking. */
function evalIndexMarkdown(data: ReportData): string[] {
  if (data.sections.length === 0) return [];
  const out = [
    '## Evals',
    '',
    row(['eval', 'model', 'headline', 'protocol', 'dataset (licence)', 'cells', 'last run']),
    row(['---', '---', '---', '---', '---', '---', '---']),
  ];
  for (const s of data.sections) {
    const cov = evalCoverage(data, s.suite.hash);
    const own = [
      s.protocol,
      s.summary?.datasets.map(formatDataset).join('; ') || '—',
      `${cov.done}/${cov.total} done${cov.failed ? `, ${cov.failed} failed` : ''}${cov.pending ? `, ${cov.pending} pending` : ''}${cov.complete ? '' : ' (incomplete)'}`,
      s.date ?? '—',
    ];
    const models = s.summary?.models ?? [];
    if (models.length === 0)
      out.push(row([s.name, '—', s.unavailable ?? 'no headline for this protocol', ...own]));
    models.forEach((m, i) => {
      out.push(
        row([
          s.name,
          m.label,
          m.figures.map(formatFigure).join(' · '),
          ...(i === 0 ? own : own.map(() => '')),
        ]),
      );
    });
    // The eval's answer under its models: the comparison's sentence, and how its intervals are made.
    const notes = [
      s.comparison ? `**${s.comparison.headline}**` : '',
      s.summary?.interval ? `intervals: ${s.summary.interval}` : '',
    ].filter((x) => x !== '');
    if (notes.length > 0)
      out.push(row([s.name, s.comparison ? 'comparison' : '', notes.join(' '), '', '', '', '']));
  }
  out.push('');
  return out;
}

/** What was run and coverage, after the results. */
function appendixMarkdown(data: ReportData): string[] {
  const out: string[] = ['## Appendix: what was run', ''];
  if (data.runs.length === 0) out.push('No runs in this store.', '');
  else {
    out.push(
      row([...RUN_COLUMNS]),
      row(
        RUN_COLUMNS.map((_, i) => ((RUN_NUMERIC_COLUMNS as readonly number[]).includes(i) ? '---:' : '---')),
      ),
    );
    for (const r of data.runs) out.push(row(runRow(r, { text: (x) => x, code: (x) => `\`${x}\`` })));
    out.push('');
  }

  out.push(
    '### Coverage and errors',
    '',
    'Per suite and model: responses stored out of those the suite asks for (tests × repeats); failed calls count as incorrect in every metric.',
    '',
  );
  if (data.coverage.length === 0) out.push('No cells in this store.', '');
  else {
    out.push(
      row([...COVERAGE_COLUMNS]),
      row(
        COVERAGE_COLUMNS.map((_, i) =>
          (COVERAGE_NUMERIC_COLUMNS as readonly number[]).includes(i) ? '---:' : '---',
        ),
      ),
    );
    for (const c of data.coverage)
      out.push(row(coverageRow(c, { text: (x) => x, code: (x) => `\`${x}\``, strong: (x) => `**${x}**` })));
    out.push('');
  }
  if (data.errors.length > 0) {
    out.push(
      '#### Errors',
      '',
      row(['suite', 'model', 'kind', 'cells', 'latest message']),
      row(['---', '---', '---', '---:', '---']),
    );
    for (const e of data.errors)
      out.push(
        row([
          e.suite.name,
          e.model,
          e.kind + (e.status !== undefined ? ` (${e.status})` : ''),
          String(e.count),
          e.example.length > 200 ? `${e.example.slice(0, 200)}…` : e.example,
        ]),
      );
    out.push('');
  }

  return out;
}

/** What a sampled HTML page holds (docs/report.md#transcript-sample), in words. */
export function sampleNote(data: ReportData): string {
  const t = data.transcripts;
  return `the HTML report's transcript browser holds ${t.shown} of them: ${t.flaggedShown} of the ${t.flagged} flipped or failed cells and a sample of the others stratified by protocol, suite, model, family, level and outcome; \`waver view --store ${data.store.file}\` browses every cell`;
}

/**
 * Model and dataset text inside the Markdown cannot become markup where the file is rendered (a
 * pull request, a wiki): outside code spans, a `<` that could open a tag is written `&lt;`, and
 * `](` (a link or image target: `[x](javascript:...)`, `![](http://tracker)`) becomes `]\(`.
 * Numbers and prose such as `p < .05` are left as they are (docs/report.md#security).
 */
export function inertMarkdown(markdown: string): string {
  return markdown
    .split(/(`[^`\n]*`)/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/<(?=[A-Za-z/!?])/g, '&lt;').replace(/\]\(/g, ']\\('),
    )
    .join('');
}

// --- CSV ---------------------------------------------------------------------------------------

const CSV_COLUMNS = [
  'protocol',
  'suite',
  'model',
  'model_identity',
  'test',
  'repeat',
  'item',
  'family',
  'level',
  'variant',
  'gold',
  'status',
  'parsed',
  'score',
  'correct',
  'flipped',
  'reason',
  'error',
  'response',
] as const;

/** Text columns: a leading = + - @ (a spreadsheet formula) is neutralised with a quote. */
const TEXT_COLUMNS = new Set([
  'model',
  'model_identity',
  'test',
  'item',
  'family',
  'variant',
  'gold',
  'parsed',
  'reason',
  'error',
  'response',
]);

function csvField(column: string, value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  let s = String(value);
  // Model output is untrusted: a spreadsheet must not run it as a formula (docs/report.md#csv).
  if (TEXT_COLUMNS.has(column) && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function reportCsv(cells: Iterable<TranscriptCell>): string {
  const parts: string[] = [];
  writeCsv(cells, (chunk) => parts.push(chunk));
  return parts.join('');
}

/** One line per cell, written as the cells come. */
function writeCsv(cells: Iterable<TranscriptCell>, write: (chunk: string) => void): void {
  write(`${CSV_COLUMNS.join(',')}\r\n`);
  for (const c of cells) {
    const values: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | undefined> = {
      protocol: c.protocol,
      suite: c.suite,
      model: c.model,
      model_identity: c.identity,
      test: c.test,
      repeat: c.repeat,
      item: c.item,
      family: c.family,
      level: c.level,
      variant: c.variant,
      gold: c.gold,
      status: c.status,
      parsed: c.parsed,
      score: c.score,
      correct: c.correct,
      flipped: c.flipped,
      reason: c.reason,
      error: c.error,
      response: c.response,
    };
    write(`${CSV_COLUMNS.map((k) => csvField(k, values[k])).join(',')}\r\n`);
  }
}
