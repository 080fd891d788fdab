/**
 * The names of the suites a paraphrase run writes, apart from the code that writes them: the
 * protocol's contract (index.ts), the report and check name them without loading the run engine.
 */

/** The systems under test's answers, one test per item x phrasing. */
export const ITEMS_SUITE = 'paraphrase/items';
/** The generator's rewordings of each item (reword.ts). */
export const REWORD_SUITE = 'paraphrase/reword';
