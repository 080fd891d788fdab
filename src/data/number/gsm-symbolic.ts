import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../../errors.js';
import { readTextFile } from '../../util/text-file.js';
import { goldAfterHashes, readGsm8k } from './gsm8k.js';
import type { NumberItem } from './number-item.js';

/**
 * GSM-Symbolic templates (apple/ml-gsm-symbolic): one JSON file per template, `NNNN.json`, whose
 * `id_orig` is the 0-based line of the GSM8K test record it was built from. The ladder paper's
 * seeds are those 100 original problems, not the symbolic instances (docs/datasets.md#catalog),
 * so a seed is the GSM8K question and gold the template points to.
 */

export interface GsmSymbolicOptions {
  /**
   * GSM8K `test.jsonl`: when given, question and gold are read from its line `id_orig` (the
   * recipe); otherwise from the template's own `question`/`answer`, which carry the same text.
   */
  gsm8kTest?: string;
}

/**
 * The folder of template files: `dir` itself when it holds `NNNN.json` files, else its
 * `templates/symbolic` or `symbolic` subfolder (so the dataset root works too).
 */
export function templatesFolder(dir: string): string {
  for (const candidate of [join(dir, 'templates', 'symbolic'), join(dir, 'symbolic'), dir]) {
    if (existsSync(candidate) && statSync(candidate).isDirectory() && templateFiles(candidate).length > 0)
      return candidate;
  }
  throw new InputError('no GSM-Symbolic template files (NNNN.json) here or in templates/symbolic', {
    file: dir,
  });
}

function templateFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort();
}

/** Seeds `gsm-symbolic-<id_shuffled>` from a templates folder, in template order. */
export function loadGsmSymbolic(dir: string, opts: GsmSymbolicOptions = {}): NumberItem[] {
  const folder = templatesFolder(dir);
  const gsm8k = opts.gsm8kTest ? readGsm8k(opts.gsm8kTest) : undefined;
  const seen = new Map<number, string>();
  return templateFiles(folder).map((name) => {
    const file = join(folder, name);
    let value: unknown;
    try {
      value = JSON.parse(readTextFile(file));
    } catch (e) {
      throw new InputError(`not valid JSON (${(e as Error).message})`, { file });
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new InputError('a template must be a JSON object', { file });
    const t = value as Record<string, unknown>;
    const idOrig = t.id_orig;
    if (idOrig === undefined)
      throw new InputError('missing id_orig (the GSM8K test line the template was built from)', {
        file,
        field: 'id_orig',
      });
    if (!Number.isInteger(idOrig) || (idOrig as number) < 0)
      throw new InputError(`id_orig must be a non-negative integer, got ${JSON.stringify(idOrig)}`, {
        file,
        field: 'id_orig',
      });
    const orig = idOrig as number;
    const other = seen.get(orig);
    if (other !== undefined)
      throw new InputError(`id_orig ${orig} is also the id_orig of ${other}`, { file, field: 'id_orig' });
    seen.set(orig, name);
    const shuffled = Number.isInteger(t.id_shuffled)
      ? (t.id_shuffled as number)
      : Number(basename(name, '.json'));

    let question: string;
    let gold: number | undefined;
    // The worked solution, so the families can name the problem's own steps (CIS) and keep to its
    // solution path (KB); docs/ladder-families.md#kb-solution-path.
    let solution: string | undefined;
    if (gsm8k) {
      const record = gsm8k[orig];
      if (!record)
        throw new InputError(
          `id_orig ${orig} is past the end of ${opts.gsm8kTest} (${gsm8k.length} records)`,
          {
            file,
            field: 'id_orig',
          },
        );
      question = record.question;
      gold = record.gold;
      solution = record.answer;
    } else {
      if (typeof t.question !== 'string' || t.question.trim() === '')
        throw new InputError('must be a non-empty string (or pass the GSM8K test file)', {
          file,
          field: 'question',
        });
      if (typeof t.answer !== 'string')
        throw new InputError('must be a string ending in "#### <number>"', { file, field: 'answer' });
      question = t.question;
      gold = goldAfterHashes(t.answer);
      solution = t.answer;
      if (gold === undefined)
        throw new InputError("no parsable gold after '####'", { file, field: 'answer' });
    }
    return {
      id: `gsm-symbolic-${shuffled}`,
      question,
      gold,
      ...(solution?.trim() && { solution }),
      source: `gsm-symbolic ${basename(folder)}/${name} (gsm8k test #${orig})`,
    };
  });
}
