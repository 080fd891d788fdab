/**
 * Measured severity of a ladder candidate (docs/method.md#level-bands): the level is read off what
 * the candidate IS, not what was asked of the generator, by the family's own measure
 * (docs/ladder-measure.md#levels). The similarity and the settings are the same for every family.
 */
import type { FamilySeverity, LadderFamily, Measuring } from '../families/contract.js';
import type { Severity } from '../types.js';
import type { MeasureOptions } from './band-tables.js';
import { type BandTable, levelFromBands } from './bands.js';
import { resolveBandTables } from './levels.js';
import { magnitudeOf, sim } from './similarity.js';

/** The tables and settings a measure reads, from the options (defaults: the paper's side). */
export function measuringOf(opts: MeasureOptions = {}): Omit<Measuring, 'base' | 'kbType'> {
  return {
    tables: resolveBandTables(opts.bands),
    strictLoadBands: opts.strictLoadBands ?? true,
    genericFallback: opts.genericFallback ?? false,
    levelBy: opts.levelBy ?? 'content',
  };
}

/** How severe `candidate` is as a perturbation of `original` by `family`. */
export function measureSeverity(
  family: Pick<LadderFamily, 'severity'>,
  original: string,
  candidate: string,
  opts: MeasureOptions = {},
): Severity {
  const settings = measuringOf(opts);
  const similarity = sim(original, candidate);
  const base = { sim: similarity, magnitude: magnitudeOf(similarity) };
  const measured = family.severity.measure(original, candidate, {
    ...settings,
    ...(opts.kbType !== undefined && { kbType: opts.kbType }),
    base,
  });
  const { contentLevel } = family.severity;
  if (settings.levelBy !== 'content' || !contentLevel) return measured;
  // The paper's measure stays the reported magnitude; the level is what the text is (issue 36).
  return { ...measured, level: contentLevel(original, candidate), via: 'content' };
}

/**
 * A family binned by its magnitude on its own band table (`tableOf` picks it from the configured
 * tables), else, with `genericFallback`, on the generic scale, else without a level.
 */
export function bandedSeverity(
  tableOf: (tables: Measuring['tables']) => BandTable | null | undefined,
): FamilySeverity {
  return {
    measure: (_original, _candidate, m) =>
      byMagnitude(tableOf(m.tables) ?? null, m.genericFallback ? m.tables.generic : null, m.base),
    bands: (m) => tableOf(m.tables),
  };
}

/** The family's band, else (when `generic` is given) the generic scale, else no level. */
export function byMagnitude(
  table: BandTable | null,
  generic: BandTable | null,
  base: Measuring['base'],
): Severity {
  const { magnitude } = base;
  const banded = table ? levelFromBands(table, magnitude) : undefined;
  if (banded !== undefined || generic === null)
    return { ...base, score: magnitude, level: banded, via: 'band' };
  return { ...base, score: magnitude, level: levelFromBands(generic, magnitude), via: 'generic' };
}
