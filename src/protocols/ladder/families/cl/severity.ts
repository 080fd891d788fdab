import { pyRound, pySplit } from '../../../../text-measures/python.js';
import { tableIn } from '../../severity/band-tables.js';
import { levelFromBands } from '../../severity/bands.js';
import { byMagnitude } from '../../severity/measure.js';
import type { FamilySeverity } from '../contract.js';

/** Context Load expansion: words(G) / words(O) by Python's `split()`, 4 decimals (1 for an empty original). */
export function expansionRatio(original: string, candidate: string): number {
  const base = pySplit(original).length;
  if (base === 0) return 1;
  return pyRound(pySplit(candidate).length / base, 4);
}

/**
 * Context Load by its expansion ratio on the paper's bands (with `strictLoadBands`, the default:
 * outside them the candidate has no level and the suite rejects it), else by its magnitude on its
 * own bands or the generic scale, as the reference code does (docs/ladder-measure.md#levels).
 */
export const loadSeverity: FamilySeverity = {
  measure(original, candidate, m) {
    const ratio = expansionRatio(original, candidate);
    if (m.strictLoadBands)
      return {
        ...m.base,
        score: ratio,
        level: levelFromBands(tableIn(m.tables, 'clExpansion'), ratio),
        via: 'band',
        expansionRatio: ratio,
      };
    return { ...byMagnitude(m.tables.CL ?? null, m.tables.generic, m.base), expansionRatio: ratio };
  },
  bands: (m) => (m.strictLoadBands ? tableIn(m.tables, 'clExpansion') : (m.tables.CL ?? m.tables.generic)),
};
