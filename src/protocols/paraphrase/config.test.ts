import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputError } from '../../errors.js';
import { CONFIG } from '../index.js';
import { PHRASINGS, paraphraseSettings } from './config.js';

describe('paraphrase settings', () => {
  it('defaults: 2 repeats, all five phrasings, 2000 resamples', () => {
    expect(paraphraseSettings({})).toEqual({
      repeats: 2,
      phrasings: [...PHRASINGS],
      phrasingsGiven: false,
      resamples: 2000,
    });
  });

  it('--repeats wins over paraphrase.repeats; phrasings keep report order', () => {
    // The command's flags go over its section field by field (`--repeats`, `--limit`).
    const file = join(mkdtempSync(join(tmpdir(), 'waver-para-config-')), 'waver.yaml');
    writeFileSync(
      file,
      'paraphrase:\n  repeats: 3\n  phrasings: [terse, canonical]\n  resamples: 500\n  limit: 4\n',
    );
    const s = paraphraseSettings(CONFIG.resolve({ file, flags: { paraphrase: { repeats: 5 } } }));
    expect(s).toEqual({
      repeats: 5,
      phrasings: ['canonical', 'terse'],
      phrasingsGiven: true,
      resamples: 500,
      limit: 4,
    });
    expect(paraphraseSettings({ paraphrase: { repeats: 3 } }).repeats).toBe(3);
    expect(paraphraseSettings(CONFIG.resolve({ file, flags: { paraphrase: { limit: 2 } } })).limit).toBe(2);
  });

  it('is part of the config schema: unknown fields, unknown or repeated phrasings are input errors naming the field', () => {
    expect(CONFIG.validate({ paraphrase: { repeats: 3 } }).paraphrase).toEqual({
      repeats: 3,
      resamples: 2000,
    });
    expect(() => CONFIG.validate({ paraphrase: { repeat: 3 } } as never)).toThrow();
    expect(() => CONFIG.validate({ paraphrase: { phrasings: ['sideways'] } } as never)).toThrow();
    try {
      CONFIG.validate({ paraphrase: { phrasings: ['terse', 'terse'] } });
      expect.unreachable();
    } catch (e) {
      expect((e as InputError).reason).toBe('phrasings must not repeat');
    }
  });
});
