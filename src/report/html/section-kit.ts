import type { SuiteTest } from '../../run/types.js';
import type { LightCell } from '../../store/store.js';
import type { TranscriptCell } from '../report-data.js';
import type { HtmlKit } from './section.js';

/** The protocol-independent part of a transcript cell: the test as asked and the answer or error. */
export function cellBase(
  protocol: string,
  suiteHash: string,
  cell: LightCell,
  test: SuiteTest | undefined,
): TranscriptCell {
  const out: TranscriptCell = {
    protocol,
    suite: suiteHash,
    model: cell.model,
    identity: cell.modelIdentity,
    test: cell.testId,
    repeat: cell.repeat,
    item: cell.testId,
    prompt: test?.prompt ?? '',
    status: cell.status,
  };
  const system = test?.byModel?.[cell.model]?.system ?? test?.system;
  if (system !== undefined) out.system = system;
  if (cell.text !== undefined) out.response = cell.text;
  if (cell.error)
    out.error = `${cell.error.kind}${cell.error.status !== undefined ? ` (${cell.error.status})` : ''}: ${cell.error.message}`;
  return out;
}

/**
 * Shifts Markdown headings so the highest one becomes level `top` (the protocols' writers start at
 * `#`; inside a report their text sits under the section's own heading).
 */
export function demoteHeadings(markdown: string, top: number): string {
  const levels = [...markdown.matchAll(/^(#{1,6}) /gm)].map((m) => (m[1] as string).length);
  if (levels.length === 0) return markdown;
  const shift = top - Math.min(...levels);
  if (shift <= 0) return markdown;
  return markdown.replace(/^(#{1,6}) /gm, (_m, h: string) => `${'#'.repeat(Math.min(6, h.length + shift))} `);
}

export function fmt3(x: number | undefined | null): string {
  return x === undefined || x === null || Number.isNaN(x) ? '—' : x.toFixed(3);
}

/**
 * The model colour key shared by charts drawn without a legend of their own: each label cut in the
 * middle as the charts' legends cut it, whole on hover.
 */
export function legendHtml(kit: HtmlKit): string {
  const items = kit.modelColors.domain.map(
    (label, i) =>
      `<span class="key" title="${kit.esc(label)}"><span class="swatch" style="background:${kit.modelColors.range[i]}"></span>${kit.esc(kit.label(label))}</span>`,
  );
  return `<p class="legend">${items.join(' ')}</p>`;
}
