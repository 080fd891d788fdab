/**
 * The accepted tests of one family file of the default suite (at one level, or all), as its review tests
 * read them: each scans every line of a level, so another blind draw cannot meet the defect.
 */
import { readFileSync } from 'node:fs';
import { GRADE_SCHOOL_SEEDS } from '../../data/grade-school.js';

export interface WrittenTest {
  seed: string;
  level: number;
  text: string;
}

/**
 * `file` is the family's JSONL beside the loader (`kb.jsonl`); lines left out (no text) are
 * skipped; every level when `level` is not given.
 */
export function writtenTests(file: string, level?: number): WrittenTest[] {
  return readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Partial<WrittenTest> & { seed: string; level: number })
    .filter((l): l is WrittenTest => l.text !== undefined && (level === undefined || l.level === level));
}

/** Each built-in seed's original question by its id: what a review test compares a line with. */
export const ORIGINAL_QUESTIONS: ReadonlyMap<string, string> = new Map(
  GRADE_SCHOOL_SEEDS.map((s) => [s.id, s.question]),
);
