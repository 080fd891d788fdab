import { describe, expect, it } from 'vitest';
import { readCsv } from '../../data/csv.js';
import { sharedFile } from '../../test-support/shared.js';
import { builtInFamilyCodes, familyName } from './families/roster.js';
import { kbJudgeTest, parseKbJudgeReply, recognises } from './kb-judge.js';
import { ladderMetrics } from './metrics.js';
import { scoreCell } from './results.js';
import { type Family, KB_LEVEL, type KbType, type LadderTest } from './types.js';

/**
 * Reproduces the per-row correctness of the reference code's scored demo run
 * (`gpt-4o-mini_demo_eval.csv`) from its predictions and gold answers, through waver's own scoring,
 * and asserts each deviation that follows from a docs/method.md decision (docs/ladder.md#reference-eval).
 */

const file = sharedFile('fixtures/ladder-reference/gpt-4o-mini_demo_eval.csv');
const reason = file
  ? ''
  : ' (skipped: ../shared/fixtures/ladder-reference/gpt-4o-mini_demo_eval.csv missing)';

const FAMILY_BY_NAME = new Map<string, Family | 'baseline'>([
  ...builtInFamilyCodes().map((f) => [familyName(f), f] as const),
  ['Temporal Consistency', 'baseline'],
]);

/** The reference code's `Level Boundary` labels, as waver's boundary types. */
const BOUNDARY: Record<string, KbType> = {
  missing_info: 'missing-information',
  fake_evidence: 'fabricated-evidence',
  future: 'not-yet-knowable',
  fake_entity: 'fabricated-entity',
  impossible: 'impossible-premise',
};

/** A done cell's response as scoring reads it. */
function response(text: string): { text: string; finishReason: 'stop' } {
  return { text, finishReason: 'stop' };
}

function ladderTest(row: Record<string, string>, i: number): LadderTest {
  const family = FAMILY_BY_NAME.get(row.Category ?? '');
  if (family === undefined) throw new Error(`row ${i}: unknown category ${row.Category}`);
  const level = Number((row['Classified Level'] ?? 'L0').slice(1)) as 0 | 1 | 2 | 3 | 4 | 5;
  const gt = row['GT: ground_truth'] ?? '';
  return {
    id: `row-${i}`,
    seedId: `source-${row['Source Row']}`,
    family,
    ...(family === 'KB' && { subtype: BOUNDARY[row['Level Boundary'] ?? ''] }),
    requestedLevel: family === 'baseline' ? 0 : (Number((row['Target Level'] ?? 'L1').slice(1)) as 1),
    measuredLevel: level,
    original: row['Original Input'] ?? '',
    text: (row['Generated Input'] ?? '').replace(/^\[QUESTION\] /, ''),
    gold: family === 'KB' ? 'unanswerable' : Number(gt),
    gates: [],
  };
}

describe.skipIf(!file)(`the reference demo run, gpt-4o-mini_demo_eval.csv${reason}`, () => {
  const rows = file ? readCsv(file).records.map((r) => r.fields) : [];

  it('reproduces the correctness of every numeric row (baseline and the six answer-preserving families) from Pred and GT', () => {
    const numeric = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.Category !== 'Knowledge Boundary');
    expect(numeric).toHaveLength(43);
    let correct = 0;
    for (const { r, i } of numeric) {
      const t = ladderTest(r, i);
      const scored = scoreCell(t, {
        status: 'done',
        ...response(r['Pred: ground_truth'] ?? ''),
        repeat: 0,
      });
      expect(
        scored.score,
        `row ${i} (${r.Category} ${r['Classified Level']}): pred ${r['Pred: ground_truth']}`,
      ).toBe(Number(r['Sim: ground_truth']));
      correct += scored.score ?? 0;
    }
    // 3 baseline rows and 28 perturbed rows right; 12 wrong (5 CI, 4 CL, 3 CIS).
    expect(correct).toBe(31);
  });

  it('gives acc(L0) = 1.0 from the three baseline repeats, as the reference run did', () => {
    const base = rows.filter((r) => r.Category === 'Temporal Consistency');
    expect(base).toHaveLength(3);
    const m = ladderMetrics(
      base.map((r) => ({
        seedId: 'q0',
        family: 'baseline' as const,
        level: 0 as const,
        magnitude: 0,
        score: Number(r['Sim: ground_truth']),
      })),
      { seed: 0, resamples: 10 },
    );
    expect(m.baseline.accuracy.value).toBe(1);
  });

  it('deviation 1 (KB scoring): the reference judge saw only the parsed number; waver shows the full response', () => {
    const i = rows.findIndex((r) => r['Judge Method'] === 'llm_judge');
    const row = rows[i] as Record<string, string>;
    expect(row['Pred: ground_truth']).toBe('694'); // what the reference judge was shown
    expect(row['Sim: ground_truth']).toBe('0.0');
    // The same verdict, given to waver as a judge reply, scores the row the same: 0.
    const verdict = parseKbJudgeReply(JSON.stringify({ score: 0.0, reason: row['Judge Reason'] }));
    const t = ladderTest(row, i);
    expect(
      scoreCell(t, { status: 'done', ...response('…full reasoning…\n#### 694'), repeat: 0 }, verdict).score,
    ).toBe(0);
    // But waver's judge prompt carries the question and the whole response, not the parsed "694".
    const full = 'The bakery is in the clouds, which is not possible; still, 3 x 68 + ... = 694.\n#### 694';
    const prompt = kbJudgeTest({
      key: 'x',
      question: t.text,
      response: full,
      kbType: t.subtype as KbType,
    }).prompt;
    expect(prompt).toContain(full);
    expect(prompt).toContain(t.text);
  });

  it('deviation 2 (unscored KB rows): the reference left 3 KB rows without a score; waver judges every KB response and shows a missing verdict as unavailable, never 0', () => {
    const unscored = rows
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => r.Category === 'Knowledge Boundary' && r['Sim: ground_truth'] === '');
    expect(unscored).toHaveLength(3);
    for (const { r, i } of unscored) {
      expect(r['Judge Method']).toBe(''); // no judge call was made
      const cell = scoreCell(ladderTest(r, i), {
        status: 'done',
        ...response('a refusal'),
        repeat: 0,
      });
      expect(cell.score).toBeUndefined();
      expect(cell.judge?.status).toBe('not-run');
    }
    // The reference's accuracy table then read the blank as "not >= 0.80", i.e. incorrect;
    // waver's metrics leave it out of the accuracy and report it as unavailable.
    const m = ladderMetrics(
      [
        {
          seedId: 'q0',
          family: 'KB',
          level: 2,
          kbType: 'fabricated-evidence',
          magnitude: 0.5,
          score: undefined,
        },
      ],
      { seed: 0, resamples: 10 },
    );
    expect(m.families.find((f) => f.family === 'KB')?.levels[2].accuracy.value).toBeUndefined();
  });

  it("deviation 3 (KB levels): the demo's boundary labels sit at other levels than docs/method.md's categorical mapping", () => {
    const kb = rows.filter((r) => r.Category === 'Knowledge Boundary');
    const pairs = kb.map((r) => [
      r['Level Boundary'],
      r['Classified Level'],
      `L${KB_LEVEL[BOUNDARY[r['Level Boundary'] ?? ''] as KbType]}`,
    ]);
    // The demo predates the reference code's final numbering; waver's level is the boundary type's.
    expect(pairs).toEqual([
      ['impossible', 'L1', 'L5'],
      ['missing_info', 'L2', 'L1'],
      ['future', 'L3', 'L3'],
      ['fake_evidence', 'L5', 'L2'],
    ]);
  });

  it('deviation 4 (KB accuracy and the recognise threshold): the mean rubric score, with the share >= 0.75 beside it', () => {
    // The reference counted a KB response correct only at score >= 0.80, so 0.75 was a failure.
    const referenceCorrect = (score: number) => score >= 0.8;
    expect(referenceCorrect(0.75)).toBe(false);
    const m = ladderMetrics(
      [0.75, 1, 0.25, 0].map((score, i) => ({
        seedId: `q${i}`,
        family: 'KB' as const,
        level: 4 as const,
        kbType: 'fabricated-entity' as const,
        magnitude: 0.4,
        score,
      })),
      { seed: 0, resamples: 10 },
    );
    const t = m.kbByType.find((x) => x.kbType === 'fabricated-entity');
    expect(t?.accuracy.value).toBe(0.5); // (0.75 + 1 + 0.25 + 0) / 4, the paper's formula
    expect(t?.recognise?.value).toBe(0.5); // 0.75 and 1 recognise the boundary
    expect(recognises(0.75)).toBe(true);
  });
});
