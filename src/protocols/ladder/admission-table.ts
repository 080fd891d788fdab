import { familyCard, familyName } from './families/roster.js';
import { type MeaningCheck, meaningCaveat } from './meaning-check.js';
import type { LadderBuildSettings } from './report-settings.js';
import { type AdmissionRow, LEVELS, type Level } from './types.js';

/**
 * The ladder suite's admission table (the paper's Table 3, with the rejections it summarises):
 * per family, candidates generated, tests admitted, and each rejection counted at the first gate
 * that failed. Markdown for people, JSON for programs; both deterministic for the same rows.
 */

export interface AdmissionContext {
  /** Seeds the suite was built from (what the counts are over). */
  seeds?: number;
  /** `rules`, or the generator model's identity. */
  generator?: string;
  /** Whether the meaning gates ran (a suite admitted without them says "meaning not verified"). */
  meaning?: MeaningCheck;
  /** The `ladder:` settings the suite was built with (report-settings.ts). */
  settings?: LadderBuildSettings;
}

/** Gates in pipeline order; a gate this list lacks (a family's own) goes after `structural`. */
const GATE_ORDER = ['generator', 'structural', 'level', 'nli', 'meaning', 'epistemic'];

function gateColumns(rows: readonly AdmissionRow[]): string[] {
  const all = new Set(rows.flatMap((r) => Object.keys(r.rejectedByGate)));
  const known = GATE_ORDER.filter((g) => all.has(g));
  const others = [...all].filter((g) => !GATE_ORDER.includes(g)).sort();
  const at = known.indexOf('structural') + 1;
  return [...known.slice(0, at), ...others, ...known.slice(at)];
}

function totalRow(rows: readonly AdmissionRow[]): Omit<AdmissionRow, 'family'> {
  const total: Omit<AdmissionRow, 'family'> = {
    candidates: 0,
    admitted: 0,
    rejectedByGate: {},
    admittedByLevel: Object.fromEntries(LEVELS.map((l) => [String(l), 0])),
    offLevel: 0,
    superseded: 0,
  };
  for (const r of rows) {
    total.candidates += r.candidates;
    total.admitted += r.admitted;
    total.offLevel += r.offLevel;
    total.superseded = (total.superseded ?? 0) + (r.superseded ?? 0);
    for (const [g, n] of Object.entries(r.rejectedByGate))
      total.rejectedByGate[g] = (total.rejectedByGate[g] ?? 0) + n;
    for (const [l, n] of Object.entries(r.admittedByLevel))
      total.admittedByLevel[l] = (total.admittedByLevel[l] ?? 0) + n;
  }
  return total;
}

/** A level the rules filled on fewer than half the seeds, by design: where the family says they write it. */
interface ScopeNote {
  family: string;
  level: `L${Level}`;
  admitted: number;
  seeds: number;
  rulesWriteOnlyOn: string;
  doc: string;
}

/**
 * The levels of a rules build that hold a test on fewer than half the seeds the family was built
 * on and whose family states where its rules write them (docs/ladder-suite.md#rules-scope): so a
 * sparse cell reads as the rules' reach, never as a measured 0. Rows, then levels, in order.
 */
function scopeNotes(rows: readonly AdmissionRow[], context: AdmissionContext): ScopeNote[] {
  if (context.generator !== 'rules' || context.seeds === undefined) return [];
  const built = context.settings?.levels ?? LEVELS;
  const notes: ScopeNote[] = [];
  for (const r of rows) {
    const seeds = context.seeds - (r.unavailable?.seeds ?? 0);
    const scopes = familyCard(r.family).rulesScope ?? {};
    for (const level of LEVELS) {
      const scope = scopes[level];
      const admitted = r.admittedByLevel[String(level)] ?? 0;
      if (!scope || !built.includes(level) || seeds <= 0 || 2 * admitted >= seeds) continue;
      notes.push({
        family: r.family,
        level: `L${level}`,
        admitted,
        seeds,
        rulesWriteOnlyOn: scope.on,
        doc: scope.doc,
      });
    }
  }
  return notes;
}

function share(admitted: number, candidates: number): number | undefined {
  return candidates === 0 ? undefined : admitted / candidates;
}

export function formatAdmissionTable(
  rows: readonly AdmissionRow[],
  format: 'md' | 'json',
  context: AdmissionContext = {},
): string {
  return format === 'json' ? admissionJson(rows, context) : admissionMarkdown(rows, context);
}

function admissionJson(rows: readonly AdmissionRow[], context: AdmissionContext): string {
  const gates = gateColumns(rows);
  const shape = (r: Omit<AdmissionRow, 'family'>) => {
    const s = share(r.admitted, r.candidates);
    return {
      candidates: r.candidates,
      admitted: r.admitted,
      admittedShare: s ?? null,
      ...(s === undefined && { admittedShareUnavailable: 'no candidates' }),
      rejectedByGate: Object.fromEntries(gates.map((g) => [g, r.rejectedByGate[g] ?? 0])),
      superseded: r.superseded ?? 0,
      admittedByMeasuredLevel: Object.fromEntries(
        LEVELS.map((l) => [`L${l}`, r.admittedByLevel[String(l)] ?? 0]),
      ),
      offLevel: r.offLevel,
      ...('unavailable' in r && r.unavailable && { unavailable: r.unavailable }),
    };
  };
  const out = {
    table: 'ladder-admission',
    ...(context.seeds !== undefined && { seeds: context.seeds }),
    ...(context.generator !== undefined && { generator: context.generator }),
    ...(context.meaning && meaningJson(context.meaning)),
    gates,
    families: rows.map((r) => ({ family: r.family, name: familyName(r.family), ...shape(r) })),
    total: shape(totalRow(rows)),
    rulesScope: scopeNotes(rows, context),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** `meaningVerified`, and with it false the label and its counts. */
export function meaningJson(m: MeaningCheck): Record<string, unknown> {
  const caveat = meaningCaveat(m);
  return {
    meaningVerified: caveat === undefined,
    ...(caveat !== undefined && {
      meaningNotVerified: { label: caveat, tests: m.tests, notRun: m.notRun, gates: m.gates },
    }),
  };
}

function admissionMarkdown(rows: readonly AdmissionRow[], context: AdmissionContext): string {
  const gates = gateColumns(rows);
  const over = [
    context.seeds !== undefined ? `${context.seeds} seeds` : undefined,
    context.generator !== undefined ? `generator: ${context.generator}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const lines: string[] = [];
  lines.push(`## Ladder suite admission (Table 3)${over ? ` — ${over}` : ''}`, '');
  const caveat = context.meaning && meaningCaveat(context.meaning);
  if (caveat !== undefined) lines.push(`**${caveat[0]?.toUpperCase()}${caveat.slice(1)}.**`, '');
  lines.push(
    'Candidates generated and tests admitted per family; a rejected candidate is counted at the first gate it failed. ' +
      '"Superseded": passed every gate but off level, replaced by an on-level retry.',
    '',
  );
  const head = [
    'Family',
    'Candidates',
    'Admitted',
    'Admitted %',
    ...gates.map((g) => `Rejected: ${g}`),
    'Superseded',
  ];
  lines.push(row(head), row(head.map((_, i) => (i === 0 ? '---' : '---:'))));
  const cells = (label: string, r: Omit<AdmissionRow, 'family'>) => {
    const s = share(r.admitted, r.candidates);
    const none = r.unavailable ? `— (unavailable: ${r.unavailable.reason})` : '— (no candidates)';
    return row([
      label,
      String(r.candidates),
      String(r.admitted),
      s === undefined ? none : `${(100 * s).toFixed(1)}%`,
      ...gates.map((g) => String(r.rejectedByGate[g] ?? 0)),
      String(r.superseded ?? 0),
    ]);
  };
  for (const r of rows) lines.push(cells(`${familyName(r.family)} (${r.family})`, r));
  const total = totalRow(rows);
  lines.push(cells('**Total**', total), '');
  for (const r of rows)
    if (r.unavailable)
      lines.push(
        `**${familyName(r.family)} (${r.family}) unavailable on ${r.unavailable.seeds} seeds** (no test, not 0): ${r.unavailable.reason}.`,
        '',
      );

  lines.push(
    'Admitted tests by measured level (tests are binned by the level measured, not the level requested):',
    '',
  );
  const head2 = ['Family', ...LEVELS.map((l) => `L${l}`), 'Off requested level', 'Admitted'];
  lines.push(row(head2), row(head2.map((_, i) => (i === 0 ? '---' : '---:'))));
  // A family unavailable on every seed has no level to count: "—", never a 0 that reads as measured.
  const levelCells = (label: string, r: Omit<AdmissionRow, 'family'>) => {
    const none = r.unavailable !== undefined && r.candidates === 0;
    return row([
      label,
      ...LEVELS.map((l) => (none ? '—' : String(r.admittedByLevel[String(l)] ?? 0))),
      none ? '—' : String(r.offLevel),
      String(r.admitted),
    ]);
  };
  for (const r of rows) lines.push(levelCells(`${familyName(r.family)} (${r.family})`, r));
  lines.push(levelCells('**Total**', total), '');
  for (const n of scopeNotes(rows, context))
    lines.push(
      `**${n.family} ${n.level} on ${n.admitted} of ${n.seeds} seeds**: the rules write it only on ${n.rulesWriteOnlyOn} (${n.doc}); \`--generator SPEC\` writes it on the others.`,
      '',
    );
  return `${lines.join('\n')}`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}
