import type { ChartSpec } from '../charts.js';

/** What a section's HTML is made with; everything it inserts goes through `esc` or `md`. */
export interface HtmlKit {
  /** A chart as a <figure> with its inline SVG, title and caption (what each number is over). */
  chart(spec: ChartSpec, label: { title: string; caption: string }): string;
  /** Markdown (the protocols' own table writers) as HTML, every text escaped. */
  md(markdown: string): string;
  esc(text: string): string;
  /** A consistent colour per model label across every chart of the report. */
  modelColors: { domain: string[]; range: string[] };
  /** A model's label as this eval shows it: the part that tells its models apart (labels.ts shortLabels). */
  label(model: string): string;
}
