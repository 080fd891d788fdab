import { z } from 'zod';
import { fieldMap, withFlag } from './setting-flags.js';

/**
 * The `fields` setting of a protocol that asks multiple-choice items (paraphrase, spread): which
 * fields of a dataset file or `hf:` dataset hold an item (docs/datasets.md#fields); dotted paths
 * reach into objects. One declaration, so the flag reads the same in every command.
 */
export function mcFieldsSetting() {
  return withFlag(
    z
      .object({
        id: z.string().min(1).optional(),
        stem: z.string().min(1).optional(),
        options: z.string().min(1).optional(),
        key: z.string().min(1).optional(),
        category: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    {
      flag: '--fields <map>',
      help: 'which record fields hold an item, e.g. stem=question,options=choices,key=answer (names: id, stem, options, key, category)',
      parse: fieldMap,
    },
  );
}
