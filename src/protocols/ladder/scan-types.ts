/**
 * The contract of a defect scan over a ladder suite (issue 36 item 2). Its own module so a family's
 * scans can live in the family's folder (families/<id>/scans.ts) and `suite-scans.ts` lists them.
 */
import type { LadderTest } from './types.js';

export interface ScanHit {
  seedId: string;
  family: string;
  level: number | undefined;
  text: string;
  /** What the scan found, in words. */
  why: string;
}

export interface Scan {
  id: string;
  /** What it finds. */
  title: string;
  /** The hit for one test, or undefined when the test is clean. */
  check(test: LadderTest): string | undefined;
  /**
   * Hits only the whole suite shows: one level of a seed against another (F L5 against its L4), a
   * frame in too many tests (KB L4); when the scan has such a rule.
   */
  checkSuite?(tests: readonly LadderTest[]): { test: LadderTest; why: string }[];
}
