import { renderHtml } from './html/page.js';
import type { ReportedProtocol, SectionModule } from './report-data.js';
import {
  COVERAGE_COLUMNS,
  COVERAGE_NUMERIC_COLUMNS,
  coverageRow,
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
  switch (format) {
    case 'html':
      return renderHtml(data, protocols, opts);
    case 'md':
      return inertMarkdown(reportMarkdown(data, protocols));
    case 'json':
      return `${JSON.stringify(reportJson(data, protocols), null, 2)}\n`;
    case 'csv':
      return reportCsv(data.cells);
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

export function reportJson(
  data: ReportData,
  protocols: readonly ReportedProtocol[],
): Record<string, unknown> {
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
        suite: s.suite,
        ...(s.caveats && { caveats: s.caveats }),
      };
      if (s.unavailable !== undefined || s.results === undefined || !module)
        return { ...head, unavailable: s.unavailable ?? 'no module for this protocol' };
      return { ...head, results: module.json(s.results) };
    }),
    cells: data.cells,
  };
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
    `Store \`${data.store.file}\` (schema v${data.store.schemaVersion}) · ${data.runs.length} runs · ${data.sections.length} protocol sections · ${data.cells.length} cells · generated ${data.generatedAt} by waver ${data.waverVersion}.`,
    '',
    ...headerCaveats(data).flatMap((c) => [`> **${c.label}**: ${c.text}.`, '']),
    '## What was run',
    '',
  ];
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
    '## Coverage and errors',
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
      '### Errors',
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

  for (const s of data.sections) {
    const module = sectionOf(protocols, s.protocol);
    out.push(`## ${s.title} — suite \`${s.suite.hash.slice(0, 12)}\``, '');
    if (s.unavailable !== undefined || s.results === undefined || !module)
      out.push(`Unavailable: ${s.unavailable ?? 'no module for this protocol'}.`, '');
    else out.push(module.markdown(s.results).trimEnd(), '');
  }

  out.push('## Transcripts', '');
  if (data.cells.length === 0) out.push('No cells.', '');
  else {
    out.push(
      `${data.cells.length} cells. Every prompt, response, parsed answer, score and judge reason is in the HTML report's transcript browser, the JSON report and the CSV (one row per cell); \`waver export\` writes the stored transcripts with every attempt.`,
      '',
      row(['protocol', 'model', 'cells', 'done', 'failed', 'correct', 'incorrect', 'unscored', 'flipped']),
      row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    );
    for (const g of cellGroups(data.cells))
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
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
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

function cellGroups(cells: readonly TranscriptCell[]) {
  const groups = new Map<
    string,
    {
      protocol: string;
      model: string;
      cells: number;
      done: number;
      failed: number;
      correct: number;
      incorrect: number;
      unscored: number;
      flipped: number;
    }
  >();
  for (const c of cells) {
    const key = `${c.protocol}\u0000${c.model}`;
    let g = groups.get(key);
    if (!g) {
      g = {
        protocol: c.protocol,
        model: c.model,
        cells: 0,
        done: 0,
        failed: 0,
        correct: 0,
        incorrect: 0,
        unscored: 0,
        flipped: 0,
      };
      groups.set(key, g);
    }
    g.cells++;
    if (c.status === 'done') g.done++;
    else g.failed++;
    if (c.correct === true) g.correct++;
    else if (c.correct === false) g.incorrect++;
    else if (c.status === 'done') g.unscored++;
    if (c.flipped) g.flipped++;
  }
  return [...groups.values()];
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

export function reportCsv(cells: readonly TranscriptCell[]): string {
  const lines = [CSV_COLUMNS.join(',')];
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
    lines.push(CSV_COLUMNS.map((k) => csvField(k, values[k])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
