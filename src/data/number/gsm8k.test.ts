import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputErrorOf } from '../../test-support/scratch.js';
import { sharedFile } from '../../test-support/shared.js';
import { goldAfterHashes, loadGsm8k, plainNumber } from './gsm8k.js';

describe('goldAfterHashes', () => {
  it('reads the number after the last ####, with thousands separators stripped', () => {
    expect(goldAfterHashes('a\nb\n#### 18')).toBe(18);
    expect(goldAfterHashes('x #### 3\n#### 1,450,000')).toBe(1_450_000);
    expect(goldAfterHashes('#### -2.5')).toBe(-2.5);
    expect(goldAfterHashes('#### $12')).toBe(12);
    expect(goldAfterHashes('no hashes 12')).toBeUndefined();
    expect(goldAfterHashes('#### twelve')).toBeUndefined();
    expect(goldAfterHashes('#### 12 apples')).toBeUndefined();
  });

  it('refuses malformed digit groups rather than guessing', () => {
    expect(plainNumber('1,23')).toBeUndefined();
    expect(plainNumber('12,345')).toBe(12345);
  });
});

describe('loadGsm8k', () => {
  const test = sharedFile('data/gsm8k/test.jsonl');
  it.skipIf(!test)(
    `loads the GSM8K test split${test ? '' : ' (skipped: ../shared/data/gsm8k/test.jsonl missing)'}`,
    () => {
      const seeds = loadGsm8k(test as string);
      expect(seeds).toHaveLength(1319);
      expect(seeds[0]?.id).toBe('gsm8k-test-0');
      expect(seeds[0]?.gold).toBe(18);
      // Line 473 (0-based) is GSM-Symbolic template 0's source problem (README recipe).
      expect(seeds[473]?.question).toMatch(/^Benny saw a 10-foot shark/);
      expect(seeds[473]?.gold).toBe(10);
      // The README counts 14 test golds written with thousands separators; all become plain numbers.
      expect(seeds.every((s) => Number.isFinite(s.gold))).toBe(true);
      expect(seeds.filter((s) => s.gold >= 1000).length).toBeGreaterThanOrEqual(14);
    },
  );

  it('names file, line and field for a seed without a parsable gold', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-gsm8k-'));
    const file = join(dir, 'test.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ question: 'q1', answer: 'ok\n#### 5' })}\n${JSON.stringify({ question: 'q2', answer: 'so\n#### about ten' })}\n`,
    );
    const err = inputErrorOf(() => loadGsm8k(file));
    expect(err.file).toBe(file);
    expect(err.line).toBe(2);
    expect(err.field).toBe('answer');
    expect(err.message).toMatch(/no parsable gold/);

    writeFileSync(file, `${JSON.stringify({ question: 'q', answer: 'no marker 5' })}\n`);
    expect(inputErrorOf(() => loadGsm8k(file)).line).toBe(1);
    writeFileSync(file, '{"question": "q",\n');
    expect(inputErrorOf(() => loadGsm8k(file)).message).toMatch(/not valid JSON/);
    writeFileSync(file, `${JSON.stringify({ answer: '#### 1' })}\n`);
    expect(inputErrorOf(() => loadGsm8k(file)).field).toBe('question');
  });
});
