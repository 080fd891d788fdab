import { escapeHtml as esc } from './markdown.js';

/**
 * The transcript browser's markup: its filters, the cell detail, the table and the pager. One
 * browser for the report and the viewer (docs/report.md#the-transcript-browser): the report's
 * script (client.ts) fills and drives it over the cells the page holds, the report's every cell or
 * sample, or over one page of the viewer's (view/transcripts.ts), whose filters and pager then ask
 * the viewer for another page.
 */

export interface BrowserPager {
  /** The page's first page, when this is not it. */
  first?: string;
  /** The next page, when there may be one. */
  next?: string;
}

export interface BrowserOptions {
  /** Paragraphs above the filters (already HTML). */
  intro: string;
  /** The viewer's pager: links to other pages of the store (the report pages its cells in place). */
  paged?: BrowserPager;
}

export function transcriptBrowserHtml(opts: BrowserOptions): string {
  const paged = opts.paged;
  const pager = paged
    ? [
        paged.first ? `<a id="prev" href="${esc(paged.first)}">first page</a>` : '',
        paged.next ? `<a id="next" href="${esc(paged.next)}">next page</a>` : '',
      ].join('')
    : '<button id="prev" type="button">previous</button><button id="next" type="button">next</button>';
  return `<section id="transcripts"><h2>Transcripts</h2>${opts.intro}
<div class="filters">
${paged ? '<select id="f-suite" aria-label="eval"></select>\n' : ''}<select id="f-protocol" aria-label="protocol"></select>
<select id="f-model" aria-label="model"></select>
<select id="f-family" aria-label="family or phrasing"></select>
<select id="f-level" aria-label="level"></select>
<select id="f-outcome" aria-label="outcome"><option value="">any outcome</option><option value="correct">correct</option><option value="incorrect">incorrect</option><option value="unscored">unscored</option><option value="failed">failed call</option></select>
<select id="f-flipped" aria-label="flipped"><option value="">flipped or not</option><option value="yes">flipped only</option><option value="no">not flipped</option></select>
<input id="f-search" type="search" placeholder="search item, test, prompt, response" aria-label="search">
<span class="compare"><label><input id="cmp-toggle" type="checkbox"> compare</label><select id="cmp-a" aria-label="model A"></select><select id="cmp-b" aria-label="model B"></select><label><input id="cmp-differ" type="checkbox"> only where they differ</label></span>
</div>
<div id="detail" hidden></div>
<div class="table-wrap"><table class="stack cells"><thead id="rows-head"></thead><tbody id="rows"></tbody></table></div>
<div class="pager">${pager}<span id="count"></span></div>
</section>`;
}
