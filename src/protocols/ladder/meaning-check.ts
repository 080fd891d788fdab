import type { LadderTest } from './types.js';

/**
 * Whether a suite's meaning was checked: the model gates (NLI, meaning judge, epistemic judge;
 * docs/ladder-suite.md#model-gates) are the only ones that read what a candidate says. Without a
 * judge they are recorded `not-run` and the candidate is admitted on the offline gates alone, so
 * the admission table, the build's summary line, the report header and the JSON say "meaning not
 * verified" (docs/ladder-suite.md#meaning-not-verified).
 */

export const MEANING_GATES = ['nli', 'meaning', 'epistemic'] as const;

export interface MeaningCheck {
  /** Perturbed tests in the suite. */
  tests: number;
  /** Those admitted with at least one of their family's meaning gates not run. */
  notRun: number;
  /** Which meaning gates were not run, in pipeline order. */
  gates: string[];
}

export function meaningCheck(tests: readonly LadderTest[]): MeaningCheck {
  let n = 0;
  let notRun = 0;
  const gates = new Set<string>();
  for (const t of tests) {
    if (t.family === 'baseline') continue;
    n++;
    const missing = t.gates.filter(
      (g) => g.verdict === 'not-run' && (MEANING_GATES as readonly string[]).includes(g.gate),
    );
    if (missing.length > 0) notRun++;
    for (const g of missing) gates.add(g.gate);
  }
  return { tests: n, notRun, gates: MEANING_GATES.filter((g) => gates.has(g)) };
}

/** The label when some test's meaning was not checked; undefined when every meaning gate ran. */
export function meaningCaveat(c: MeaningCheck): string | undefined {
  if (c.notRun === 0) return undefined;
  return (
    `meaning not verified: ${c.notRun} of ${c.tests} perturbed tests were admitted without their ` +
    `${c.gates.join('/')} gate (no judge ran); they passed the offline gates only`
  );
}
