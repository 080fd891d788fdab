import { DEFAULT_MAX_REPEATS, repeatsAboveLimit } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { suiteOf } from '../../run/suite.js';
import type { Suite, SuiteTest } from '../../run/types.js';
import { linesOfTextFile } from '../../util/text-file.js';

/**
 * The plain suite format: JSONL, one test per line, `{"id": "...", "prompt": "...", "system"?: "...",
 * "repeats"?: n, "meta"?: {...}}`. Protocol suites use the same shape with their fields in `meta`.
 * A line's `repeats` wins over the run's and may not pass `maxRepeats`
 * (docs/decisions.md#e38-repeats-are-bounded-a-lines-own-wins).
 */
export function loadPlainSuite(file: string, maxRepeats = DEFAULT_MAX_REPEATS): Suite {
  const tests: SuiteTest[] = [];
  const seen = new Map<string, number>();
  try {
    // Read a line at a time: a large suite's text is never held whole beside its tests.
    for (const [raw, line] of linesOfTextFile(file)) {
      if (raw.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (e) {
        throw new InputError(`not valid JSON (${(e as Error).message})`, { file, line });
      }
      const test = parseTest(value, { file, line }, maxRepeats);
      const earlier = seen.get(test.id);
      if (earlier !== undefined)
        throw new InputError(`duplicate id '${test.id}' (first on line ${earlier})`, {
          file,
          line,
          field: 'id',
        });
      seen.set(test.id, line);
      tests.push(test);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read suite: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file });
  }
  if (tests.length === 0) throw new InputError('suite has no tests', { file });
  return suiteOf(file, tests);
}

const TEST_FIELDS: ReadonlySet<string> = new Set(['id', 'prompt', 'system', 'repeats', 'meta']);

function parseTest(value: unknown, where: { file: string; line: number }, maxRepeats: number): SuiteTest {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError('each line must be a JSON object', where);
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!TEST_FIELDS.has(key))
      throw new InputError('unknown field (expected id, prompt, system, repeats, meta)', {
        ...where,
        field: key,
      });
  }
  if (typeof v.id === 'number') v.id = String(v.id);
  if (typeof v.id !== 'string' || v.id === '')
    throw new InputError('must be a non-empty string', { ...where, field: 'id' });
  if (typeof v.prompt !== 'string' || v.prompt === '') {
    throw new InputError('must be a non-empty string', { ...where, field: 'prompt' });
  }
  if (v.system !== undefined && typeof v.system !== 'string') {
    throw new InputError('must be a string', { ...where, field: 'system' });
  }
  if (v.repeats !== undefined && !(Number.isInteger(v.repeats) && (v.repeats as number) > 0)) {
    throw new InputError('must be a positive integer', { ...where, field: 'repeats' });
  }
  if (typeof v.repeats === 'number' && v.repeats > maxRepeats)
    throw new InputError(repeatsAboveLimit(v.repeats, maxRepeats), { ...where, field: 'repeats' });
  if (v.meta !== undefined && (typeof v.meta !== 'object' || v.meta === null || Array.isArray(v.meta))) {
    throw new InputError('must be an object', { ...where, field: 'meta' });
  }
  return {
    id: v.id,
    prompt: v.prompt,
    ...(v.system !== undefined ? { system: v.system as string } : {}),
    ...(v.repeats !== undefined ? { repeats: v.repeats as number } : {}),
    ...(v.meta !== undefined ? { meta: v.meta } : {}),
  };
}
