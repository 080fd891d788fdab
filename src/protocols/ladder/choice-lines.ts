import type { McOption } from '../../data/mc/mc-item.js';

/**
 * The option lines of a choice item, in whatever layout Format gives it (docs/ladder-families.md#answer-types):
 * what the answer gate checks and what the choice parser leaves out of the stem.
 */

/** A line that lists an option: markup, then `A.`, `A)` or `(A)`, then its text. */
const OPTION_LINE = /^[\s>*|#-]*\(?([A-Z])[.)]\)?\s+(.*?)[\s|]*$/;

/** Whether a line lists an option (`A. text`, `- A) text`, `| (A) text |`). */
export function isOptionLine(line: string): boolean {
  return OPTION_LINE.test(line);
}

/** The options a text lists, one per line, in order; whitespace inside a text collapsed. */
export function optionLines(text: string): McOption[] {
  const out: McOption[] = [];
  for (const line of text.split('\n')) {
    const m = OPTION_LINE.exec(line);
    if (m) out.push({ letter: m[1] as string, text: collapse(m[2] as string) });
  }
  return out;
}

/** Whitespace runs as one space: how an option's text is compared. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The question a choice test asks: its text without the option lines, in whatever layout (`A. ...`, `- A. ...`, `| A. ... |`). */
export function choiceStemOf(text: string): string {
  return text
    .split('\n')
    .filter((line) => !isOptionLine(line))
    .join('\n')
    .trim();
}
