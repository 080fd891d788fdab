import { type McItem, type McOption, OPTION_LETTERS } from '../../data/mc/mc-item.js';
import { normaliseText } from '../../data/mc/mc-rules.js';
import { InputError } from '../../errors.js';
import { deriveSeed, PyRandom } from '../../util/random.js';
import type { Phrasing } from './config.js';

/**
 * The five phrasings of an item (docs/method.md#paraphrase. Only the wording around the options
 * changes, or their order; never what is asked:
 * - canonical: stem, lettered options, "reply with just its letter";
 * - reworded: the same with the stem reworded (the item's alternate wording, or the generator's);
 * - terse: the instruction line replaced by `Answer:`;
 * - verbose: a longer, more conversational frame around the same question and instruction;
 * - options-shuffled: canonical with the options in a seeded new order; the key follows its option.
 */

/** Where a reworded stem came from; recorded in every reworded test. */
export type RewordSource = { kind: 'alternate' } | { kind: 'generator'; generator: string };

export interface PhrasedItem {
  phrasing: Phrasing;
  prompt: string;
  /** The options as this prompt shows them, lettered A, B, ... in shown order. */
  options: McOption[];
  /** The key's letter as shown. */
  key: string;
  /** Shown letter -> the item's own letter, so answers compare across phrasings. */
  canonicalOf: Record<string, string>;
  reworded?: { text: string; source: RewordSource };
  shuffle?: { seed: number; attempts: number };
}

export function letterList(letters: readonly string[]): string {
  if (letters.length <= 2) return letters.join(' or ');
  return `${letters.slice(0, -1).join(', ')}, or ${letters.at(-1)}`;
}

function optionLines(options: readonly McOption[]): string {
  return options.map((o) => `${o.letter}. ${o.text}`).join('\n');
}

function instruction(options: readonly McOption[]): string {
  return `Select the correct answer and reply with just its letter (${letterList(options.map((o) => o.letter))}).`;
}

/** A phrased prompt up to its first option line: the question as the model read it (for the parser). */
export function questionOf(prompt: string): string {
  return prompt.split(/\n(?=[A-Z]\. )/)[0] ?? prompt;
}

export function canonicalPrompt(stem: string, options: readonly McOption[]): string {
  return `${stem}\n\n${optionLines(options)}\n\n${instruction(options)}`;
}

export function tersePrompt(stem: string, options: readonly McOption[]): string {
  return `${stem}\n\n${optionLines(options)}\n\nAnswer:`;
}

export function verbosePrompt(stem: string, options: readonly McOption[]): string {
  return [
    'I have a multiple-choice question for you. Please read the question and every one of the answer options carefully, think about which option is correct, and then tell me your choice.',
    '',
    `Question: ${stem}`,
    '',
    'Options:',
    optionLines(options),
    '',
    instruction(options),
  ].join('\n');
}

/** The seed an item's options-shuffled order is drawn from: its own `shuffleSeed`, else one derived from the run seed. */
export function shuffleSeedOf(item: McItem, runSeed: number): number {
  if (item.shuffleSeed !== undefined) {
    if (!Number.isSafeInteger(item.shuffleSeed))
      throw new InputError(
        `item '${item.id}': shuffle seed must be an integer, got ${JSON.stringify(item.shuffleSeed)}`,
        {
          field: 'shuffleSeed',
        },
      );
    return item.shuffleSeed;
  }
  return deriveSeed(runSeed, item.id, 'options-shuffled');
}

/**
 * The options in a new order, relettered A, B, ...: CPython's `shuffle` on one seeded generator,
 * drawn again (same generator) while the order equals the original, so the phrasing always differs
 * from canonical. The key is the letter now shown beside the key's text.
 */
export function shuffleOptions(
  item: McItem,
  seed: number,
): Pick<PhrasedItem, 'options' | 'key' | 'canonicalOf' | 'shuffle'> {
  const rng = new PyRandom(seed);
  const order = item.options.map((o) => o.letter);
  let attempts = 0;
  do {
    rng.shuffle(order);
    attempts++;
  } while (order.every((l, i) => l === item.options[i]?.letter) && attempts < 1000);
  const byLetter = new Map(item.options.map((o) => [o.letter, o]));
  const options = order.map((l, i) => ({
    letter: OPTION_LETTERS[i] as string,
    text: byLetter.get(l)?.text as string,
  }));
  const canonicalOf = Object.fromEntries(order.map((l, i) => [OPTION_LETTERS[i] as string, l]));
  const key = OPTION_LETTERS[order.indexOf(item.key)] as string;
  // The key follows its option: the text beside the new key letter is the original key's text.
  if (
    normaliseText(options[order.indexOf(item.key)]?.text ?? '') !==
    normaliseText(byLetter.get(item.key)?.text ?? '')
  )
    throw new Error(`item '${item.id}': the shuffled key lost its option`);
  return { options, key, canonicalOf, shuffle: { seed, attempts } };
}

/** One phrasing of an item. `reworded` must be given for the reworded phrasing. */
export function phraseItem(
  item: McItem,
  phrasing: Phrasing,
  ctx: { runSeed: number; reworded?: { text: string; source: RewordSource } },
): PhrasedItem {
  const identity = Object.fromEntries(item.options.map((o) => [o.letter, o.letter]));
  const same = { options: item.options, key: item.key, canonicalOf: identity };
  switch (phrasing) {
    case 'canonical':
      return { phrasing, prompt: canonicalPrompt(item.stem, item.options), ...same };
    case 'terse':
      return { phrasing, prompt: tersePrompt(item.stem, item.options), ...same };
    case 'verbose':
      return { phrasing, prompt: verbosePrompt(item.stem, item.options), ...same };
    case 'reworded': {
      if (!ctx.reworded) throw new Error(`item '${item.id}': no reworded stem`);
      return {
        phrasing,
        prompt: canonicalPrompt(ctx.reworded.text, item.options),
        ...same,
        reworded: ctx.reworded,
      };
    }
    case 'options-shuffled': {
      const shuffled = shuffleOptions(item, shuffleSeedOf(item, ctx.runSeed));
      return { phrasing, prompt: canonicalPrompt(item.stem, shuffled.options), ...shuffled };
    }
  }
}
