/**
 * What every family gate shares (docs/method.md#structural-gate): its name and verdicts, each
 * saying in words what was checked and what was found, so a reader of the suite can see why a
 * candidate was admitted or rejected; and the text a candidate added around the original's
 * sentences. Each family's own rule is in its folder (families/<code>/gate.ts).
 */
import type { GateVerdict } from '../types.js';

const FAMILY_GATE = 'family';

export function pass(reason: string): GateVerdict {
  return { gate: FAMILY_GATE, verdict: 'pass', reason };
}
export function fail(reason: string): GateVerdict {
  return { gate: FAMILY_GATE, verdict: 'fail', reason };
}

/** Offsets just after each sentence end of `text` (`.`, `!`, `?`, a closing quote or bracket, then whitespace). */
function sentenceEnds(text: string): number[] {
  return [...text.matchAll(/[.!?]["')]?(?=\s)/g)].map((m) => (m.index ?? 0) + m[0].length);
}

/**
 * The text a CI/CL candidate added to the original, or undefined when the original is not kept: the
 * original's sentences (cut at every sentence end, each with the spacing before it) must appear
 * verbatim and in order, and what lies between them is the addition. So a distractor may stand
 * before, among or after the givens, but no original sentence may change.
 */
export function addedAround(original: string, candidate: string): string | undefined {
  const cuts = [0, ...sentenceEnds(original), original.length];
  const pieces = cuts
    .slice(1)
    .map((end, i) => original.slice(cuts[i], end))
    .filter((p) => p.length > 0);
  const gaps: string[] = [];
  let cursor = 0;
  for (const piece of pieces) {
    const at = candidate.indexOf(piece, cursor);
    if (at < 0) return undefined;
    gaps.push(candidate.slice(cursor, at).trim());
    cursor = at + piece.length;
  }
  gaps.push(candidate.slice(cursor).trim());
  return gaps.filter((g) => g.length > 0).join(' ');
}
