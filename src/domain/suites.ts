/** A suite and its tests, as built by a protocol or read from a file, and as the store keeps them. */

/**
 * One test of a suite: the plain form is `{id, prompt, system?}`; protocols add `meta`, typed as
 * the protocol's own where it builds the test, and read back from a store through the protocol's
 * schema (a stored suite's meta is `unknown` until then).
 */
export interface SuiteTest<Meta = unknown> {
  id: string;
  prompt: string;
  system?: string;
  /** Calls per model for this test, overriding the run's `repeats` (the ladder asks baselines 3 times). */
  repeats?: number;
  /** Output-token cap of this test's calls, overriding the run's `params.maxTokens` (the ladder's caps). */
  maxTokens?: number;
  /**
   * How some models, by label, are asked this test instead: their own system prompt or output cap
   * (the ladder's answer format per model). Part of the suite, so what each model was asked is on record.
   */
  byModel?: Record<string, { system?: string; maxTokens?: number }>;
  /** Protocol fields (family, level, gold, gates...) kept verbatim in the store, as JSON. */
  meta?: Meta;
}

/** A suite of tests; a protocol that builds one keeps its tests' type (`Suite<SagoTest>`). */
export interface Suite<Test extends SuiteTest = SuiteTest> {
  /** Where it came from (file path or protocol name). */
  name: string;
  /** sha256 of the suite's canonical JSONL: identifies it in the store. */
  hash: string;
  tests: Test[];
}

/** The K-th (`index`, from 1) of `count` parts of a suite (docs/decisions.md#e19-shards-deal-tests-round-robin). */
export interface Shard {
  index: number;
  count: number;
}
