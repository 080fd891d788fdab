import { InputError } from '../../errors.js';
import type { OpenReader } from '../named-dataset.js';
import { type DataRecord, pick } from '../records.js';
import { cleanText, type OpenPrompt } from './open-prompt.js';

/** A named dataset's prompts from its Hub rows (the Hub's columns, not the local files'). */
export function openPromptsFromHub(
  dataset: string,
  reader: OpenReader,
  records: readonly DataRecord[],
): OpenPrompt[] {
  return records.flatMap((r) => {
    const raw = pick(r.value, reader.hub.prompt);
    if (typeof raw !== 'string')
      throw new InputError('must be a string', {
        file: r.where.file,
        ...(r.where.line !== undefined && { line: r.where.line }),
        field: reader.hub.prompt,
      });
    const text = reader.hub.keepLines ? raw.trim() : cleanText(raw);
    if (cleanText(text) === '') return [];
    const references = reader.hub.references?.(r.value) ?? [];
    const aliases = reader.hub.aliases?.(r.value) ?? [];
    return [
      {
        id: reader.hub.id(r.value, r.where.index),
        dataset,
        text,
        ...(references.length > 0 && { references }),
        ...(aliases.length > 0 && { aliases }),
        source: { file: r.where.file, index: r.where.index },
      },
    ];
  });
}
