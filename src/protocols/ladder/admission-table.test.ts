import { describe, expect, it } from 'vitest';
import { formatAdmissionTable } from './admission-table.js';
import type { LadderBuildSettings } from './report-settings.js';
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
    // SV's L5 and KB's L4 and L5, empty on both seeds, end it with where the rules write them.
    expect(md).toMatch(
      /\| \*\*Total\*\* \| 3 \| 3 \| 2 \| 1 \| 0 \| 2 \| 9 \|\n\n\*\*SV L5 on 0 of 2 seeds\*\*: /,
    );
    expect(md.endsWith('writes it on the others.\n')).toBe(true);
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

  it('says where the rules write a level they filled on fewer than half the seeds, after the by-level table', () => {
    const kb: AdmissionRow = {
      family: 'KB',
      candidates: 400,
      admitted: 236,
      rejectedByGate: { generator: 164 },
      admittedByLevel: { '1': 99, '2': 67, '3': 5, '4': 49, '5': 16 },
      offLevel: 0,
    };
    const sv: AdmissionRow = {
      family: 'SV',
      candidates: 400,
      admitted: 200,
      rejectedByGate: {},
      admittedByLevel: { '1': 78, '2': 62, '3': 38, '4': 21, '5': 1 },
      offLevel: 10,
      unavailable: { seeds: 20, reason: 'needs --generator: short questions' },
    };
    // F states no scope: its sparse L1 gets no note.
    const f: AdmissionRow = {
      ...(rows[2] as AdmissionRow),
      admittedByLevel: { '1': 3, '2': 90, '3': 90, '4': 90, '5': 90 },
    };
    const context = { seeds: 100, generator: 'rules' };
    const md = formatAdmissionTable([sv, f, kb], 'md', context);
    const notes = md
      .slice(md.indexOf('| **Total** |', md.indexOf('Off requested level')))
      .split('\n\n')
      .slice(1)
      .filter(Boolean);
    // SV states its reach at L2-L5 since E77 (levels by the words changed).
    expect(notes.map((n) => n.slice(0, n.indexOf(':')))).toEqual([
      '**SV L3 on 38 of 80 seeds**',
      '**SV L4 on 21 of 80 seeds**',
      '**SV L5 on 1 of 80 seeds**',
      '**KB L3 on 5 of 100 seeds**',
      '**KB L4 on 49 of 100 seeds**',
      '**KB L5 on 16 of 100 seeds**',
    ]);
    expect(md).toContain(
      '**KB L3 on 5 of 100 seeds**: the rules write it only on a problem with a price, fee or wage told in the present',
    );
    expect(md).toContain('(docs/ladder-families.md#kb-l3); `--generator SPEC` writes it on the others.\n');
    expect(md).not.toMatch(/KB L2 on|KB L1 on|F L1 on/);
    // A family unavailable on every seed: "—" by level, not zeros.
    const ci: AdmissionRow = {
      ...(rows[2] as AdmissionRow),
      family: 'CI',
      unavailable: { seeds: 100, reason: 'needs --generator: no distractor' },
    };
    const withCi = formatAdmissionTable([ci, kb], 'md', context);
    expect(withCi).toContain('| Context Interference (CI) | — | — | — | — | — | — | 0 |');
    expect(withCi).not.toMatch(/CI L\d on/);
    const json = JSON.parse(formatAdmissionTable([sv, f, kb], 'json', context));
    expect(json.rulesScope.map((n: { family: string; level: string }) => `${n.family} ${n.level}`)).toEqual([
      'SV L3',
      'SV L4',
      'SV L5',
      'KB L3',
      'KB L4',
      'KB L5',
    ]);
    expect(json.rulesScope[3]).toMatchObject({
      family: 'KB',
      level: 'L3',
      admitted: 5,
      seeds: 100,
      doc: 'docs/ladder-families.md#kb-l3',
    });
    expect(json.rulesScope[3].rulesWriteOnlyOn).toMatch(/^a problem with a price, fee or wage/);
    expect(formatAdmissionTable([sv, f, kb], 'md', context)).toBe(md);
  });

  it("says nothing of the rules' reach for a model generator, a level not built, or unknown seeds", () => {
    const kb: AdmissionRow = {
      family: 'KB',
      candidates: 10,
      admitted: 1,
      rejectedByGate: {},
      admittedByLevel: { '1': 1, '2': 0, '3': 0, '4': 0, '5': 0 },
      offLevel: 0,
    };
    expect(formatAdmissionTable([kb], 'md', { seeds: 10, generator: 'openai/gpt-x' })).not.toContain(
      'rules write',
    );
    expect(formatAdmissionTable([kb], 'md', { generator: 'rules' })).not.toContain('rules write');
    const settings = { levels: [1, 3] } as unknown as LadderBuildSettings;
    const md = formatAdmissionTable([kb], 'md', { seeds: 10, generator: 'rules', settings });
    expect(md).toContain('**KB L3 on 0 of 10 seeds**');
    expect(md).not.toMatch(/KB L[245] on/);
    expect(JSON.parse(formatAdmissionTable([kb], 'json', { seeds: 10, generator: 'x' })).rulesScope).toEqual(
      [],
    );
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
