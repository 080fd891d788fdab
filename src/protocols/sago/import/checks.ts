import { corpusBleuPerPair } from '../../../text-measures/bleu.js';
import { referenceMirroring } from '../mirroring-reference.js';
import type { NumericColumn, RunFolder, RunRow } from './run-folders.js';

/**
 * What an import checks in the authors' recorded values (docs/sago.md#import): waver's own BLEU
 * of each pair (sacrebleu's corpus_bleu per pair, the reference's mode) against the `bleu`
 * column; each `delta_*` column against its raw column minus the style baseline row's (the
 * reference's `add_delta_columns`); `delta_log_prob`, which has no raw column, is 0 on baseline
 * rows; and waver's port of the authors' rule detectors against `mirroring_rate` on the noise
 * rows. Mismatches are reported, never corrected.
 */

/** Absolute tolerance, relative above 1 (the 21-column files round some floats differently). */
export const CHECK_TOLERANCE = 1e-9;

export interface CheckMismatch {
  run: string;
  line: number;
  column: string;
  recorded: number | null;
  expected: number | null;
}

export interface CheckCount {
  checked: number;
  mismatches: CheckMismatch[];
}

export interface ImportChecks {
  bleu: CheckCount;
  deltas: CheckCount;
  baselineLogprob: CheckCount;
  mirroring: CheckCount;
}

/** The delta columns and the raw column each one is re-anchored from. */
export const DELTA_OF: readonly [NumericColumn, NumericColumn][] = [
  ['delta_bleu', 'bleu'],
  ['delta_bertscore_prompt', 'bertscore_prompt'],
  ['delta_bertscore_response', 'bertscore_response'],
  ['delta_activation_similarity', 'activation_similarity'],
  ['delta_mirroring_rate', 'mirroring_rate'],
  ['delta_entropy', 'entropy_shift'],
];

const close = (a: number, b: number) => Math.abs(a - b) <= CHECK_TOLERANCE * Math.max(1, Math.abs(b));

/** A row's baseline row: same prompt and place, the style's baseline strength. */
export function baselineRows(run: RunFolder): Map<RunRow, RunRow | undefined> {
  const base = new Map<string, RunRow>();
  for (const r of run.rows) if (r.styleBaseline) base.set(`${r.promptId}\u0000${r.place}`, r);
  return new Map(run.rows.map((r) => [r, base.get(`${r.promptId}\u0000${r.place}`)]));
}

export function checkRuns(runs: readonly RunFolder[]): ImportChecks {
  const out: ImportChecks = {
    bleu: { checked: 0, mismatches: [] },
    deltas: { checked: 0, mismatches: [] },
    baselineLogprob: { checked: 0, mismatches: [] },
    mirroring: { checked: 0, mismatches: [] },
  };
  for (const run of runs) {
    const baseOf = baselineRows(run);
    const hasDeltaEntropy = run.columns > 21;
    for (const row of run.rows) {
      const miss = (
        c: CheckCount,
        column: string,
        recorded: number | undefined,
        expected: number | undefined,
      ) =>
        c.mismatches.push({
          run: run.folder,
          line: row.line,
          column,
          recorded: recorded ?? null,
          expected: expected ?? null,
        });

      const bleu = corpusBleuPerPair(row.responsePert, row.responseOrig).score;
      out.bleu.checked++;
      if (row.values.bleu === undefined || !close(row.values.bleu, bleu))
        miss(out.bleu, 'bleu', row.values.bleu, bleu);

      const base = baseOf.get(row);
      for (const [delta, raw] of DELTA_OF) {
        if (delta === 'delta_entropy' && !hasDeltaEntropy) continue;
        const x = row.values[raw];
        const b = base?.values[raw];
        const expected = x === undefined || b === undefined ? undefined : x - b;
        const recorded = row.values[delta];
        if (expected === undefined && recorded === undefined) continue;
        out.deltas.checked++;
        if (expected === undefined || recorded === undefined || !close(recorded, expected))
          miss(out.deltas, delta, recorded, expected);
      }

      if (row.styleBaseline && row.values.delta_log_prob !== undefined) {
        out.baselineLogprob.checked++;
        if (Math.abs(row.values.delta_log_prob) > 1e-6)
          miss(out.baselineLogprob, 'delta_log_prob', row.values.delta_log_prob, 0);
      }

      const m = row.values.mirroring_rate;
      if (
        m !== undefined &&
        (row.subtype === 'spacing' || row.subtype === 'punctuation' || row.subtype === 'casing')
      ) {
        const ours = referenceMirroring(
          row.subtype,
          row.responseOrig,
          row.responsePert,
          row.strength,
        ).mirrored;
        out.mirroring.checked++;
        if (Number(ours) !== m) miss(out.mirroring, 'mirroring_rate', m, Number(ours));
      }
    }
  }
  return out;
}
