/**
 * The ladder's surface similarity and perturbation magnitude (docs/method.md#similarity):
 * SIM = round(difflib ratio of the Python-lowercased texts, 4), magnitude = 1 - SIM.
 * See docs/ladder-measure.md#similarity.
 */
import { sequenceMatcherRatio } from '../../../text-measures/difflib.js';
import { pyLower, pyRound } from '../../../text-measures/python.js';

/** `round(SequenceMatcher(None, original.lower(), candidate.lower()).ratio(), 4)` as CPython 3.11 gives it. */
export function sim(original: string, candidate: string): number {
  return pyRound(sequenceMatcherRatio(pyLower(original), pyLower(candidate)), 4);
}

/** `round(1 - sim, 4)`: the reference rounds the score again (1 - 0.8784 is 0.12160000000000004 in binary). */
export function magnitude(original: string, candidate: string): number {
  return magnitudeOf(sim(original, candidate));
}

/** Magnitude from an already computed SIM. */
export function magnitudeOf(similarity: number): number {
  return pyRound(1 - similarity, 4);
}
