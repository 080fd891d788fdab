/**
 * Reproduces the ladder paper's own measurements (generated_demo.csv, 53 candidates from the
 * reference generator): SIM, TCR/Score, Classified Level, CES and CES Norm, row by row.
 */
import { describe, expect, it } from 'vitest';
import {
  GENERATED_DEMO_DEVIATIONS,
  generatedDemoMissing,
  generatedDemoPath,
  loadGeneratedDemo,
} from '../../../test-support/protocols/ladder/reference.js';
import { ladderFamily } from '../families/registry.js';
import { conflictExplicitness } from './ces.js';
import { measureSeverity } from './measure.js';
import { magnitude, sim } from './similarity.js';

const REFERENCE_BINNING = { strictLoadBands: false, genericFallback: true, levelBy: 'measure' } as const;

describe.skipIf(!generatedDemoPath)(
  generatedDemoMissing ?? 'generated_demo.csv reproduced row by row',
  () => {
    const rows = generatedDemoPath ? loadGeneratedDemo(generatedDemoPath) : [];

    it('has the 53 rows across all seven families', () => {
      expect(rows).toHaveLength(53);
      expect(new Set(rows.map((r) => r.family)).size).toBe(7);
    });

    it('SIM = round(difflib ratio of the lowercased texts, 4), with the [QUESTION] marker removed', () => {
      expect(rows.map((r) => sim(r.original, r.candidate))).toEqual(rows.map((r) => r.sim));
    });

    it('TCR = Score = magnitude = 1 - SIM, 4 decimals', () => {
      expect(rows.map((r) => magnitude(r.original, r.candidate))).toEqual(rows.map((r) => r.score));
      expect(rows.map((r) => r.tcr)).toEqual(rows.map((r) => r.score));
    });

    it('CES and CES Norm on every Conflict Instruction Stress row, and only there', () => {
      const cis = rows.filter((r) => r.family === 'CIS');
      expect(cis).toHaveLength(6);
      expect(cis.map((r) => conflictExplicitness(r.original, r.candidate))).toMatchObject(
        cis.map((r) => ({ ces: r.ces, cesNorm: r.cesNorm })),
      );
      expect(
        rows.filter((r) => r.family !== 'CIS' && (r.ces !== undefined || r.cesNorm !== undefined)),
      ).toEqual([]);
    });

    it('Classified Level on every row, except the documented deviations (docs/ladder-measure.md)', () => {
      const measured = rows.map((r) => ({
        row: r.row,
        family: r.family,
        targetLevel: r.targetLevel,
        attempt: r.attempt,
        reference: r.classifiedLevel,
        // The reference code's binning: the generic fallback, CL on the magnitude scale.
        waver: measureSeverity(ladderFamily(r.family), r.original, r.candidate, {
          kbType: r.kbType,
          ...REFERENCE_BINNING,
        }).level,
      }));
      const differing = measured.filter((m) => m.waver !== m.reference);
      expect(differing).toEqual(GENERATED_DEMO_DEVIATIONS.map(({ reason: _reason, ...d }) => d));
    });

    it('the deviation: the Format L1 rule applied regardless of the structural gate', () => {
      for (const d of GENERATED_DEMO_DEVIATIONS) {
        const r = rows[d.row - 1];
        if (!r) throw new Error(`row ${d.row} missing`);
        expect(r.structuralGate).toBe(false);
        expect(
          measureSeverity(ladderFamily(r.family), r.original, r.candidate, REFERENCE_BINNING),
        ).toMatchObject({
          level: 2,
          via: 'format-l1-rule',
        });
        // the same markup on a candidate that passed the reference's gate was reclassified there too
        const passed = rows.find(
          (x) => x.family === 'F' && x.structuralGate && x.classifiedLevel === 2 && x.targetLevel === 2,
        );
        expect(
          passed &&
            measureSeverity(ladderFamily('F'), passed.original, passed.candidate, REFERENCE_BINNING).via,
        ).toBe('format-l1-rule');
      }
    });
  },
);
