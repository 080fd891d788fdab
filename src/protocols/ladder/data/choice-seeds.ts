import type { McItem } from '../../../data/mc/mc-item.js';
import { mcItemsFromRecords } from '../../../data/mc/mc-records.js';
import type { DataRecord } from '../../../data/records.js';
import { type ChoiceSeed, choiceQuestion } from '../types.js';
import type { LadderFields } from './fields.js';

/**
 * Multiple-choice seeds (docs/ladder.md#answer-types): the shared item model (src/data/mc), whose
 * loaders check every item (two or more options, one letter each, the key among them) before a
 * seed is made. The seed's question is the stem with its lettered options, as the system under
 * test reads it; its gold is the key's letter.
 */

export function choiceSeedOf(item: McItem): ChoiceSeed {
  const options = item.options.map((o) => ({ letter: o.letter, text: o.text }));
  return {
    id: item.id,
    answerType: 'choice',
    question: choiceQuestion(item.stem, options),
    stem: item.stem,
    options,
    gold: item.key,
    source: item.source,
  };
}

/**
 * Choice seeds from records of any file or Hub dataset: `ladder.fields` `question` (the stem),
 * `options` and `key`, else the shared fallbacks (`stem`/`question`, `options`/`choices`,
 * `key`/`answerKey`/`answer`/`label`; docs/datasets.md#fields).
 */
export function choiceSeedsFromRecords(
  records: readonly DataRecord[],
  opts: { prefix: string; label: string; fields?: LadderFields },
): ChoiceSeed[] {
  const f = opts.fields;
  const mapped =
    f && (f.question !== undefined || f.options !== undefined || f.key !== undefined || f.id !== undefined);
  const items = mcItemsFromRecords(records, {
    prefix: opts.prefix,
    category: 'uncategorised',
    sourcePrefix: opts.label,
    mapping: 'ladder.fields',
    ...(mapped && {
      fields: {
        ...(f.question !== undefined && { stem: f.question }),
        ...(f.options !== undefined && { options: f.options }),
        ...(f.key !== undefined && { key: f.key }),
        ...(f.id !== undefined && { id: f.id }),
      },
    }),
  });
  return items.map(choiceSeedOf);
}
