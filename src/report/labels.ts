/**
 * How the charts' legends cut a long label, in a module of its own: the transcript browser's
 * sections use it too, and must not load vega (docs/decisions.md#e41-a-warm-run-loads-what-it-runs).
 */

/** Characters of a legend label before it is cut in the middle, and those kept before the cut (shortLabel). */
export const LEGEND_CHARS = 36;
export const LEGEND_HEAD = 12;

/** A label as the charts' legends show it: whole up to LEGEND_CHARS, else its start … its end. */
export function shortLabel(label: string): string {
  return label.length > LEGEND_CHARS
    ? `${label.slice(0, LEGEND_HEAD)}…${label.slice(-(LEGEND_CHARS - LEGEND_HEAD - 1))}`
    : label;
}
