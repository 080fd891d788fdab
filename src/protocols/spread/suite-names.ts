/**
 * The names of the suites a spread run writes, apart from the code that writes them: the
 * protocol's contract (index.ts), the report and check name them without loading the run engine.
 */

/** The systems under test's answers, one test per (template, item) cell asked. */
export const CELLS_SUITE = 'spread/cells';
/** A Thompson search's rounds (`--search`): the cells asked so far, each round's suite; the last is CELLS_SUITE. */
export const SEARCH_SUITE = 'spread/search';
