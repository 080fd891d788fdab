import type { McOption } from '../../../../data/mc/mc-item.js';
import type { ChoiceSeed, Level } from '../../types.js';
import type { RulesInput, RulesMade } from '../contract.js';
import { chooseLayout, heavierThanAll, noHeavierThan } from './choose.js';
import { clauseBullets, FENCE_WIDTH_COUNT, fencedWrap, fenceWidths, type Layout } from './layouts.js';
import { lowerLayouts } from './rules.js';
import { sentenceClauses } from './units.js';

/**
 * Structural/Format on a multiple-choice seed (docs/ladder-families.md#answer-types): the stem's
 * sentences kept whole and in order, every option kept whole on a line of its own with its letter
 * (the answer gate's rule), **in the seed's order with the seed's key** (format-only: the paper's
 * "format-only edits leave every word and number in place"; the blind read rejected reordered
 * options as F, issue 36). By level: L1 whitespace only, L2 one device (bulleted options, the stem
 * quoted, the question in bold), L3 a nested list (the options under the whole question, or the
 * stem's clauses nested and the options a list of their own), L4 a quote block holding the list of
 * options, L5 the item in a code fence, its stem hard-wrapped mid-sentence (E69). One is drawn among the layouts that measure at the requested level.
 */

const lines = (options: readonly McOption[], prefix = '') =>
  options.map((o) => `${prefix}${o.letter}. ${o.text}`);

/** The stem on one line. */
const flat = (stem: string[][]) => stem.map((c) => c.join(' ')).join(' ');

type Builder = (stem: string[][], options: readonly McOption[]) => string | undefined;

/** The stem's sentences (each its clauses joined) before the question, and the question. */
function split(stem: string[][]): { before: string[]; question: string } {
  const sentences = stem.map((c) => c.join(' '));
  return { before: sentences.slice(0, -1), question: sentences.at(-1) as string };
}

/** The stem as bullets, each sentence's clauses nested, then the options a list of their own. */
const clauseOutline: Builder = (stem, options) =>
  stem.some((c) => c.length > 1)
    ? `${stem.flatMap((c) => clauseBullets(c)).join('\n')}\n\n${lines(options, '- ').join('\n')}`
    : undefined;

/** The stem's sentences as bullets, the options nested under the question, a whole sentence. */
const optionsUnderQuestion: Builder = (stem, options) => {
  const { before, question } = split(stem);
  return [...before.map((s) => `- ${s}`), `- ${question}`, ...lines(options, '  - ')].join('\n');
};

const BUILDERS: Record<Level, [string, Builder][]> = {
  1: [
    // The lightest, under a quoted one-line stem (L2's "> "): one more blank line before the options.
    ['stem-apart', (s, o) => `${flat(s)}\n\n\n${lines(o).join('\n')}`],
    ['spacing', (s, o) => `${flat(s)}\n\n\n${lines(o).join('\n\n')}`],
    ['indent', (s, o) => `${flat(s)}\n\n${lines(o, '   ').join('\n')}`],
    [
      'stem-lines',
      (s, o) =>
        s.length > 1 ? `${s.map((c) => c.join(' ')).join('\n')}\n\n${lines(o).join('\n')}` : undefined,
    ],
  ],
  2: [
    ['bullets', (s, o) => `${flat(s)}\n\n${lines(o, '- ').join('\n')}`],
    ['quote', (s, o) => `${s.map((c) => `> ${c.join(' ')}`).join('\n')}\n\n${lines(o).join('\n')}`],
    [
      'bold-question',
      (s, o) => {
        const { before, question } = split(s);
        return [
          ...(before.length > 0 ? [before.join(' '), ''] : []),
          `**${question}**`,
          '',
          ...lines(o),
        ].join('\n');
      },
    ],
  ],
  3: [
    ['options-under-question', optionsUnderQuestion],
    ['clause-outline', clauseOutline],
  ],
  4: [
    ['quoted-list', (s, o) => [...s.map((c) => `> ${c.join(' ')}`), '>', ...lines(o, '> - ')].join('\n')],
    [
      'quoted-outline',
      (s, o) =>
        (optionsUnderQuestion(s, o) as string)
          .split('\n')
          .map((l) => `> ${l}`)
          .join('\n'),
    ],
  ],
  // Only hard-wrapped (E69), the whole block at one width as a fixed-width paste wraps it: never
  // narrower than its longest option line, which stays whole (review v6: arc-challenge-22's stem
  // broken at 15 characters beside 57-character options; E77).
  5: Array.from({ length: FENCE_WIDTH_COUNT }, (_, i): [string, Builder] => [
    'fence-wrapped',
    (s, o) => {
      const { before, question } = split(s);
      const widest = Math.max(...lines(o).map((l) => l.length));
      const w = fenceWidths(s.map((c) => c.join(' '))).filter((x) => x >= widest)[i];
      const stem = w === undefined ? undefined : fencedWrap(before, question, w)?.split('\n').slice(0, -1);
      return stem && [...stem, '', ...lines(o), '```'].join('\n');
    },
  ]),
};

/** Every layout of the item at the level's kinds. */
function choiceLayouts(seed: ChoiceSeed, level: Level): Layout[] {
  const stem = sentenceClauses(seed.stem);
  if (stem.length === 0) return [];
  const out: Layout[] = [];
  for (const [subtype, build] of BUILDERS[level]) {
    const text = build(stem, seed.options);
    if (text !== undefined && !out.some((l) => l.text === text)) out.push({ text, subtype });
  }
  return out;
}

/** Format's rule for a choice seed: a layout of the whole item, the options in order. */
export function choiceFormatRules({
  seed,
  level,
  rng,
  target,
}: RulesInput<ChoiceSeed>): RulesMade | undefined {
  const layouts = choiceLayouts(seed, level);
  const kept =
    level === 1
      ? noHeavierThan(layouts, choiceLayouts(seed, 2), seed.question)
      : level === 5
        ? heavierThanAll(
            layouts,
            lowerLayouts((l) => choiceLayouts(seed, l), 5),
            seed.question,
          )
        : layouts;
  const layout = chooseLayout(kept, target, rng);
  return layout && { text: layout.text, name: `choice-${layout.subtype}`, subtype: layout.subtype };
}
