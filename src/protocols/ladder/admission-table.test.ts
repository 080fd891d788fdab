import { describe, expect, it } from 'vitest';
import { formatAdmissionTable } from './admission-table.js';
import type { AdmissionRow } from './types.js';

const rows: AdmissionRow[] = [
  {
    family: 'SV',
    candidates: 10,
    admitted: 6,
    rejectedByGate: { meaning: 1, structural: 2, nli: 1 },
    admittedByLevel: { '1': 2, '2': 2, '3': 1, '4': 1, '5': 0 },
    offLevel: 2,
    superseded: 0,
  },
  {
    family: 'KB',
    candidates: 5,
    admitted: 3,
    rejectedByGate: { epistemic: 1, generator: 1 },
    admittedByLevel: { '1': 1, '2': 1, '3': 1, '4': 0, '5': 0 },
    offLevel: 0,
  },
  {
    family: 'F',
    candidates: 0,
    admitted: 0,
    rejectedByGate: {},
    admittedByLevel: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
    offLevel: 0,
    superseded: 0,
  },
];

describe('formatAdmissionTable', () => {
  it('JSON: per family and total, rejections by gate in pipeline order, no share for no candidates', () => {
    const json = JSON.parse(formatAdmissionTable(rows, 'json', { seeds: 2, generator: 'rules' }));
    expect(json.table).toBe('ladder-admission');
    expect(json.seeds).toBe(2);
    expect(json.gates).toEqual(['generator', 'structural', 'nli', 'meaning', 'epistemic']);
    expect(json.families[0]).toMatchObject({
      family: 'SV',
      name: 'Semantic Variation',
      candidates: 10,
      admitted: 6,
      admittedShare: 0.6,
      rejectedByGate: { generator: 0, structural: 2, nli: 1, meaning: 1, epistemic: 0 },
      admittedByMeasuredLevel: { L1: 2, L2: 2, L3: 1, L4: 1, L5: 0 },
      offLevel: 2,
    });
    expect(json.families[2]).toMatchObject({
      admittedShare: null,
      admittedShareUnavailable: 'no candidates',
    });
    expect(json.total).toMatchObject({
      candidates: 15,
      admitted: 9,
      admittedShare: 0.6,
      rejectedByGate: { generator: 1, structural: 2, nli: 1, meaning: 1, epistemic: 1 },
      admittedByMeasuredLevel: { L1: 3, L2: 3, L3: 2, L4: 1, L5: 0 },
      offLevel: 2,
      superseded: 0,
    });
  });

  it('Markdown: the two tables, with what the counts are over, and — for a family without candidates', () => {
    const md = formatAdmissionTable(rows, 'md', { seeds: 2, generator: 'rules' });
    expect(md).toMatch(/^## Ladder suite admission \(Table 3\) — 2 seeds, generator: rules\n/);
    expect(md).toContain(
      '| Family | Candidates | Admitted | Admitted % | Rejected: generator | Rejected: structural | Rejected: nli | Rejected: meaning | Rejected: epistemic | Superseded |',
    );
    expect(md).toContain('| Semantic Variation (SV) | 10 | 6 | 60.0% | 0 | 2 | 1 | 1 | 0 | 0 |');
    expect(md).toContain('| Structural/Format (F) | 0 | 0 | — (no candidates) | 0 | 0 | 0 | 0 | 0 | 0 |');
    expect(md).toContain('| **Total** | 15 | 9 | 60.0% | 1 | 2 | 1 | 1 | 1 | 0 |');
    expect(md).toContain('| Family | L1 | L2 | L3 | L4 | L5 | Off requested level | Admitted |');
    expect(md).toContain('| Knowledge Boundary (KB) | 1 | 1 | 1 | 0 | 0 | 0 | 3 |');
    expect(md.endsWith('|\n')).toBe(true);
  });

  it('says "meaning not verified" when the meaning gates did not run, in Markdown and JSON', () => {
    const meaning = { tests: 9, notRun: 7, gates: ['nli', 'meaning'] };
    const md = formatAdmissionTable(rows, 'md', { seeds: 2, generator: 'rules', meaning });
    expect(md).toContain(
      '**Meaning not verified: 7 of 9 perturbed tests were admitted without their nli/meaning gate (no judge ran); they passed the offline gates only.**',
    );
    const json = JSON.parse(formatAdmissionTable(rows, 'json', { meaning }));
    expect(json.meaningVerified).toBe(false);
    expect(json.meaningNotVerified).toMatchObject({ tests: 9, notRun: 7, gates: ['nli', 'meaning'] });
    const verified = { tests: 9, notRun: 0, gates: [] };
    expect(formatAdmissionTable(rows, 'md', { meaning: verified })).not.toMatch(/not verified/i);
    expect(JSON.parse(formatAdmissionTable(rows, 'json', { meaning: verified })).meaningVerified).toBe(true);
  });

  it('places a family gate between structural and level', () => {
    const json = JSON.parse(
      formatAdmissionTable(
        [{ ...(rows[0] as AdmissionRow), rejectedByGate: { level: 1, family: 2, structural: 1 } }],
        'json',
      ),
    );
    expect(json.gates).toEqual(['structural', 'family', 'level']);
  });
});
