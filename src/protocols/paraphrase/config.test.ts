import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../config/load.js';
import { PHRASINGS, paraphraseSettings } from './config.js';

describe('paraphrase settings', () => {
  it('defaults: 2 repeats, all five phrasings, 2000 resamples', () => {
    expect(paraphraseSettings(undefined)).toEqual({ repeats: 2, phrasings: [...PHRASINGS], resamples: 2000 });
  });

  it('--repeats wins over paraphrase.repeats; phrasings keep report order', () => {
    const s = paraphraseSettings(
      { repeats: 3, phrasings: ['terse', 'canonical'], resamples: 500, limit: 4 },
      { repeats: 5 },
    );
    expect(s).toEqual({ repeats: 5, phrasings: ['canonical', 'terse'], resamples: 500, limit: 4 });
    expect(paraphraseSettings({ repeats: 3 }).repeats).toBe(3);
    expect(paraphraseSettings({ limit: 4 }, { limit: 2 }).limit).toBe(2);
  });

  it('is part of the config schema: unknown fields, unknown or repeated phrasings are input errors naming the field', () => {
    expect(validateConfig({ paraphrase: { repeats: 3 } }).paraphrase).toEqual({ repeats: 3 });
    expect(() => validateConfig({ paraphrase: { repeat: 3 } } as never)).toThrow();
    expect(() => validateConfig({ paraphrase: { phrasings: ['sideways'] } } as never)).toThrow();
    try {
      validateConfig({ paraphrase: { phrasings: ['terse', 'terse'] } });
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toBe('phrasings must not repeat');
    }
  });
});
