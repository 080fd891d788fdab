import { pyStrip } from '../../../../text-measures/python.js';
import { fail, pass } from '../../gates/family-gate.js';
import { wordTokens } from '../../text/tokens.js';
import type { GateVerdict } from '../../types.js';

/**
 * F: formatting only, so the same lowercase word tokens in the same order, at most 10x the
 * characters, and a change the model sees: the runner strips the text it sends (prompts.ts), so
 * an indent or a blank line around it is no test.
 */
export function formatGate(original: string, candidate: string): GateVerdict {
  if (pyStrip(candidate) === pyStrip(original))
    return fail('F: no change once stripped as the runner sends it (only leading or trailing whitespace)');
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
