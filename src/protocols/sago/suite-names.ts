/** The suites a sago run writes besides its manifest (docs/sago.md), named apart from the code that writes them. */

/** The systems under test's responses: every prompt's baseline and variants. */
export const RESPONSES_SUITE = 'sago/responses';
/** The judge's politeness verdicts on the register variants' responses. */
export const JUDGE_SUITE = 'sago/politeness-judge';
/** The generator model's structural rewrites. */
export const GENERATOR_SUITE = 'sago/generator';
