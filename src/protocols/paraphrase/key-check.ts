import { type McItem, optionText } from '../../data/mc/mc-item.js';
import { describeRule, evaluateRule, optionsMatching } from '../../data/mc/mc-rules.js';
import { InputError } from '../../errors.js';

/**
 * Answer keys are recomputed before any model call (docs/method.md#paraphrase: a wrong key
 * would score every correct model as wrong in every phrasing, and SAA cannot recover from that.
 * One mismatch stops the run, naming the item, the key and what the rule computes.
 */

export interface KeyCheck {
  /** Items whose key a rule recomputed and confirmed. */
  verified: { item: string; rule: string; computed: string | number }[];
  /** Items with no rule: their keys are trusted as the dataset states them. */
  unverified: string[];
}

/** The key check's failure: an InputError (exit 2, nothing written) that names the item and both values. */
export class KeyMismatchError extends InputError {
  readonly items: string[];
  constructor(message: string, items: string[], file?: string) {
    super(message, { file, field: 'key' });
    this.items = items;
  }
}

/** Recomputes every key that has a rule. Throws KeyMismatchError on the first bad key (and counts the others). */
export function verifyKeys(items: readonly McItem[], where: { file?: string } = {}): KeyCheck {
  const verified: KeyCheck['verified'] = [];
  const unverified: string[] = [];
  const problems: { item: string; message: string }[] = [];
  for (const item of items) {
    if (!item.rule) {
      unverified.push(item.id);
      continue;
    }
    const problem = checkOne(item);
    if (typeof problem === 'string') problems.push({ item: item.id, message: problem });
    else verified.push({ item: item.id, rule: describeRule(item.rule), computed: problem.computed });
  }
  const first = problems[0];
  if (first) {
    const more =
      problems.length > 1
        ? ` (and ${problems.length - 1} more: ${problems
            .slice(1)
            .map((p) => p.item)
            .join(', ')})`
        : '';
    throw new KeyMismatchError(
      `${first.message}${more}; no model was called`,
      problems.map((p) => p.item),
      where.file,
    );
  }
  return { verified, unverified };
}

/** The problem with an item's key, or what its rule computed when the key is right. */
function checkOne(item: McItem): string | { computed: string | number } {
  const rule = item.rule;
  if (!rule) return { computed: '' };
  const stated = `key ${item.key} (${optionText(item, item.key)})`;
  let computed: string | number;
  try {
    computed = evaluateRule(rule);
  } catch (e) {
    return `item '${item.id}': ${stated} cannot be checked: its rule (${describeRule(rule)}) failed: ${(e as Error).message}`;
  }
  const shown =
    typeof computed === 'number' ? String(Number(computed.toPrecision(12))) : JSON.stringify(computed);
  const matching = optionsMatching(item.options, computed);
  if (matching.length === 0)
    return `item '${item.id}': ${stated}, but its rule (${describeRule(rule)}) computes ${shown}, which is none of the options`;
  if (matching.length > 1)
    return `item '${item.id}': ${stated}, but its rule (${describeRule(rule)}) computes ${shown}, which options ${matching.map((o) => o.letter).join(' and ')} both state`;
  const [match] = matching as [(typeof matching)[number]];
  if (match.letter !== item.key)
    return `item '${item.id}': ${stated} does not match its rule (${describeRule(rule)}), which computes ${shown} (option ${match.letter}: ${match.text})`;
  return { computed };
}
