/**
 * Aiming a rules generator at a level. Each rules generator builds variants of rising strength
 * (more typos, more padding, heavier rewording) from one seeded plan; this picks a strength whose
 * measured level (the same `measureSeverity` the suite bins by) is the requested one, by bisection,
 * since magnitude grows with strength. Requested and measured level can still differ when no
 * strength lands in the band; the suite then records the measured level honestly.
 */

import { structuralGate } from '../gates/structural-gate.js';
import { measureSeverity, measuringOf } from '../severity/measure.js';
import type { Severity } from '../types.js';
import type { AimTarget } from './contract.js';

export interface Aimed {
  text: string;
  strength: number;
  severity: Severity;
}

/** Measures a candidate and reports whether it passes the structural and family gates. */
export function assess(target: AimTarget, text: string): { severity: Severity; gatesPass: boolean } {
  const { family } = target;
  const severity = measureSeverity(family, target.original, text, {
    bands: target.opts?.bands,
    strictLoadBands: target.opts?.strictLoadBands,
    genericFallback: target.opts?.genericFallback,
    levelBy: target.opts?.levelBy,
    kbType: target.kbType,
  });
  const structural = !family.preserves.numbers || structuralGate(target.original, text).verdict === 'pass';
  const gatesPass = structural && family.familyGate(target.original, text, target.level).verdict === 'pass';
  return { severity, gatesPass };
}

/**
 * The smallest score binned at `level`: the band's lower edge, raised to the previous band's upper
 * edge where bands overlap (the first band wins). Below it, a stronger variant is needed; at or
 * above it, a weaker one (a score past the band has no level, or with `genericFallback` a generic
 * one, never `level` again).
 */
export function lowerEdge(target: AimTarget): number | undefined {
  // A level read off the content has no edge on the magnitude: the aim compares levels.
  if (target.family.severity.contentLevel && (target.opts?.levelBy ?? 'content') === 'content')
    return undefined;
  const table = target.family.severity.bands?.(measuringOf(target.opts));
  const band = table?.[target.level - 1];
  if (!band) return undefined;
  const previous = target.level > 1 ? table[target.level - 2] : undefined;
  return Math.max(band[0], previous?.[1] ?? band[0]);
}

/**
 * Searches strengths 0..count-1 of `build` for a variant that passes the gates and measures at the
 * target level. Returns the first such variant found by bisection (then a scan of the neighbours),
 * else the gated variant whose level is nearest, else undefined.
 */
export function aimAtLevel(
  target: AimTarget,
  count: number,
  build: (strength: number) => string | undefined,
): Aimed | undefined {
  const seen = new Map<number, (Aimed & { gatesPass: boolean }) | null>();
  type Tried = Aimed & { gatesPass: boolean };
  const at = (strength: number): Tried | undefined => {
    if (seen.has(strength)) return seen.get(strength) ?? undefined;
    const text = build(strength);
    if (text === undefined) {
      seen.set(strength, null);
      return undefined;
    }
    const { severity, gatesPass } = assess(target, text);
    const result = { text, strength, severity, gatesPass };
    seen.set(strength, result);
    return result;
  };
  const hit = (r: Tried | undefined): boolean => r?.gatesPass === true && r.severity.level === target.level;

  const edge = lowerEdge(target);
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = at(mid);
    if (r && hit(r)) return strip(r);
    // Too weak: the score is below the band (or, without bands, the level is below the target).
    const tooWeak =
      r?.gatesPass === true &&
      (edge !== undefined ? r.severity.score < edge : (r.severity.level ?? 0) < target.level);
    // A variant that cannot be built or fails a gate gives no direction; try weaker first.
    if (tooWeak) lo = mid + 1;
    else hi = mid - 1;
  }
  // Magnitude is only roughly monotone in strength: look around where the bisection ended.
  for (let d = 0; d <= 3; d++) {
    for (const s of [lo - d, lo + d, hi - d, hi + d]) {
      if (s < 0 || s >= count) continue;
      const r = at(s);
      if (r && hit(r)) return strip(r);
    }
  }
  let best: (Aimed & { gatesPass: boolean }) | undefined;
  for (const r of seen.values()) {
    if (!r?.gatesPass || r.severity.level === undefined) continue;
    const d = Math.abs(r.severity.level - target.level);
    if (!best || d < Math.abs((best.severity.level ?? 0) - target.level)) best = r;
  }
  return best ? strip(best) : undefined;
}

function strip(r: Aimed & { gatesPass: boolean }): Aimed {
  return { text: r.text, strength: r.strength, severity: r.severity };
}
