import { InputError } from '../errors.js';

/**
 * A dataset on the Hugging Face Hub as `--dataset` names it (docs/datasets.md#spec):
 *
 *     hf:OWNER/NAME[?config=CONFIG][&split=SPLIT][&revision=REVISION][&file=PATH]
 *
 * The query form matches the model specs' options (`gguf:FILE?ctx=4096`) and says what each part
 * is, so a config or revision with `@`, `:` or `/` in it (`refs/convert/parquet`) needs no escaping
 * rules of its own. `config` is the Hub's subset (lm-evaluation-harness `dataset_name`), `split`
 * the split (`test`, `validation`...), `revision` a branch, tag or commit (default `main`), and
 * `file` one data file of the repository, for repositories whose files follow no split naming.
 */

export interface HfDatasetSpec {
  /** `OWNER/NAME`. */
  repo: string;
  config?: string;
  split?: string;
  revision?: string;
  file?: string;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const KEYS = ['config', 'split', 'revision', 'file'] as const;
const USAGE = 'expected hf:OWNER/NAME[?config=C][&split=S][&revision=R][&file=PATH]';

export function isHfDatasetSpec(text: string): boolean {
  return text.startsWith('hf:');
}

export function parseHfDatasetSpec(text: string): HfDatasetSpec {
  if (!isHfDatasetSpec(text)) throw new InputError(`'${text}' is not an hf: dataset`, { field: 'dataset' });
  const body = text.slice(3);
  const q = body.indexOf('?');
  const repo = q < 0 ? body : body.slice(0, q);
  const parts = repo.split('/');
  if (parts.length !== 2 || !parts.every((p) => SEGMENT.test(p) && !p.includes('..')))
    throw new InputError(`'${text}' does not name a Hub dataset repository; ${USAGE}`, { field: 'dataset' });
  const spec: HfDatasetSpec = { repo };
  if (q < 0) return spec;
  for (const pair of body.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1));
    if (!(KEYS as readonly string[]).includes(key))
      throw new InputError(`'${text}': unknown option '${key}' (expected ${KEYS.join(', ')})`, {
        field: 'dataset',
      });
    if (value === '') throw new InputError(`'${text}': '${key}' needs a value`, { field: 'dataset' });
    if (spec[key as (typeof KEYS)[number]] !== undefined)
      throw new InputError(`'${text}': '${key}' is given twice`, { field: 'dataset' });
    if (key === 'file' && value.split('/').some((s) => s === '..' || s === ''))
      throw new InputError(`'${text}': file must be a path inside the repository`, { field: 'dataset' });
    spec[key as (typeof KEYS)[number]] = value;
  }
  return spec;
}

/** The spec written back in its one canonical form (options in a fixed order). */
export function formatHfDatasetSpec(spec: HfDatasetSpec): string {
  const query = KEYS.filter((k) => spec[k] !== undefined)
    .map((k) => `${k}=${encodeURIComponent(spec[k] as string).replace(/%2F/g, '/')}`)
    .join('&');
  return `hf:${spec.repo}${query ? `?${query}` : ''}`;
}
