import { tableIn } from '../../severity/band-tables.js';
import { formatKindLevel } from '../../severity/content-level.js';
import { bandedSeverity } from '../../severity/measure.js';
import type { FamilySeverity } from '../contract.js';

/** The characters whose arrival makes a Format L1 candidate an L2 (markdown structure). */
const FORMAT_MARKUP_CHARS = ['#', '-', '>', '*', '|', '`'] as const;

/** Markup characters the candidate has and the original lacks (presence, as the reference checks). */
export function addedMarkup(original: string, candidate: string): string[] {
  return FORMAT_MARKUP_CHARS.filter((c) => candidate.includes(c) && !original.includes(c));
}

const banded = bandedSeverity((tables) => tables.F);

/**
 * Format's magnitude on its bands, with the reference's L1 rule: a candidate that would be L1 (one
 * binned L1, or one below F's L1 band, which the generic scale would call L1) and adds markup is L2.
 */
export const formatSeverity: FamilySeverity = {
  measure(original, candidate, m) {
    const severity = banded.measure(original, candidate, m);
    const l1Candidate =
      severity.level === 1 ||
      (severity.level === undefined && m.base.magnitude < tableIn(m.tables, 'F')[0][0]);
    if (l1Candidate && addedMarkup(original, candidate).length > 0)
      return { ...severity, level: 2, via: 'format-l1-rule' };
    return severity;
  },
  bands: banded.bands,
  contentLevel: formatKindLevel,
};
