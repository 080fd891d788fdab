import { escapeHtml as esc } from './markdown.js';

/**
 * Model labels in an eval's HTML as the eval shows them (docs/decisions.md#e52-short-labels):
 * in the text of its tables and sentences each long label becomes its short form, whole on hover
 * (`<abbr title>`). Text inside code (a command to copy), an SVG (charts take the short labels
 * themselves) and attributes is left as it is.
 */
export function abbreviateLabels(html: string, labels: ReadonlyMap<string, string>): string {
  const shown = [...labels].filter(([full, short]) => full !== short);
  if (shown.length === 0) return html;
  // Longest first: a label inside another is matched as the longer one.
  shown.sort((a, b) => b[0].length - a[0].length);
  const pattern = new RegExp(shown.map(([full]) => escapeRegExp(esc(full))).join('|'), 'g');
  const abbr = new Map(
    shown.map(([full, short]) => [esc(full), `<abbr title="${esc(full)}">${esc(short)}</abbr>`]),
  );
  let keep = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) {
        if (/^<(code|svg|script|select|textarea)\b/i.test(part)) keep++;
        else if (/^<\/(code|svg|script|select|textarea)>/i.test(part)) keep = Math.max(0, keep - 1);
        return part;
      }
      return keep > 0 ? part : part.replace(pattern, (m) => abbr.get(m) ?? m);
    })
    .join('');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Under an eval's heading: each shortened label with its full name (the key of the page's short labels). */
export function labelKey(labels: ReadonlyMap<string, string>): string {
  const shown = [...labels].filter(([full, short]) => full !== short);
  if (shown.length === 0) return '';
  return `<p class="label-key muted">Models: ${shown
    .map(([full, short]) => `<strong>${esc(short)}</strong> = <code>${esc(full)}</code>`)
    .join('; ')}</p>`;
}
