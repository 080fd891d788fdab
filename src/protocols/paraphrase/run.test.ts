import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { CONFIG } from '../index.js';
import { paraphraseSettings } from './config.js';
import { resolveMcItems } from './data/datasets.js';
import { verifyKeys } from './key-check.js';
import { paraphraseSuite } from './run.js';

describe('paraphraseSuite', () => {
  it('every item dropped by the generator is an input error that says why, not an internal error', async () => {
    const config = CONFIG.validate({});
    const settings = paraphraseSettings({});
    const dataset = await resolveMcItems();
    const items = dataset.items.slice(0, 2);
    const loaded = { dataset, items, keyCheck: verifyKeys(items), phrasings: settings.phrasings };
    const dropped = items.map((i) => ({ item: i.id, reason: 'rewrite rejected: it is empty' }));
    const build = () => paraphraseSuite(config, settings, loaded, { byItem: new Map(), dropped });
    expect(build).toThrow(InputError);
    expect(build).toThrow(
      `generator: every item was dropped: the generator could not reword any of them (first: '${items[0]?.id}', rewrite rejected: it is empty)`,
    );
  });
});
