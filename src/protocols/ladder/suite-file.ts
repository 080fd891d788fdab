import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FillTest } from '../../check/types.js';
import { InputError } from '../../errors.js';
import { canonicalJson, hashOf } from '../../util/hash.js';
import { readTextFile } from '../../util/text-file.js';
import { keepsNoAnswer } from './families/roster.js';
import { LadderTestSchema } from './test-meta.js';
import { answerTypeOf, KB_TYPES, type LadderTest } from './types.js';

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
 * A test's answer must fit its answer type (docs/ladder-suite.md#suite-file): KB's gold is
 * `unanswerable`; otherwise a number, the letter of one of its options (choice), or a short answer
 * (text), and nothing another type carries.
 */
function answerProblem(
  test: LadderTest,
  where: (field: string) => { file: string; line: number; field: string },
): void {
  const type = answerTypeOf(test);
  const fail = (field: string, message: string): never => {
    throw new InputError(message, where(field));
  };
  if (keepsNoAnswer(test.family)) {
    if (test.gold !== 'unanswerable') fail('gold', "gold is 'unanswerable' for KB tests");
    if (test.options !== undefined || test.aliases !== undefined)
      fail(test.options !== undefined ? 'options' : 'aliases', 'a KB test has no answer to list');
    return;
  }
  if (type !== 'choice' && test.options !== undefined)
    fail('options', `only a choice test has options (this is ${type})`);
  if (type !== 'text' && test.aliases !== undefined)
    fail('aliases', `only a text test has aliases (this is ${type})`);
  if (type === 'number' && typeof test.gold !== 'number')
    fail('gold', "gold is a number for a number test ('unanswerable' only for KB)");
  if (type === 'choice') {
    const options = test.options ?? fail('options', 'a choice test lists its options');
    const letters = options.map((o) => o.letter);
    const twice = letters.find((l, i) => letters.indexOf(l) !== i);
    if (twice !== undefined) fail('options', `option letter '${twice}' appears twice`);
    if (!letters.includes(String(test.gold)))
      fail('gold', `gold '${test.gold}' is not the letter of one of the options (${letters.join(', ')})`);
  }
  if (type === 'text' && typeof test.gold !== 'string')
    fail('gold', 'gold is the short answer (a string) for a text test');
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
    answerProblem(test, where);
    if (
      keepsNoAnswer(test.family) &&
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
