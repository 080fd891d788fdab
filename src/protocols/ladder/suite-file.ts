import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FillTest } from '../../check/types.js';
import { InputError } from '../../errors.js';
import { canonicalJson, hashOf } from '../../util/hash.js';
import { readTextFile } from '../../util/text-file.js';
import { LadderTestSchema } from './test-meta.js';
import { KB_TYPES, type LadderTest } from './types.js';

/**
 * The ladder suite file: JSONL, one LadderTest per line, keys in canonical (sorted) order, so the
 * same tests always give the same bytes. docs/method.md lists what a line holds; docs/ladder-suite.md#suite-file.
 */

/** The content hash that is a test's id: what it asks (seed, family, requested level, text). */
export function ladderTestId(t: Pick<LadderTest, 'seedId' | 'family' | 'requestedLevel' | 'text'>): string {
  return hashOf({ seedId: t.seedId, family: t.family, requestedLevel: t.requestedLevel, text: t.text }).slice(
    0,
    16,
  );
}

/** The suite as JSONL text: one canonical JSON object per line, newline-terminated. */
export function ladderSuiteJsonl(tests: readonly LadderTest[]): string {
  return tests.map((t) => `${canonicalJson(t)}\n`).join('');
}

/**
 * Writes text to a file through a temporary file in the same directory and a rename, so a reader
 * (or a run killed half way) never sees a partly written file, and a failure leaves nothing behind.
 */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export function writeLadderSuite(path: string, tests: readonly LadderTest[]): void {
  writeFileAtomic(path, ladderSuiteJsonl(tests));
}

/**
 * Reads a ladder suite. Every problem — bad JSON, a missing or mistyped field, a baseline that is
 * not level 0, a KB test with a numeric gold, an id that is not the test's content hash, a
 * duplicate id — is an InputError naming the file, the line and the field.
 */
export function readLadderSuite(file: string): LadderTest[] {
  let content: string;
  try {
    content = readTextFile(file);
  } catch (e) {
    throw new InputError(`cannot read suite: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file });
  }
  const tests: LadderTest[] = [];
  const seen = new Map<string, number>();
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new InputError(`not valid JSON (${(e as Error).message})`, { file, line });
    }
    const parsed = LadderTestSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      let field = (issue?.path ?? []).map(String).join('.') || undefined;
      let message = issue?.message ?? 'invalid ladder test';
      if (issue?.code === 'unrecognized_keys') {
        field = [...issue.path.map(String), issue.keys[0] ?? ''].join('.');
        message = 'unknown field';
      }
      throw new InputError(message, { file, line, field });
    }
    const test = parsed.data as LadderTest;
    const where = (f: string) => ({ file, line, field: f });
    if ((test.family === 'baseline') !== (test.requestedLevel === 0))
      throw new InputError('a baseline test has level 0, and only a baseline does', where('requestedLevel'));
    if ((test.family === 'KB') !== (test.gold === 'unanswerable'))
      throw new InputError("gold is 'unanswerable' for KB tests and a number otherwise", where('gold'));
    if (
      test.family === 'KB' &&
      test.subtype !== undefined &&
      !(KB_TYPES as readonly string[]).includes(test.subtype)
    )
      throw new InputError(
        `unknown boundary type (expected one of ${KB_TYPES.join(', ')})`,
        where('subtype'),
      );
    const expected = ladderTestId(test);
    if (test.id !== expected)
      throw new InputError(
        `id is not the test's content hash (expected ${expected}; was the text edited?)`,
        where('id'),
      );
    const earlier = seen.get(test.id);
    if (earlier !== undefined) throw new InputError(`duplicate test (first on line ${earlier})`, where('id'));
    seen.set(test.id, line);
    tests.push(test);
  }
  if (tests.length === 0) throw new InputError('the ladder suite has no tests', { file });
  return tests;
}

/**
 * The suite's fill as `waver plan` sizes from it (docs/plan.md#suite): each test's seed, family
 * (`baseline` for the baseline) and measured level, asked `baselineRepeats` times for a baseline
 * and `repeats` for the rest, as the run asks them (run.ts).
 */
export function ladderSuiteFill(
  tests: readonly LadderTest[],
  asked: { repeats: number; baselineRepeats: number },
): FillTest[] {
  return tests.map((t) => ({
    cluster: t.seedId,
    scope: t.family,
    level: t.family === 'baseline' ? 0 : t.measuredLevel,
    repeats: t.family === 'baseline' ? asked.baselineRepeats : asked.repeats,
  }));
}
