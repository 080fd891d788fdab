import {
  ENUMERATORS,
  enumeratorLabel,
  type FormatChoice,
  formatFeatures,
  MAX_OPTIONS,
  renderFormat,
} from './grammar.js';
import { sampleFormats } from './sample-formats.js';

/**
 * The space of prompts a spread run asks (docs/spread.md#templates): FormatSpread formats sampled
 * from the grammar, or the user's own templates. A template renders an item's question and options
 * and says which label names each option, so a reply is read against that template's labels.
 */

export type Template =
  | { index: number; id: string; kind: 'formatspread'; format: FormatChoice }
  | { index: number; id: string; kind: 'user'; text: string; source: string };

export interface RenderedPrompt {
  prompt: string;
  /** The label of each option, as shown (`(a)`, `iii.`, `A.`). */
  labels: string[];
  /** Each label without its wrapper (`a`, `iii`, `A`). */
  bare: string[];
}

export interface ItemContent {
  question: string;
  options: readonly string[];
  topic: string;
}

/** `n` FormatSpread formats drawn with `seed` (the same seed, the same formats). */
export function formatTemplates(n: number, seed: number): Template[] {
  return sampleFormats(n, seed).map((format, index) => ({
    index,
    id: `fs-${String(index).padStart(3, '0')}`,
    kind: 'formatspread',
    format,
  }));
}

const USER_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function renderTemplate(t: Template, item: ItemContent): RenderedPrompt {
  if (t.kind === 'formatspread') {
    const labels = item.options.map((_, k) => enumeratorLabel(t.format, k));
    const bare = item.options.map((_, k) => enumeratorLabel({ ...t.format, wrapper: 1 }, k).slice(0, -1));
    return { prompt: renderFormat(t.format, item.question, item.options), labels, bare };
  }
  // A user template's {choices}: one option a line, lettered as Mizrahi et al.'s templates list them.
  const bare = item.options.map((_, k) => USER_LETTERS[k] ?? String(k + 1));
  const labels = bare.map((b) => `${b}.`);
  const choices = item.options.map((o, k) => `${labels[k]} ${o}`).join('\n');
  const prompt = t.text
    .replaceAll('{topic}', item.topic)
    .replaceAll('{question}', item.question)
    .replaceAll('{choices}', choices);
  return { prompt, labels, bare };
}

/** The template as a reader sees it quoted: its text with the fields as placeholders, for `options` options. */
export function templateText(t: Template, options: number): string {
  if (t.kind === 'user') return t.text;
  const slots = Array.from({ length: options }, (_, k) => `{option ${k + 1}}`);
  return renderFormat(t.format, '{question}', slots);
}

/** The most options a template can number (their Unicode numerals stop at 12). */
export function maxOptions(t: Template): number {
  return t.kind === 'formatspread'
    ? MAX_OPTIONS[ENUMERATORS[t.format.enumerator] ?? '1']
    : USER_LETTERS.length;
}

/** One-hot rows of the grammar's choices per template (the estimators' covariates); none for user templates. */
export function templateCovariates(templates: readonly Template[]): number[][] | undefined {
  const rows = templates.map((t) => (t.kind === 'formatspread' ? formatFeatures(t.format) : undefined));
  return rows.every((r) => r !== undefined) ? (rows as number[][]) : undefined;
}
