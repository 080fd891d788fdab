/**
 * docs/method.md's family rules, one function per family. Each verdict says, in words, what was checked
 * and what was found, so a reader of the suite can see why a candidate was admitted or rejected.
 */
import { conflictExplicitness } from '../severity/ces.js';
import {
  multiset,
  numbersIn,
  numberValue,
  splitSentences,
  whitespaceWords,
  wordTokens,
} from '../text/tokens.js';
import type { GateVerdict, Level } from '../types.js';

export const FAMILY_GATE = 'family';

function pass(reason: string): GateVerdict {
  return { gate: FAMILY_GATE, verdict: 'pass', reason };
}
function fail(reason: string): GateVerdict {
  return { gate: FAMILY_GATE, verdict: 'fail', reason };
}

/** IQ: noise corrupts characters only, so the whitespace word count stays the same. */
export function inputQualityGate(original: string, candidate: string): GateVerdict {
  const o = whitespaceWords(original).length;
  const c = whitespaceWords(candidate).length;
  return o === c
    ? pass(`IQ: same whitespace word count (${o})`)
    : fail(`IQ: whitespace word count changed from ${o} to ${c}`);
}

/** F: formatting only, so the same lowercase word tokens in the same order, and at most 10x the characters. */
export function formatGate(original: string, candidate: string): GateVerdict {
  const o = wordTokens(original);
  const c = wordTokens(candidate);
  const firstDiff = o.findIndex((w, i) => c[i] !== w);
  if (o.length !== c.length || firstDiff >= 0) {
    const at = firstDiff >= 0 ? firstDiff : Math.min(o.length, c.length);
    return fail(
      `F: word tokens differ at token ${at + 1}: original "${o[at] ?? '(end)'}", candidate "${c[at] ?? '(end)'}" (${o.length} vs ${c.length} tokens)`,
    );
  }
  const ratio = candidate.length / Math.max(original.length, 1);
  if (ratio > 10) return fail(`F: ${ratio.toFixed(1)}x the original's characters (at most 10x)`);
  return pass(`F: same ${o.length} word tokens in order; ${ratio.toFixed(2)}x the characters`);
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

/** CI: the original's sentences kept verbatim and in order; the L1 distractor has no numbers, L2-L5 distractors reuse none of the original's. */
export function contextInterferenceGate(original: string, candidate: string, level: Level): GateVerdict {
  const added = addedAround(original, candidate);
  if (added === undefined) return fail('CI: the original sentences are not all kept verbatim and in order');
  if (added.length === 0) return fail('CI: nothing was added around the original');
  const numbers = numbersIn(added);
  if (level === 1) {
    return numbers.length === 0
      ? pass('CI: original sentences verbatim; the L1 distractor has no numbers')
      : fail(`CI: an L1 distractor must have no numbers, found ${numbers.join(', ')}`);
  }
  // Compared by value, so "$5" in a distractor counts as reusing "5" of the original.
  const originalValues = new Set(numbersIn(original).map(numberValue));
  const reused = numbers.filter((n) => originalValues.has(numberValue(n)));
  return reused.length === 0
    ? pass(
        `CI: original sentences verbatim; the distractor's numbers (${numbers.join(', ') || 'none'}) reuse none of the original's`,
      )
    : fail(`CI: the distractor reuses numbers of the original: ${[...new Set(reused)].join(', ')}`);
}

/** CL: the original sentences verbatim and in order, with something added. */
export function contextLoadGate(original: string, candidate: string): GateVerdict {
  const added = addedAround(original, candidate);
  if (added === undefined) return fail('CL: the original sentences are not all kept verbatim and in order');
  if (added.length === 0) return fail('CL: nothing was added around the original');
  const ratio = whitespaceWords(candidate).length / Math.max(whitespaceWords(original).length, 1);
  return pass(`CL: original sentences verbatim; ${ratio.toFixed(2)}x the words`);
}

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

/** CIS: docs/method.md sets no family rule beyond the structural gate; the level is the CES of the added sentences. */
export function conflictGate(original: string, candidate: string): GateVerdict {
  const { added } = conflictExplicitness(original, candidate);
  return added.length > 0
    ? pass(`CIS: ${added.length} added sentence(s); level set by their conflict-explicitness`)
    : fail('CIS: no sentence was added to the original');
}

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
