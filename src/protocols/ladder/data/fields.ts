/**
 * Which fields of a record hold a ladder seed (`ladder.fields`, `--fields`; docs/datasets.md#fields):
 * dotted paths reach into objects.
 */
export interface LadderFields {
  /** Default: the first of `question`, `problem`, `prompt` the first record has (choice: `stem`, `question`). */
  question?: string;
  /**
   * number: a worked solution ending `#### <gold>`, or the number itself (default `answer`, else
   * `solution`); text: the answer or a list of answers (default `answer`, `answers`, `gold`).
   */
  answer?: string;
  /** A field holding the gold itself (wins over `answer`). */
  gold?: string;
  /** choice: the options (default `options`, else `choices`, else letter columns A, B, ...). */
  options?: string;
  /** choice: the key, a letter, an option's label or a 0-based index (default `key`, `answerKey`, `answer`, `label`). */
  key?: string;
  /** text: more accepted answers (default the record's `aliases`, when it has them). */
  aliases?: string;
  /** Default: none (the record's 0-based position is the id). */
  id?: string;
}

export const QUESTION_GUESSES = ['question', 'problem', 'prompt'] as const;
