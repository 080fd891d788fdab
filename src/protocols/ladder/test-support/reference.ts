/**
 * The ladder paper's `generated_demo.csv` (../shared/fixtures/ladder-reference) as typed rows, for
 * the tests that reproduce its SIM, Score, Classified Level, CES and CES Norm. Parsed with waver's
 * own CSV reader (src/data/csv.ts: quoted fields with commas and line breaks).
 */
import { readCsv } from '../../../data/csv.js';
import { sharedFile } from '../../../test-support/shared.js';
import { builtInFamilyCodes, familyName } from '../families/roster.js';
import { type Family, KB_TYPES, type KbType, type Level } from '../types.js';

export const GENERATED_DEMO = 'fixtures/ladder-reference/generated_demo.csv';
export const generatedDemoPath = sharedFile(GENERATED_DEMO);
export const generatedDemoMissing = generatedDemoPath
  ? undefined
  : `skipped: ../shared/${GENERATED_DEMO} is not there (the ladder reference fixtures live in ../shared/fixtures)`;

/** The reference generator prefixes every candidate with this marker; SIM was computed without it. */
export const QUESTION_MARKER = '[QUESTION] ';

export interface GeneratedDemoRow {
  /** 1-based data row (the header is row 0). */
  row: number;
  family: Family;
  targetLevel: Level;
  classifiedLevel: Level;
  attempt: number;
  structuralGate: boolean;
  original: string;
  /** `Generated Input` without its leading marker. */
  candidate: string;
  sim: number;
  tcr: number;
  score: number;
  /** Present on Conflict Instruction Stress rows only. */
  ces?: number;
  cesNorm?: number;
  /** Knowledge Boundary: the boundary type the target level stands for. */
  kbType?: KbType;
}

const FAMILY_BY_NAME = new Map(
  builtInFamilyCodes().map((family): [string, Family] => [familyName(family), family]),
);

function level(text: string | undefined): Level {
  const m = /^L([1-5])$/.exec(text ?? '');
  if (!m) throw new Error(`not a level: ${text}`);
  return Number(m[1]) as Level;
}

export function loadGeneratedDemo(path: string): GeneratedDemoRow[] {
  return readCsv(path).records.map((record, i) => {
    const f = record.fields;
    const family = FAMILY_BY_NAME.get(f.Category ?? '');
    if (!family) throw new Error(`row ${i + 1}: unknown category ${f.Category}`);
    const generated = f['Generated Input'] ?? '';
    if (!generated.startsWith(QUESTION_MARKER)) throw new Error(`row ${i + 1}: no ${QUESTION_MARKER} marker`);
    const targetLevel = level(f['Target Level']);
    const optional = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
    return {
      row: i + 1,
      family,
      targetLevel,
      classifiedLevel: level(f['Classified Level']),
      attempt: Number(f.Attempt),
      structuralGate: f['Structural Gate'] === 'True',
      original: f['Original Input'] ?? '',
      candidate: generated.slice(QUESTION_MARKER.length),
      sim: Number(f.SIM),
      tcr: Number(f.TCR),
      score: Number(f.Score),
      ces: optional(f.CES),
      cesNorm: optional(f['CES Norm']),
      kbType: family === 'KB' ? KB_TYPES[targetLevel - 1] : undefined,
    };
  });
}

/**
 * Rows whose reference `Classified Level` does not follow from docs/method.md's decisions, each with
 * the level waver measures and why (docs/ladder-measure.md#reference-deviations).
 */
export const GENERATED_DEMO_DEVIATIONS: readonly {
  row: number;
  family: Family;
  targetLevel: Level;
  attempt: number;
  reference: Level;
  waver: Level;
  reason: string;
}[] = [
  {
    row: 18,
    family: 'F',
    targetLevel: 2,
    attempt: 2,
    reference: 1,
    waver: 2,
    reason:
      'adds # and - to an original without them; the reference code applies the Format L1 rule only when its structural gate passed (it failed here), docs/method.md applies it to every L1 candidate',
  },
];
