/**
 * The transcript cells a static report embeds (docs/report.md#transcript-sample): every cell up to
 * `all`; beyond, every flipped or failed cell up to `flagged`, then a sample of the others
 * stratified by protocol, suite, model, family, level and outcome, `others` in all. Both samples
 * give each stratum an equal share (a stratum smaller than its share gives the rest to the
 * others) and take, within a stratum, the cells with the smallest hash of their suite, model,
 * test and repeat: the same store always gives the same sample, and the sample does not depend on
 * the order the cells come in. Memory holds at most `all` cells plus twice each sample's size.
 */

/** One cell for the transcript browser: the question as asked, its source, the answer and its score. */
export interface TranscriptCell {
  protocol: string;
  /** Suite hash. */
  suite: string;
  model: string;
  identity: string;
  test: string;
  repeat: number;
  /** The seed / item / prompt the test was made from. */
  item: string;
  /** Ladder family, paraphrase phrasing, sago variation family; `baseline` for the unperturbed form. */
  family?: string;
  /** Ladder measured level (`L0` baseline .. `L5`). */
  level?: string;
  /** Subtype, strength, position... */
  variant?: string;
  system?: string;
  /** The user message as sent. */
  prompt: string;
  /** The unperturbed text the test was made from. */
  original?: string;
  /** The perturbed text, when the prompt wraps it in more (e.g. `QUESTION: ...`). */
  perturbed?: string;
  gold?: string;
  status: 'done' | 'failed';
  response?: string;
  error?: string;
  parsed?: string;
  /** The protocol's score in [0, 1]; undefined when the cell is not scored (no judge verdict, sago). */
  score?: number;
  correct?: boolean;
  /** Wrong where the same model was right on the unperturbed form (docs/report.md#flipped). */
  flipped?: boolean;
  /** The judge's reason, the parser's note or the error. */
  reason?: string;
}

export interface SampleLimits {
  /** Every cell is embedded up to this many. */
  all: number;
  /** Flipped and failed cells embedded at most (a stratified sample of them beyond). */
  flagged: number;
  /** Other cells embedded at most. */
  others: number;
  /** Strata told apart at most per sample; cells of any further stratum share one. */
  strata: number;
}

export const SAMPLE_LIMITS: SampleLimits = { all: 20_000, flagged: 5_000, others: 10_000, strata: 1_000 };

/** Cells of one protocol and model: how many the suites hold, by outcome, and how many are embedded. */
export interface TranscriptGroup {
  protocol: string;
  model: string;
  cells: number;
  done: number;
  failed: number;
  correct: number;
  incorrect: number;
  unscored: number;
  flipped: number;
  /** Embedded in the HTML page. */
  shown: number;
}

/** What the transcripts hold, and what of it the HTML page embeds. */
export interface TranscriptSummary {
  total: number;
  shown: number;
  /** False when every cell is embedded. */
  sampled: boolean;
  /** Flipped or failed cells, and how many of them are embedded. */
  flagged: number;
  flaggedShown: number;
  limits: SampleLimits;
  groups: TranscriptGroup[];
}

export type Outcome = 'failed' | 'correct' | 'incorrect' | 'unscored';

export function outcomeOf(c: TranscriptCell): Outcome {
  if (c.status === 'failed') return 'failed';
  if (c.correct === true) return 'correct';
  if (c.correct === false) return 'incorrect';
  return 'unscored';
}

/** FNV-1a over a cell's identity: cheap, stable across runs and machines. */
function hashOf(c: TranscriptCell): number {
  const s = `${c.suite}\u0000${c.identity}\u0000${c.test}\u0000${c.repeat}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

interface Entry {
  hash: number;
  /** Order of arrival: breaks ties between equal hashes, and orders the result. */
  seq: number;
  cell: TranscriptCell;
}

/**
 * One stratified sample of at most `size` cells. Each stratum keeps the cells with the smallest
 * hashes; when more than twice `size` are held, each stratum is cut to the share it would get if
 * the stream ended now (from how many cells it has seen). Shares only fall as cells come, so a cut
 * never drops a cell the final sample would hold, and a cell whose hash is above what a stratum
 * kept at its last cut is passed over at once.
 */
class StratifiedSample {
  private readonly strata = new Map<string, Stratum>();
  private held = 0;

  constructor(
    private readonly size: number,
    private readonly maxStrata: number,
  ) {}

  add(key: string, hash: number, seq: number, cell: TranscriptCell): void {
    let stratum = this.strata.get(key);
    if (!stratum) {
      const k = this.strata.size < this.maxStrata ? key : '\u0000other';
      stratum = this.strata.get(k);
      if (!stratum) {
        stratum = { entries: [], seen: 0, above: Number.POSITIVE_INFINITY };
        this.strata.set(k, stratum);
      }
    }
    stratum.seen++;
    // A later cell of equal hash sorts after the one kept: it is past the share too.
    if (hash >= stratum.above) return;
    stratum.entries.push({ hash, seq, cell });
    if (++this.held > 2 * this.size) this.cut();
  }

  /** The sample, in order of arrival. */
  result(): Entry[] {
    this.cut();
    return [...this.strata.values()].flatMap((s) => s.entries).sort((a, b) => a.seq - b.seq);
  }

  /** The largest share q with sum(min(seen, q)) <= size over the strata. */
  private share(): number {
    const sizes = [...this.strata.values()].map((s) => s.seen).sort((a, b) => a - b);
    let left = this.size;
    for (let i = 0; i < sizes.length; i++) {
      const fair = Math.floor(left / (sizes.length - i));
      const n = sizes[i] as number;
      if (n > fair) return fair;
      left -= n;
    }
    return Number.POSITIVE_INFINITY;
  }

  private cut(): void {
    const q = this.share();
    this.held = 0;
    for (const stratum of this.strata.values()) {
      const e = stratum.entries;
      if (e.length > q) {
        e.sort((a, b) => a.hash - b.hash || a.seq - b.seq);
        e.length = q;
      }
      if (e.length === q) stratum.above = q === 0 ? Number.NEGATIVE_INFINITY : (e[q - 1] as Entry).hash;
      this.held += e.length;
    }
  }
}

interface Stratum {
  entries: Entry[];
  /** Cells of the stratum seen, kept or not. */
  seen: number;
  /** Hashes from this one up are past the stratum's share. */
  above: number;
}

/** Cells are added as the sections yield them; `finish` gives the embedded cells and the summary. */
export class TranscriptSampler {
  private readonly everything: TranscriptCell[] = [];
  private readonly flaggedSample: StratifiedSample;
  private readonly othersSample: StratifiedSample;
  private readonly groups = new Map<string, TranscriptGroup>();
  private seq = 0;
  private flagged = 0;

  constructor(private readonly limits: SampleLimits = SAMPLE_LIMITS) {
    this.flaggedSample = new StratifiedSample(limits.flagged, limits.strata);
    this.othersSample = new StratifiedSample(limits.others, limits.strata);
  }

  add(c: TranscriptCell): void {
    const outcome = outcomeOf(c);
    this.count(c, outcome);
    const seq = this.seq++;
    if (this.seq <= this.limits.all) this.everything.push(c);
    else this.everything.length = 0; // more than all: the samples are embedded instead
    const isFlagged = c.flipped === true || outcome === 'failed';
    if (isFlagged) this.flagged++;
    const key = `${c.protocol}\u0000${c.suite}\u0000${c.model}\u0000${c.family ?? ''}\u0000${c.level ?? ''}\u0000${outcome}`;
    (isFlagged ? this.flaggedSample : this.othersSample).add(key, hashOf(c), seq, c);
  }

  finish(): { cells: TranscriptCell[]; summary: TranscriptSummary } {
    const total = this.seq;
    const sampled = total > this.limits.all;
    let cells: TranscriptCell[];
    let flaggedShown: number;
    if (!sampled) {
      cells = this.everything;
      flaggedShown = this.flagged;
    } else {
      const flagged = this.flaggedSample.result();
      flaggedShown = flagged.length;
      cells = [...flagged, ...this.othersSample.result()].sort((a, b) => a.seq - b.seq).map((e) => e.cell);
    }
    for (const c of cells) (this.groups.get(groupKey(c)) as TranscriptGroup).shown++;
    return {
      cells,
      summary: {
        total,
        shown: cells.length,
        sampled,
        flagged: this.flagged,
        flaggedShown,
        limits: this.limits,
        groups: [...this.groups.values()],
      },
    };
  }

  private count(c: TranscriptCell, outcome: Outcome): void {
    const key = groupKey(c);
    let g = this.groups.get(key);
    if (!g) {
      g = {
        protocol: c.protocol,
        model: c.model,
        cells: 0,
        done: 0,
        failed: 0,
        correct: 0,
        incorrect: 0,
        unscored: 0,
        flipped: 0,
        shown: 0,
      };
      this.groups.set(key, g);
    }
    g.cells++;
    if (c.status === 'done') g.done++;
    else g.failed++;
    // A failed call may still be scored (it counts as incorrect in the metrics).
    if (c.correct === true) g.correct++;
    else if (c.correct === false) g.incorrect++;
    else if (outcome === 'unscored') g.unscored++;
    if (c.flipped) g.flipped++;
  }
}

function groupKey(c: TranscriptCell): string {
  return `${c.protocol}\u0000${c.model}`;
}
