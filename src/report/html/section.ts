import type { Store } from '../../store/store.js';
import type { ChartSpec } from '../charts.js';
import type { LoadContext, SuiteInfo, SuiteRef, TranscriptCell } from '../report-data.js';

/**
 * A protocol's part of the report, as one module that plugs in (docs/report.md#sections): which
 * suites it claims, how it rebuilds their results from the store (the protocol's own loader), the
 * cells it adds to the transcript browser, and how it renders as HTML, Markdown and JSON. The
 * report knows nothing else about a protocol.
 */
export interface SectionModule<R = unknown> {
  protocol: string;
  title: string;
  /** False for a module that only lists cells (plain suites): no section of its own. */
  sectioned: boolean;
  claims(suite: SuiteInfo): boolean;
  /** The protocol's results for a suite; throws when they cannot be rebuilt (the section says why). */
  load(store: Store, suite: SuiteRef, ctx: LoadContext): R;
  /** Every cell of the suite for the browser; `results` is undefined when `load` failed. */
  cells(store: Store, suite: SuiteRef, results: R | undefined): TranscriptCell[];
  /** The section body: charts and tables. */
  html(results: R, kit: HtmlKit): string;
  markdown(results: R): string;
  json(results: R): unknown;
}

/** What a section's HTML is made with; everything it inserts goes through `esc` or `md`. */
export interface HtmlKit {
  /** A chart as a <figure> with its inline SVG, title and caption (what each number is over). */
  chart(spec: ChartSpec, label: { title: string; caption: string }): string;
  /** Markdown (the protocols' own table writers) as HTML, every text escaped. */
  md(markdown: string): string;
  esc(text: string): string;
  /** A consistent colour per model label across every chart of the report. */
  modelColors: { domain: string[]; range: string[] };
}

/** Erases a module's results type so modules of different protocols share one list. */
export function defineSection<R>(module: SectionModule<R>): SectionModule {
  return module as unknown as SectionModule;
}
