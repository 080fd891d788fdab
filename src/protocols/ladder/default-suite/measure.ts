import { pySplit } from '../../../text-measures/python.js';
import { ladderFamily } from '../families/registry.js';
import { structuralGate } from '../gates/structural-gate.js';
import { measureSeverity } from '../severity/measure.js';
import { numbersIn, numberValue } from '../text/tokens.js';
import type { GateVerdict, Level, NumberSeed, Severity } from '../types.js';

/**
 * How a line of the default suite is measured (docs/ladder-suite.md#default-suite-review): the
 * mechanical gates the suite builder runs (structural, the family's own), the paper's severity
 * measure (recorded as the test's severity: SIM, magnitude, band), the level its content reads as,
 * and the gold check. The bench tool writes this into each line as `measured`; the loader's test
 * checks the recorded value equals a fresh one.
 */

export interface Measured {
  /** The level the content measures at, by `by`; undefined when it fits no level. */
  level?: Level;
  /** `word-share` (IQ), `format-kind` (F), else the paper's measure (`band`, `ces`, `kb-type`, ...). */
  by: string;
  /** The paper's measure, as the suite builder records it. */
  severity: Severity;
  gates: GateVerdict[];
}

/**
 * IQ's level by the share of whitespace words altered (one slip a word): L1 one word; then up to
 * 10%, 15%, 22% and 32% of the words, each level at least one word more than the one below, so a
 * short problem still has five levels (decision E51).
 */
export const IQ_WORD_SHARES = [0.1, 0.15, 0.22, 0.32] as const;

export function iqWordShareLevel(original: string, text: string): { level?: Level; altered: number } {
  const a = pySplit(original);
  const b = pySplit(text);
  if (a.length !== b.length) return { altered: Number.NaN };
  const altered = a.filter((w, i) => w !== b[i]).length;
  let top = 1;
  if (altered === top) return { level: 1, altered };
  for (const [i, share] of IQ_WORD_SHARES.entries()) {
    const low = top + 1;
    top = Math.max(low, Math.floor(share * a.length));
    if (altered >= low && altered <= top) return { level: (i + 2) as Level, altered };
  }
  return { altered };
}

/**
 * Format's level by the kind of change (every word kept): L1 spacing, line breaks or case only;
 * L2 one markup device (a heading, bold, a quote); L3 a flat list; L4 a nested list; L5 a table
 * or a code block laid out in it.
 */
export function formatKindLevel(original: string, text: string): Level {
  if (/^\|.*\|\s*$/m.test(text) && /^\|[\s:|-]+\|\s*$/m.test(text)) return 5;
  if (/^```/m.test(text)) return 5;
  if (/^[ \t]{2,}[-*+] /m.test(text)) return 4;
  if (/^[-*+] /m.test(text)) return 3;
  const markup = /[#*>|_`~-]/g;
  const added = (text.match(markup) ?? []).length > (original.match(markup) ?? []).length;
  return added ? 2 : 1;
}

function contentLevel(family: string, original: string, text: string, severity: Severity) {
  if (family === 'IQ') {
    const { level, altered } = iqWordShareLevel(original, text);
    return { level, by: 'word-share', detail: `${altered} of ${pySplit(original).length} words altered` };
  }
  if (family === 'F')
    return { level: formatKindLevel(original, text), by: 'format-kind', detail: 'kind of change' };
  return { level: severity.level, by: severity.via, detail: `score ${severity.score}` };
}

/** The gold check: a test that keeps the answer must not state it where the original does not. */
function goldGate(seed: NumberSeed, text: string, keepsAnswer: boolean): GateVerdict {
  if (!keepsAnswer) return { gate: 'gold', verdict: 'pass', reason: 'the gold is unanswerable (KB)' };
  const gold = numberValue(String(seed.gold));
  const count = (s: string) => numbersIn(s).filter((n) => numberValue(n) === gold).length;
  return count(text) > count(seed.question)
    ? { gate: 'gold', verdict: 'fail', reason: `the text states the answer ${gold}` }
    : { gate: 'gold', verdict: 'pass', reason: `the gold ${gold} is unchanged and not stated` };
}

/** Measures a default-suite line of `family` at the written `level` on `seed`. */
export function measureLine(seed: NumberSeed, code: string, level: Level, text: string): Measured {
  const family = ladderFamily(code);
  const original = seed.question;
  const kbType = family.boundaryType?.(level);
  const severity = measureSeverity(family, original, text, kbType ? { kbType } : {});
  const gates: GateVerdict[] = [];
  if (family.preserves.numbers) gates.push(structuralGate(original, text));
  gates.push(family.familyGate(original, text, level));
  const content = contentLevel(code, original, text, severity);
  const paper = `paper's measure L${severity.level ?? '-'} (magnitude ${severity.magnitude})`;
  gates.push({
    gate: 'level',
    verdict: content.level === level ? 'pass' : 'fail',
    reason: `written L${level}, measured L${content.level ?? '-'} by ${content.by} (${content.detail}); ${paper}`,
  });
  gates.push(goldGate(seed, text, family.preserves.answer));
  return { ...(content.level !== undefined && { level: content.level }), by: content.by, severity, gates };
}
