/** A paraphrase cell as the results read it: scored by the letter parser, or by an imported harness's recorded verdict. */
export interface ScoredCell {
  item: string;
  phrasing: string;
  repeat: number;
  status: 'done' | 'failed';
  /** The key as this phrasing showed it. */
  key: string;
  /** The letter as given (shown lettering), or undefined when unparsed / failed. */
  given?: string;
  /** In the item's own lettering. */
  answer?: string;
  correct: boolean;
  via: string;
  reason?: string;
  reply?: string;
  error?: { kind: string; message: string };
}
