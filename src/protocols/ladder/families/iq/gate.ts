import { fail, pass } from '../../gates/family-gate.js';
import { whitespaceWords } from '../../text/tokens.js';
import type { GateVerdict } from '../../types.js';

/** IQ: noise corrupts characters only, so the whitespace word count stays the same. */
export function inputQualityGate(original: string, candidate: string): GateVerdict {
  const o = whitespaceWords(original).length;
  const c = whitespaceWords(candidate).length;
  return o === c
    ? pass(`IQ: same whitespace word count (${o})`)
    : fail(`IQ: whitespace word count changed from ${o} to ${c}`);
}

/**
 * What "meaning kept" means for IQ to the meaning judge (the paper, Section 4.2), with the
 * reference judge's lists of what to reject and what to accept (docs/fidelity.md L37).
 */
export const MEANING = [
  'The CANDIDATE is meant to be the ORIGINAL with typing noise (misspellings, swapped letters,',
  'OCR-like errors). Pass it only if a careful reader can still recover every fact, quantity and the',
  'question, so that its correct answer is the same. Accept any amount of noise that leaves it recoverable;',
  'reject it if a number changed or the noise makes a fact or the question unrecoverable.',
].join(' ');
