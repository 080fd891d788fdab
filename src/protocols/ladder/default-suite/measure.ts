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
  /** The level the test measures at, by `by`; undefined when it fits no level. */
  level?: Level;
  /**
   * `content` where the family reads its level off what the text is (IQ by the share of words
   * altered, F by its kind of layout: docs/fidelity.md L58, the same function as the rules'),
   * else the paper's measure (`band`, `ces`, `kb-type`, ...).
   */
  by: string;
  /** The measure as the suite builder records it: the paper's SIM and magnitude, the level as `by`. */
  severity: Severity;
  gates: GateVerdict[];
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
  const opts = kbType ? { kbType } : {};
  const severity = measureSeverity(family, original, text, opts);
  // The paper's own binning, said beside the level for the families levelled by content.
  const paper = measureSeverity(family, original, text, { ...opts, levelBy: 'measure' });
  const gates: GateVerdict[] = [];
  if (family.preserves.numbers) gates.push(structuralGate(original, text));
  gates.push(family.familyGate(original, text, level));
  gates.push({
    gate: 'level',
    verdict: severity.level === level ? 'pass' : 'fail',
    reason: `written L${level}, measured L${severity.level ?? '-'} by ${severity.via} (score ${severity.score}); paper's measure L${paper.level ?? '-'} (magnitude ${paper.magnitude})`,
  });
  gates.push(goldGate(seed, text, family.preserves.answer));
  return {
    ...(severity.level !== undefined && { level: severity.level }),
    by: severity.via,
    severity,
    gates,
  };
}
