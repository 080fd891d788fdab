import { addedAround, fail, pass } from '../../gates/family-gate.js';
import { whitespaceWords } from '../../text/tokens.js';
import type { GateVerdict } from '../../types.js';

/** CL: the original sentences verbatim and in order, with something added. */
export function contextLoadGate(original: string, candidate: string): GateVerdict {
  const added = addedAround(original, candidate);
  if (added === undefined) return fail('CL: the original sentences are not all kept verbatim and in order');
  if (added.length === 0) return fail('CL: nothing was added around the original');
  const ratio = whitespaceWords(candidate).length / Math.max(whitespaceWords(original).length, 1);
  return pass(`CL: original sentences verbatim; ${ratio.toFixed(2)}x the words`);
}

/**
 * What "meaning kept" means for CL to the meaning judge (the paper, Section 4.2), with the
 * reference judge's lists of what to reject and what to accept (docs/fidelity.md L37).
 */
export const MEANING = [
  'The CANDIDATE is meant to be the ORIGINAL, verbatim, surrounded by extra material. Pass it only if',
  "the ORIGINAL's problem is intact and the added material does not change the correct answer.",
  'Reject it if the added material contradicts a fact of the ORIGINAL, gives the answer or a step of the',
  'computation, changes a quantity the ORIGINAL relies on, or makes the question ambiguous or unsolvable.',
  'Accept material before and after the ORIGINAL, on its topic or not, that leaves the computation as it is.',
].join(' ');
