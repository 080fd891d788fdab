import { type Adjustment, adjustPValues } from '../../stats/multiplicity.js';
import { SAGO_AXES, type SagoAxis } from './constants.js';
import { type EpsilonTest, markerFor, type SignificanceMarker } from './metrics.js';
import type { SagoModelResults, SagoResults } from './results.js';

/**
 * SAGO's significance adjusted for multiplicity (docs/sago.md#significance, docs/decisions.md
 * E61): an eval's tables report one one-sided t-test per model, scope (each dataset and all
 * prompts) and axis at the primary ε, and per model and axis on all prompts at each other ε. Those
 * tests are one family; their p-values are adjusted over it (`sago.adjust`: Holm by default, as
 * `waver check` adjusts its comparisons, src/stats/multiplicity.ts), and every star, count and
 * headline p of the eval reads the adjusted value. The raw p stays beside it in the JSON.
 */

export interface AdjustedTest {
  /** The test's own p. */
  p: number;
  /** Its p adjusted over the family (equal to `p` under `none`). */
  pAdjusted: number;
  /** The marker of the adjusted p: * < .05, ** < .01, † < .001. */
  marker: SignificanceMarker;
}

export interface SagoSignificance {
  adjust: Adjustment;
  /** The tests in the family. */
  family: number;
  /** The adjusted test of a model's SGS on an axis in a scope at ε; undefined when none was run. */
  at(identity: string, scope: string, axis: SagoAxis, eps: number): AdjustedTest | undefined;
  /** The p's adjustment in a few words: `Holm-adjusted over the 40 t-tests of the tables`. */
  says: string;
  /** How the stars are made, in words, for the tables' notes. */
  note: string;
}

const keyOf = (identity: string, scope: string, axis: SagoAxis, eps: number) =>
  `${identity}\u0000${scope}\u0000${axis}\u0000${eps}`;

/** An axis is shown with values for a model when it is available and was computed. */
export function computedAxis(m: SagoModelResults, axis: SagoAxis): boolean {
  return m.axes[axis].available && m.table.deltas[axis] !== undefined;
}

/** Every test the eval's tables report, once: each scope at the primary ε, the total at every ε. */
function familyTests(r: SagoResults): { key: string; test: EpsilonTest }[] {
  const primary = r.manifest.settings.primaryEps;
  const out: { key: string; test: EpsilonTest }[] = [];
  for (const m of r.models)
    for (const scope of m.scores)
      for (const axis of SAGO_AXES) {
        if (!computedAxis(m, axis)) continue;
        for (const test of scope.axes[axis]?.tests ?? [])
          if (test.eps === primary || scope.scope === 'total')
            out.push({ key: keyOf(m.model.identity, scope.scope, axis, test.eps), test });
      }
  return out;
}

export function sagoSignificance(r: SagoResults): SagoSignificance {
  const adjust = r.manifest.settings.adjust;
  const tests = familyTests(r);
  const adjusted = adjustPValues(
    tests.map((t) => t.test.p),
    adjust,
  );
  const byKey = new Map(
    tests.map(({ key, test }, i) => {
      const pAdjusted = adjusted[i] as number;
      return [key, { p: test.p, pAdjusted, marker: markerFor(pAdjusted) }];
    }),
  );
  const k = tests.length;
  const primary = r.manifest.settings.primaryEps;
  const what = `one-sided t-tests of H0: E[s] <= eps in this eval's tables (each model x dataset and all prompts x axis at eps = ${primary}, and each model x axis on all prompts at every other eps)`;
  const says =
    adjust === 'none'
      ? `unadjusted for the ${k} t-tests of the tables`
      : `${adjust === 'holm' ? 'Holm' : 'Bonferroni'}-adjusted over the ${k} t-tests of the tables`;
  const note =
    adjust === 'none'
      ? `stars: p unadjusted for the ${k} ${what} (sago.adjust: none, as the paper reports them): * p < .05, ** p < .01, † p < .001`
      : `stars: ${adjust === 'holm' ? 'Holm' : 'Bonferroni'}-adjusted p over the ${k} ${what}: * < .05, ** < .01, † < .001 (the raw p beside the adjusted one in the JSON)`;
  return {
    adjust,
    family: k,
    at: (identity, scope, axis, eps) => byKey.get(keyOf(identity, scope, axis, eps)),
    says,
    note,
  };
}
