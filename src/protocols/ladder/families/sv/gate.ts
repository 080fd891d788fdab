import { fail, pass } from '../../gates/family-gate.js';
import { splitSentences, whitespaceWords } from '../../text/tokens.js';
import type { GateVerdict, Level } from '../../types.js';

/** SV: sentence count unchanged at L1-L2, within one at L3, free at L4-L5; at most 1.3x the words. */
export function semanticVariationGate(original: string, candidate: string, level: Level): GateVerdict {
  const os = splitSentences(original).length;
  const cs = splitSentences(candidate).length;
  const allowed = level <= 2 ? 0 : level === 3 ? 1 : Number.POSITIVE_INFINITY;
  if (Math.abs(cs - os) > allowed) {
    return fail(
      `SV: L${level} allows ${allowed === 0 ? 'no change in' : '+-1 in'} the sentence count; it went from ${os} to ${cs}`,
    );
  }
  const ow = whitespaceWords(original).length;
  const cw = whitespaceWords(candidate).length;
  const ratio = cw / Math.max(ow, 1);
  if (ratio > 1.3) return fail(`SV: ${cw} words is ${ratio.toFixed(2)}x the original's ${ow} (at most 1.3x)`);
  return pass(`SV: ${cs} sentences (original ${os}); ${ratio.toFixed(2)}x the words`);
}

/**
 * What "meaning kept" means for SV to the meaning judge (the paper, Section 4.2), with the
 * reference judge's lists of what to reject and what to accept (docs/fidelity.md L37).
 */
export const MEANING = [
  'The CANDIDATE is meant to be a paraphrase of the ORIGINAL. Pass it only if it keeps every fact,',
  'quantity and relationship and asks the same question, so that its correct answer is the same.',
  'Reject it if it embeds solution steps, calculations or a worked-out value the ORIGINAL does not contain,',
  'adds explanatory reasoning, or reveals an intermediate or final result.',
  'Accept changed wording, word order, sentence structure and equivalent phrasings ("a quarter" for "one-fourth").',
].join(' ');
