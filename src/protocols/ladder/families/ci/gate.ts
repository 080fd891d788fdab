import { addedAround, fail, pass } from '../../gates/family-gate.js';
import { numbersIn, numberValue } from '../../text/tokens.js';
import type { GateVerdict, Level } from '../../types.js';

/**
 * CI: the original's sentences kept verbatim and in order; the distractors reuse none of the original's
 * numbers. An L1 distractor may carry one, as GSM-IC's do (decision E76).
 */
export function contextInterferenceGate(original: string, candidate: string, _level: Level): GateVerdict {
  const added = addedAround(original, candidate);
  if (added === undefined) return fail('CI: the original sentences are not all kept verbatim and in order');
  if (added.length === 0) return fail('CI: nothing was added around the original');
  const numbers = numbersIn(added);
  // Compared by value, so "$5" in a distractor counts as reusing "5" of the original.
  const originalValues = new Set(numbersIn(original).map(numberValue));
  const reused = numbers.filter((n) => originalValues.has(numberValue(n)));
  return reused.length === 0
    ? pass(
        `CI: original sentences verbatim; the distractor's numbers (${numbers.join(', ') || 'none'}) reuse none of the original's`,
      )
    : fail(`CI: the distractor reuses numbers of the original: ${[...new Set(reused)].join(', ')}`);
}

/**
 * What "meaning kept" means for CI to the meaning judge (the paper, Section 4.2), with the
 * reference judge's lists of what to reject and what to accept (docs/fidelity.md L37).
 */
export const MEANING = [
  'The CANDIDATE is meant to be the ORIGINAL, verbatim, with distractor sentences added (after it, or',
  'before and after it). Pass it only if the',
  'ORIGINAL is intact and the added text does not change the correct answer.',
  'Reject it if the added text contradicts a fact of the ORIGINAL, gives the answer or a step of the',
  'computation, changes a quantity the ORIGINAL relies on, or makes the question ambiguous or unsolvable.',
  'Accept irrelevant facts, unrelated numbers about other things, related context that does not change the',
  'computation, and tempting scenarios that say explicitly they do not apply.',
].join(' ');
