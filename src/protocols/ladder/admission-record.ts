import { suiteOf } from '../../run/suite.js';
import type { Store } from '../../store/store.js';
import type { AdmissionContext } from './admission-table.js';
import type { AdmissionRow } from './types.js';

/**
 * The admission bookkeeping of a suite waver built (candidates, rejections by gate, superseded,
 * and whether the meaning gates ran), kept in the store beside the tests it admitted as a one-test
 * suite `ladder/admission` (as sago keeps its manifest), so the HTML report prints the same Table 3
 * the CLI printed. A suite read from a file has none: its report shows the
 * admitted-only table.
 */

export const ADMISSION_SUITE = 'ladder/admission';

export interface LadderAdmission {
  rows: AdmissionRow[];
  context: AdmissionContext;
}

interface StoredAdmission extends LadderAdmission {
  version: 1;
  /** The `ladder/tests` suite these counts admitted. */
  testsSuite: string;
}

/** Stores the admission of `testsSuite` (once: the same counts give the same suite). */
export function saveAdmission(store: Store, testsSuite: string, admission: LadderAdmission): void {
  const record: StoredAdmission = { version: 1, testsSuite, ...admission };
  store.suites.save(
    suiteOf(ADMISSION_SUITE, [
      {
        id: 'admission',
        prompt: `ladder admission of suite ${testsSuite}`,
        meta: record,
      },
    ]),
  );
}

/** The newest admission stored for a `ladder/tests` suite; undefined when it has none. */
export function latestAdmission(store: Store, testsSuite: string): LadderAdmission | undefined {
  const named = store.suites.list().filter((s) => s.name === ADMISSION_SUITE);
  for (const s of named.reverse()) {
    const meta = store.suites.test(s.hash, 'admission')?.meta as StoredAdmission | undefined;
    if (meta?.version === 1 && meta.testsSuite === testsSuite && Array.isArray(meta.rows))
      return { rows: meta.rows, context: meta.context ?? {} };
  }
  return undefined;
}
