import { InputError } from '../../errors.js';
import { cleanText, type OpenPrompt, parseJsonFile, readDataFile, stringField } from './open-prompt.js';

/**
 * The 805 AlpacaEval instructions. Their `output` fields are one example model's answers, not
 * references, so only `instruction` is read. Path relative to the data directory.
 */
export const ALPACA_FILE = 'alpaca/alpaca_eval_example_outputs.json';

/** A JSON array of `{instruction, output, ...}`. Id: `alpaca-<index>` (0-based). */
export function loadAlpaca(path: string, label = ALPACA_FILE): OpenPrompt[] {
  const text = readDataFile(path, 'alpaca');
  const value = parseJsonFile(text, path);
  if (!Array.isArray(value)) throw new InputError('expected a JSON array of {instruction}', { file: path });
  return value.flatMap((item, index) => {
    // Instructions are kept as written (line breaks can be part of the request).
    const instruction = stringField(item, 'instruction', { file: `${path}[${index}]` }).trim();
    if (cleanText(instruction) === '') return [];
    return [{ id: `alpaca-${index}`, dataset: 'alpaca', text: instruction, source: { file: label, index } }];
  });
}
