/**
 * How the report shows a model's label, in a module of its own: the transcript browser's sections
 * use it too, and must not load vega (docs/decisions.md#e41-a-warm-run-loads-what-it-runs).
 */

/** Characters of a label shown whole; a longer one is shortened (shortLabels). */
export const LEGEND_CHARS = 36;
/** Characters kept before the cut when a label is cut in the middle. */
export const LEGEND_HEAD = 12;

/** Where a label may be cut: between the parts of a path, a spec or a file name. */
const SEPARATOR = /[/:._\-@?#=&\s]/;
/** A suffix that is only a file extension (`.gguf`) is left off without a mark: it tells nothing apart. */
/** Separators left at either end of the part shown. */
const TRIM = /^[/:._\-@?#=&\s]+|[/:._\-@?#=&\s]+$/g;
const EXTENSION = /^\.[A-Za-z0-9]+$/;

/**
 * Each label of a set as the report shows it (docs/decisions.md#e52-short-labels): whole up to
 * LEGEND_CHARS characters; a longer one as the shortest part that tells it from the others, the
 * prefix and suffix it shares with its nearest other label left off at a separator (`…q4_k_m` and
 * `…q8_0` for `gguf:/…/qwen2.5-0.5b-instruct-q4_k_m.gguf` and `…q8_0.gguf`), cut in the middle
 * when that part is still too long. The full label goes on hover and in the key beside it.
 */
export function shortLabels(labels: Iterable<string>): Map<string, string> {
  const all = [...new Set(labels)];
  const out = new Map(all.map((l) => [l, l.length > LEGEND_CHARS ? distinctPart(l, all) : l]));
  // Two shortened labels that read alike (one label inside another) are shown whole.
  const seen = new Map<string, number>();
  for (const s of out.values()) seen.set(s, (seen.get(s) ?? 0) + 1);
  for (const [l, s] of out) if ((seen.get(s) ?? 0) > 1) out.set(l, l);
  return out;
}

/** One label, shortened on its own (no other label to tell it from): whole, or its start … its end. */
export function shortLabel(label: string): string {
  return cutMiddle(label);
}

function cutMiddle(label: string): string {
  return label.length > LEGEND_CHARS
    ? `${label.slice(0, LEGEND_HEAD)}…${label.slice(-(LEGEND_CHARS - LEGEND_HEAD - 1))}`
    : label;
}

/** `label` without the prefix and suffix it shares with the label most like it, cut at separators. */
function distinctPart(label: string, all: readonly string[]): string {
  let prefix = 0;
  let suffix = 0;
  for (const other of all) {
    if (other === label) continue;
    prefix = Math.max(prefix, commonPrefix(label, other));
    suffix = Math.max(suffix, commonPrefix(reverse(label), reverse(other)));
  }
  // The cut falls on a separator: the part shown starts a word of the label and ends one.
  const cutsAt = (i: number) => SEPARATOR.test(label[i - 1] ?? '') || SEPARATOR.test(label[i] ?? '');
  while (suffix > 0 && !cutsAt(label.length - suffix)) suffix--;
  let head = '';
  // A label the other one merely extends (`gpt-4o` of `gpt-4o-mini`) shows its last word before the cut.
  for (prefix = Math.min(prefix, label.length - suffix); ; prefix--) {
    while (prefix > 0 && !cutsAt(prefix)) prefix--;
    head = label.slice(prefix, label.length - suffix).replace(TRIM, '');
    if (head !== '' || prefix === 0) break;
  }
  if (head === '') return cutMiddle(label);
  const tail = label.slice(label.length - suffix);
  const middle = cutMiddle(head);
  if (prefix === 0 && suffix === 0) return middle;
  return `${prefix > 0 ? '…' : ''}${middle}${suffix > 0 && !EXTENSION.test(tail) ? '…' : ''}`;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function reverse(s: string): string {
  return [...s].reverse().join('');
}
