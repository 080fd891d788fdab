import { fail, pass } from '../../gates/family-gate.js';
import { multiset, numbersIn, whitespaceWords } from '../../text/tokens.js';
import type { GateVerdict } from '../../types.js';

/** KB: no numeric rule (the question is meant to change); it must differ from the original by more than spacing or case. */
export function knowledgeBoundaryGate(original: string, candidate: string): GateVerdict {
  const norm = (t: string) => whitespaceWords(t.toLowerCase()).join(' ');
  if (candidate.trim().length === 0) return fail('KB: the candidate is empty');
  if (norm(candidate) === norm(original))
    return fail('KB: the candidate only differs from the original in spacing or case');
  const lost = [...multiset(numbersIn(original)).keys()].filter((n) => !numbersIn(candidate).includes(n));
  return pass(
    `KB: the question was rewritten${lost.length ? ` (numbers removed: ${lost.join(', ')})` : ''}; unanswerability is for the epistemic judge`,
  );
}
