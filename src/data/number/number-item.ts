/**
 * A problem with a numeric gold, as the number datasets hold it (GSM8K's JSONL, GSM-Symbolic's
 * templates, the ladder paper's seed CSV): what the ladder's number seeds are made of
 * (docs/ladder.md#answer-types).
 */
export interface NumberItem {
  /** Stable id, e.g. `gsm8k-test-473`, `gsm-symbolic-0`. */
  id: string;
  question: string;
  gold: number;
  /** The worked solution when the dataset has one (GSM8K's `answer`, with its `<<a*b=c>>` calculations). */
  solution?: string;
  /** Where it came from (dataset and index). */
  source: string;
}
