import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { CONFIG } from '../index.js';
import { answerFormatOf, LadderConfigSchema, ladderSettings } from './config.js';

describe('the ladder config section', () => {
  it("defaults to the paper's and docs/method.md's choices", () => {
    expect(LadderConfigSchema.parse({})).toEqual({
      answerFormat: 'json',
      baselineRepeats: 3,
      strictLoadBands: true,
      genericFallback: false,
      levelBy: 'content',
      kbScoring: 'paper',
      kbRecognizeThreshold: 0.75,
      kbJudgeMaxTokens: 256,
      collapseRatio: 0.8,
      stabilityThreshold: 0.8,
      resamples: 2000,
      confidence: 0.95,
      attempts: 2,
      reference: false,
      parser: 'waver',
      kbPrompt: 'waver',
      quadrant: 'waver',
      collapse: 'waver',
      stability: 'waver',
    });
    expect(ladderSettings({})).toEqual(LadderConfigSchema.parse({}));
  });

  it("takes the reference code's side of every switch with reference: true, a switch set alone still winning", () => {
    expect(LadderConfigSchema.parse({ reference: true })).toMatchObject({
      parser: 'reference',
      kbPrompt: 'reference',
      quadrant: 'reference',
      collapse: 'reference',
      stability: 'reference',
      kbScoring: 'reference',
      kbJudgeMaxTokens: 128,
    });
    expect(LadderConfigSchema.parse({ reference: true, quadrant: 'waver' })).toMatchObject({
      parser: 'reference',
      quadrant: 'waver',
      collapse: 'reference',
    });
    expect(LadderConfigSchema.parse({ parser: 'reference' })).toMatchObject({
      parser: 'reference',
      quadrant: 'waver',
    });
    // Settings already resolved read the same when parsed again (a stored run's config).
    const once = LadderConfigSchema.parse({ reference: true, collapse: 'waver' });
    expect(LadderConfigSchema.parse(once)).toEqual(once);
  });

  it('takes an answer format per model', () => {
    const settings = LadderConfigSchema.parse({
      answerFormat: { models: { phi: 'hashes' } },
    });
    expect(settings.answerFormat).toEqual({ default: 'json', models: { phi: 'hashes' } });
    expect(answerFormatOf(settings, 'phi')).toBe('hashes');
    expect(answerFormatOf(settings, 'openai:gpt-4o-mini')).toBe('json');
    expect(answerFormatOf(LadderConfigSchema.parse({ answerFormat: 'hashes' }), 'any')).toBe('hashes');
    expect(() => LadderConfigSchema.parse({ answerFormat: { models: { phi: 'xml' } } })).toThrow();
  });

  it('is read from waver.yaml, and a bad value or band table is an error naming file, line and key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-ladder-config-'));
    const file = join(dir, 'waver.yaml');
    writeFileSync(
      file,
      'ladder:\n  answerFormat: hashes\n  kbRecognizeThreshold: 0.8\n  families: [SV, KB]\n',
    );
    const config = CONFIG.resolve({ file });
    expect(ladderSettings(config)).toMatchObject({
      answerFormat: 'hashes',
      kbRecognizeThreshold: 0.8,
      families: ['SV', 'KB'],
    });

    const fail = (yaml: string) => {
      writeFileSync(file, yaml);
      try {
        CONFIG.resolve({ file });
      } catch (e) {
        if (e instanceof InputError) return e;
        throw e;
      }
      throw new Error('expected an InputError');
    };
    expect(fail('ladder:\n  answerFormat: xml\n')).toMatchObject({
      file,
      line: 2,
      field: 'ladder.answerFormat',
    });
    expect(fail('ladder:\n  families: [SV, XX]\n').field).toBe('ladder.families.1');
    expect(fail('ladder:\n  collapse: 0.8\n').field).toBe('ladder.collapse');
    // Bands must be increasing by their lower edge: a table that is not is refused with its key.
    const bad = fail(
      'ladder:\n  bands:\n    IQ: [[0.2, 0.3], [0.1, 0.2], [0.3, 0.4], [0.4, 0.5], [0.5, 0.6]]\n',
    );
    expect(bad.field).toMatch(/^ladder\.bands\.IQ/);
  });
});
