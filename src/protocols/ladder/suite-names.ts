/**
 * The names of the suites a ladder run writes, apart from the code that writes them: the
 * protocol's contract (index.ts), the report and check name them without loading the run engine.
 */

/** The systems under test's answers. */
export const LADDER_TESTS_SUITE = 'ladder/tests';
/** The KB judge's verdicts on Knowledge Boundary answers. */
export const KB_JUDGE_SUITE = 'ladder/kb-judge';
/** The answer judge's verdicts on short answers normalisation cannot decide. */
export const ANSWER_JUDGE_SUITE = 'ladder/answer-judge';
/** The model generator's perturbations. */
export const GENERATOR_SUITE = 'ladder/generator';

export const MODEL_GATE_NAMES = ['nli', 'meaning', 'epistemic'] as const;
export type ModelGate = (typeof MODEL_GATE_NAMES)[number];
/** Each model gate's judge suite. */
export const GATE_SUITES: Record<ModelGate, string> = {
  nli: 'ladder/gate-nli',
  meaning: 'ladder/gate-meaning',
  epistemic: 'ladder/gate-epistemic',
};
