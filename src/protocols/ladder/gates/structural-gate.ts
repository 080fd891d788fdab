/**
 * docs/method.md#structural-gate (every family but KB): every number of the original must appear at
 * least as often in the candidate, and a candidate identical to the original fails.
 */

import { multiset, numbersIn } from '../text/tokens.js';
import type { GateVerdict } from '../types.js';

export const STRUCTURAL_GATE = 'structural';

export function structuralGate(original: string, candidate: string): GateVerdict {
  if (candidate === original) {
    return { gate: STRUCTURAL_GATE, verdict: 'fail', reason: 'the candidate is identical to the original' };
  }
  if (candidate.trim().length === 0) {
    return { gate: STRUCTURAL_GATE, verdict: 'fail', reason: 'the candidate is empty' };
  }
  const wanted = multiset(numbersIn(original));
  const have = multiset(numbersIn(candidate));
  const missing: string[] = [];
  for (const [n, count] of wanted) {
    const got = have.get(n) ?? 0;
    if (got < count) missing.push(count === 1 ? n : `${n} (${got} of ${count})`);
  }
  if (missing.length > 0) {
    return {
      gate: STRUCTURAL_GATE,
      verdict: 'fail',
      reason: `numbers of the original missing from the candidate: ${missing.join(', ')}`,
    };
  }
  const total = [...wanted.values()].reduce((a, b) => a + b, 0);
  return {
    gate: STRUCTURAL_GATE,
    verdict: 'pass',
    reason:
      total === 0
        ? 'the original has no numbers; the candidate differs from it'
        : `all ${total} numbers of the original kept`,
  };
}
