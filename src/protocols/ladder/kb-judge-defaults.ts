/**
 * The KB judge's defaults that `ladder.*` settings declare (docs/fidelity.md L21-L26): numbers only,
 * so the config schema (loaded by every command) does not load the judge.
 */

/** A score and a one-sentence reason fit easily; a judge that rambles is cut, then read as unparsable. */
export const KB_JUDGE_MAX_TOKENS = 256;
/** The reference judge's cap (`modules/eval_kb.py:167`), sent under `kbScoring: reference`. */
export const REFERENCE_KB_JUDGE_MAX_TOKENS = 128;
/** docs/method.md: a response "recognises the boundary" at a score of 0.75 or more (the code used 0.80). */
export const DEFAULT_RECOGNIZE_THRESHOLD = 0.75;
/** The reference: a KB response is correct at a score of 0.80 or more (`experiment/run_sut_model.py:127`). */
export const REFERENCE_RECOGNIZE_THRESHOLD = 0.8;
