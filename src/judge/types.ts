/**
 * What a judge judged, in one shape for every protocol (docs/judges.md): a protocol lists its
 * judged items through its module's `judged` member; the labelling set, the labelling page,
 * `waver judge agreement` and the corrected estimates read only this shape and know no protocol.
 */

/** One point of a rubric, in the rubric's order (worst first for an ordered scale). */
export interface RubricLabel {
  /** The label as stored and as a CSV gives it: `0.75`, `pass`, `polite`. */
  value: string;
  /** What a labeller reads beside it. */
  description: string;
  /** A letter key on the labelling page besides its position (1, 2, ...): `p` for pass. */
  key?: string;
  /** The label as a number, for a mean score (the KB rubric's 0.75); absent on a scale without one. */
  score?: number;
  /** Counts as a positive for a share (a score that recognises the boundary, a pass). */
  positive?: boolean;
}

export interface Rubric {
  /** Names the scale: `kb-4`, `pass-fail`, `register`. */
  name: string;
  /**
   * How disagreement is weighed (docs/judges.md#agreement): `ordinal` (quadratic kappa, ordinal
   * alpha), `binary` (unweighted kappa, nominal alpha), `nominal` (unweighted kappa, nominal alpha).
   */
  scale: 'ordinal' | 'binary' | 'nominal';
  /** The question a labeller answers. */
  instructions: string;
  labels: readonly RubricLabel[];
  /** What the corrected estimates are called: the mean score's and the positive share's figure. */
  figures?: { mean?: string; share?: string };
  /**
   * What the instructions call the item and the judged text (`ORIGINAL`, `CANDIDATE`), for the
   * labelling page's headings; default "What was asked" and "Response".
   */
  headings?: { item: string; response: string };
}

/** One judge verdict on an item: the judge's identity and its label, or none when its reply was unusable. */
export interface JudgeVerdict {
  judge: string;
  /** A value of the rubric; undefined when the reply could not be read or the call failed. */
  label?: string;
}

export interface JudgedItem {
  /** Stable for the same stored call: the same store lists the same ids. */
  id: string;
  /** What kind of judgement: `ladder/kb`, `ladder/gate-nli`, `sago/politeness`. */
  task: string;
  /** What the sample is stratified by, besides the task and the verdict: `family`, `boundary`... */
  strata: Readonly<Record<string, string>>;
  /** What the judge was shown of the question: the question, or the original a candidate rewrites. */
  item: string;
  /** The text judged: a model's response, a candidate rewrite. */
  response: string;
  rubric: Rubric;
  /** Every judge's verdict on it (two when two judges were run). */
  verdicts: readonly JudgeVerdict[];
  /** The figure the verdict feeds, for corrected estimates: the model whose response it is. */
  group?: string;
}
