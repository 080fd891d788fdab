import { InputError } from '../../errors.js';
import {
  type ItemContent,
  maxOptions,
  type RenderedPrompt,
  renderTemplate,
  type Template,
} from './templates.js';

/**
 * Every template must keep each item's content and key (docs/spread.md#key-check), checked on the
 * rendered prompts before any call, as paraphrase checks its keys: the question is there, every
 * option follows its own label in order, and the key's label is followed by the key's text. One
 * failure refuses the run (exit 2), naming the template and the item.
 */

/** The gap a separator may leave between a label and its option (their longest is 5 characters). */
const MAX_GAP = 8;

export class TemplateKeyError extends InputError {}

export interface CheckedItem extends ItemContent {
  id: string;
  /** The key's position among the options. */
  key: number;
}

/** Where the option `k` starts after its label, searching from `from`, or -1. */
function optionAfterLabel(r: RenderedPrompt, item: ItemContent, k: number, from: number): number {
  const label = r.labels[k] ?? '';
  const text = item.options[k] ?? '';
  for (let at = r.prompt.indexOf(label, from); at >= 0; at = r.prompt.indexOf(label, at + 1)) {
    const start = at + label.length;
    const found = r.prompt.indexOf(text, start);
    if (found >= 0 && found - start <= MAX_GAP && r.prompt.slice(start, found).trim().length <= 3)
      return found;
  }
  return -1;
}

/** The problem with a rendered prompt, or undefined when it keeps the item whole. */
export function promptProblem(t: Template, item: CheckedItem): string | undefined {
  if (item.options.length > maxOptions(t))
    return `it can number ${maxOptions(t)} options and the item has ${item.options.length}`;
  const r = renderTemplate(t, item);
  if (!r.prompt.includes(item.question)) return 'the question is not in the prompt';
  if (new Set(r.labels).size !== r.labels.length) return `two options share a label (${r.labels.join(' ')})`;
  let from = 0;
  for (let k = 0; k < item.options.length; k++) {
    const at = optionAfterLabel(r, item, k, from);
    if (at < 0)
      return k === item.key
        ? `the key's label ${r.labels[k]} is not followed by the key (${item.options[k]})`
        : `option ${r.labels[k]} (${item.options[k]}) is dropped or moved`;
    from = at + (item.options[k] ?? '').length;
  }
  return undefined;
}

/** Checks every template on every item; throws TemplateKeyError on the first failure, counting the rest. */
export function checkTemplates(
  templates: readonly Template[],
  items: readonly CheckedItem[],
  file?: string,
): void {
  const problems: string[] = [];
  for (const t of templates)
    for (const item of items) {
      const p = promptProblem(t, item);
      if (p) problems.push(`template '${t.id}' on item '${item.id}': ${p}`);
    }
  if (problems.length > 0)
    throw new TemplateKeyError(
      `${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}; no model was called`,
      { ...(file && { file }), field: 'templates' },
    );
}
