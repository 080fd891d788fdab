/** The report page's stylesheet (inline: the page loads nothing). */
export const CSS = `
:root { --fg: #111827; --muted: #6b7280; --line: #e5e7eb; --bg: #ffffff; --panel: #f9fafb; --accent: #1f4e79; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header { padding: 20px 28px 8px; border-bottom: 1px solid var(--line); }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; color: var(--muted); }
header p.caveat { margin: 6px 0 0; color: var(--fg); }
nav { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); padding: 6px 28px; }
nav a { margin-right: 16px; color: var(--accent); text-decoration: none; }
/* A heading reached by a link sits below the sticky nav, not under it. */
section, [id] { scroll-margin-top: 52px; }
main { padding: 8px 28px 40px; max-width: 1500px; }
section { margin-top: 28px; }
h2 { font-size: 19px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; margin-top: 22px; }
h4 { font-size: 14px; margin: 14px 0 6px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--panel); padding: 0 3px; border-radius: 3px; }
.lede { color: #374151; }
div.comparison { border-left: 4px solid var(--accent); padding: 2px 12px; margin: 8px 0 16px; }
.warn { background: #fef3c7; border-left: 4px solid #f59e0b; padding: 6px 10px; }
.unavailable-section { background: #fee2e2; border-left: 4px solid #ef4444; padding: 6px 10px; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
figure.chart { margin: 0; padding: 10px; border: 1px solid var(--line); border-radius: 6px; background: #fff; max-width: 100%; min-width: 0; }
/* A chart wider than its card is scaled down to fit (the SVG has a viewBox), never cut, and never
   below its min-width (its smallest text at 10 px): past that its plot scrolls sideways. */
figure.chart .plot { max-width: 100%; overflow-x: auto; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
/* The caption wraps to the chart's width: it takes no part in the card's width. */
figure.chart figcaption { contain: inline-size; min-width: 220px; color: var(--muted); font-size: 12px; margin-top: 6px; }
figure.chart figcaption strong { display: block; color: var(--fg); font-size: 13px; margin-bottom: 2px; }
.legend { color: var(--muted); }
.key { margin-right: 14px; white-space: nowrap; }
.swatch { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.table-wrap { overflow-x: auto; margin: 8px 0 14px; }
table { border-collapse: collapse; font-size: 12.5px; }
th, td { border: 1px solid var(--line); padding: 3px 7px; text-align: left; vertical-align: top; }
/* Long ids and texts wrap; words break only when one alone is wider than its column. */
table.stack td { overflow-wrap: break-word; }
.eval-meta { color: var(--muted); margin-top: -4px; }
#index td .figure { white-space: normal; }
#index tbody + tbody { border-top: 2px solid var(--line); }
#index tr.verdict td { background: var(--panel); }
abbr[title] { text-decoration: underline dotted; cursor: help; }
#index td .model { font-weight: 600; margin-right: 4px; }
.na { color: var(--muted); font-style: italic; }
.muted { color: var(--muted); font-size: 12px; }
details#appendix-details > summary { margin: 8px 0; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.stack td.num { overflow-wrap: normal; }
/* The run and coverage tables have a dozen columns: on a narrow page each row is a card. */
@media (max-width: 1000px) {
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; }
  table.stack thead { display: none; }
  table.stack tr { border: 1px solid var(--line); border-radius: 6px; margin-bottom: 8px; padding: 4px 0; }
  table.stack td { border: 0; display: grid; grid-template-columns: 10em minmax(0, 1fr); gap: 8px; text-align: left; }
  table.stack td::before { content: attr(data-label); color: var(--muted); }
  /* An eval's own columns are on its first model's card only. */
  #index td.same { display: none; }
  /* A transcript row is a compact card: its short fields on one line, the response below. */
  table.stack.cells tr { display: flex; flex-wrap: wrap; gap: 0 14px; padding: 4px 8px; }
  table.stack.cells td { display: block; padding: 1px 0; }
  table.stack.cells td::before { margin-right: 4px; font-size: 11px; }
  table.stack.cells td.resp { flex-basis: 100%; }
  table.stack.cells td:empty { display: none; }
}
details.tables, details.notes { margin-top: 18px; }
details > summary { cursor: pointer; color: var(--accent); font-weight: 600; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; background: var(--panel); padding: 10px; border: 1px solid var(--line); border-radius: 6px; }
.filters select, .filters input[type=search] { font: inherit; padding: 3px 6px; max-width: 100%; }
/* A model label is as long as its path: the select is cut, the option list shows it whole. */
.filters select { max-width: 16em; text-overflow: ellipsis; }
.filters .compare { margin-left: auto; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; min-width: 0; max-width: 100%; }
#transcripts table { width: 100%; margin-top: 8px; }
#transcripts td.resp { overflow-wrap: anywhere; }
#transcripts tbody tr { cursor: pointer; }
#transcripts tbody tr:hover, #transcripts tbody tr:focus { background: #eef2ff; outline: none; }
td.resp { color: #374151; max-width: 520px; min-width: 16em; }
@media (max-width: 1000px) { #transcripts td.resp { min-width: 0; max-width: none; } }
.o-correct { color: #15803d; white-space: nowrap; }
.o-incorrect { color: #b91c1c; white-space: nowrap; }
.o-unscored { color: var(--muted); white-space: nowrap; }
.o-failed { color: #92400e; white-space: nowrap; }
.pager { margin-top: 8px; display: flex; gap: 10px; align-items: center; }
#detail { scroll-margin-top: 48px; margin-top: 10px; padding: 12px 14px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
#detail dl { display: grid; grid-template-columns: 140px 1fr; gap: 4px 12px; margin: 0; }
#detail dt { color: var(--muted); }
#detail dd { margin: 0; min-width: 0; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; }
pre.diff del { background: #fecaca; color: #7f1d1d; text-decoration: line-through; }
pre.diff ins { background: #bbf7d0; color: #14532d; text-decoration: none; }
pre.diff del, pre.diff ins { border-radius: 2px; padding: 0 1px; }
.diff-head { display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
.diff-head h4 { margin-right: auto; }
#detail .close { float: right; }
.panes { display: grid; grid-template-columns: 1fr; gap: 14px; margin-top: 10px; }
.panes.two { grid-template-columns: 1fr 1fr; }
.cell { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; min-width: 0; }
footer { color: var(--muted); font-size: 12px; padding: 16px 28px; border-top: 1px solid var(--line); }
`;
