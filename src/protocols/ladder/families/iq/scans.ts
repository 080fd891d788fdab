/**
 * Input Quality's own scans (suite-scans.ts lists them): a slip that makes a new entity or
 * changes what is asked (docs/ladder-families.md#iq-noise, E62, E70).
 */
import type { Scan } from '../../scan-types.js';
import { whitespaceWords } from '../../text/tokens.js';
import { realWordSlip } from './real-word.js';

/** The first slip of `text` into another real word that names someone else or asks something else. */
export function realWordSlipIn(original: string, text: string): string | undefined {
  const o = whitespaceWords(original);
  const c = whitespaceWords(text);
  if (o.length !== c.length) return undefined;
  for (const [i, a] of o.entries()) {
    const hit = realWordSlip(a, c[i] as string, o[i - 1], {
      before: [o[i - 1] ?? '', c[i - 1] ?? ''],
      after: [o[i + 1] ?? '', c[i + 1] ?? ''],
    });
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** IQ: a name slipped into another word or name ("Mary" -> "May"), or a word of the question's meaning into another word ("how many" -> "how may"). */
const iqRealWord: Scan = {
  id: 'iq-real-word',
  title: 'IQ: a name slipped into another word or name ("Mary" -> "May"), or "how many" -> "how may"',
  check(t) {
    return t.family === 'IQ' ? realWordSlipIn(t.original, t.text) : undefined;
  },
};

export const IQ_SCANS: readonly Scan[] = [iqRealWord];
