import type { McOption } from '../../../../data/mc/mc-item.js';
import type { PyRandom } from '../../../../util/random.js';
import type { MeasureOptions } from '../../severity/band-tables.js';
import { measureSeverity } from '../../severity/measure.js';
import type { ChoiceSeed, Level } from '../../types.js';
import type { RulesInput, RulesMade } from '../contract.js';
import { formatSeverity } from './severity.js';

/**
 * Structural/Format on a multiple-choice seed (docs/ladder-families.md#answer-types): the stem's
 * words kept in order, every option kept whole on a line of its own with its letter (the answer
 * gate's rule), the layout changed by level as for numbers: L1 whitespace only, L2 one device
 * (bulleted options), L3 nested bullets with the stem hard-wrapped, L4 a narrow quote block, L5 a
 * table of the stem and the options with the options **reordered and relettered, the key remapped**
 * (subtype `table+reordered`; the test records the options as shown and the key's new letter).
 * Candidates are measured and kept only at the requested level, several widths tried.
 */

interface ChoiceLayout {
  text: string;
  subtype: string;
  /** Present when the options were moved: as shown, and the key's letter there. */
  reordered?: { options: McOption[]; key: string };
}

const lines = (options: readonly McOption[], prefix = '') =>
  options.map((o) => `${prefix}${o.letter}. ${o.text}`);

/** The stem's words in lines of at most `width` characters. */
function wrapped(stem: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of stem.split(/\s+/).filter((w) => w !== '')) {
    // A line never opens with a lone capital and a stop ("C."): it would read as an option's letter.
    const letterLike = /^\(?[A-Z][.)]\)?$/.test(word);
    if (line !== '' && line.length + 1 + word.length > width && !letterLike) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out;
}

/** The options in a new order (a rotation the rng picks, never the same order), relettered A, B, ... */
export function reorderedOptions(
  options: readonly McOption[],
  key: string,
  rng: PyRandom,
): { options: McOption[]; key: string } {
  const shift = 1 + rng.randrange(options.length - 1);
  const moved = options.map((_, i) => options[(i + shift) % options.length] as McOption);
  const relettered = moved.map((o, i) => ({ letter: options[i]?.letter as string, text: o.text }));
  const keyText = options.find((o) => o.letter === key)?.text;
  return { options: relettered, key: relettered.find((o) => o.text === keyText)?.letter as string };
}

const WIDTHS = [80, 70, 60, 50, 45, 40, 35, 30, 25, 20, 16, 12];

/** The stem wrapped at `width`, each line with `first` (the first line) or `rest` before it and `end` after it. */
function stemLines(stem: string, width: number, first: string, rest: string, end = ''): string {
  return wrapped(stem, width)
    .map((l, i) => `${i === 0 ? first : rest}${l}${end}`)
    .join('\n');
}

/** Every layout of the level's device, at every width. */
function layouts(seed: ChoiceSeed, level: Level, rng: PyRandom): ChoiceLayout[] {
  const { stem, options } = seed;
  const each = (make: (w: number) => string, subtype: string) =>
    WIDTHS.map((w) => ({ text: make(w), subtype }));
  switch (level) {
    case 1:
      return [
        { text: `${stem}\n\n\n${lines(options).join('\n\n')}`, subtype: 'spacing' },
        { text: `${stem}\n\n${lines(options, '   ').join('\n')}`, subtype: 'indent' },
        { text: `\n${stem}\n\n\n${lines(options, '  ').join('\n\n')}\n`, subtype: 'spacing+indent' },
        ...each((w) => `${stemLines(stem, w, '', '')}\n\n${lines(options).join('\n')}`, 'line-breaks'),
      ];
    case 2:
      return [
        { text: `${stem}\n\n${lines(options, '- ').join('\n')}`, subtype: 'bullets' },
        { text: `${stem}\n\n${lines(options, '* ').join('\n')}`, subtype: 'bullets' },
        { text: `> ${stem}\n\n${lines(options).join('\n')}`, subtype: 'quote' },
        ...each(
          (w) => `${stemLines(stem, w, '', '')}\n\n${lines(options, '- ').join('\n')}`,
          'bullets+breaks',
        ),
      ];
    case 3:
      return [
        ...each(
          (w) => `${stemLines(stem, w, '- ', '  ')}\n${lines(options, '  - ').join('\n')}`,
          'nested-bullets',
        ),
        ...each(
          (w) => `${stemLines(stem, w, '- ', '  - ')}\n${lines(options, '    - ').join('\n')}`,
          'nested-bullets',
        ),
      ];
    case 4:
      return [
        ...each(
          (w) => `${stemLines(stem, w, '> ', '> ', ' |')}\n>\n${lines(options, '> - ').join('\n')}`,
          'quote-wrap',
        ),
        ...each(
          (w) => `${stemLines(stem, w, '> ', '> ')}\n>\n${lines(options, '> - ').join('\n')}`,
          'quote-wrap',
        ),
      ];
    case 5: {
      const moved = reorderedOptions(options, seed.gold, rng);
      // An empty header cell: a table adds no word to the item.
      const table = (w: number) =>
        `|  |\n| --- |\n${[...wrapped(stem, w), ...lines(moved.options)].map((r) => `| ${r} |`).join('\n')}`;
      return each(table, 'table+reordered').map((l) => ({ ...l, reordered: moved }));
    }
  }
}

/** A layout measured at `level` (one drawn among those that are), or undefined when none lands there. */
function choiceFormat(
  seed: ChoiceSeed,
  level: Level,
  rng: PyRandom,
  measure: Pick<MeasureOptions, 'bands' | 'genericFallback'> = {},
): ChoiceLayout | undefined {
  const fits = layouts(seed, level, rng).filter(
    (l) => measureSeverity({ severity: formatSeverity }, seed.question, l.text, measure).level === level,
  );
  return fits.length === 0 ? undefined : fits[rng.randrange(fits.length)];
}

/** Format's rule for a choice seed: a layout of the whole item, its options reordered at L5. */
export function choiceFormatRules({
  seed,
  level,
  rng,
  target,
}: RulesInput<ChoiceSeed>): RulesMade | undefined {
  const layout = choiceFormat(seed, level, rng, target.opts);
  return (
    layout && {
      text: layout.text,
      name: `choice-${layout.subtype}`,
      subtype: layout.subtype,
      ...(layout.reordered && { reordered: layout.reordered }),
    }
  );
}
