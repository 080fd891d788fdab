import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { ProviderRegistry, withProviders } from '../../models/registry.js';
import { CONFIG } from '../index.js';
import { paraphraseSettings } from './config.js';
import { resolveMcItems } from './data/datasets.js';
import { verifyKeys } from './key-check.js';
import { loadParaphraseItems, paraphraseSuite } from './run.js';

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

describe('loadParaphraseItems', () => {
  const settings = paraphraseSettings({});
  const load = (models: string[]) => loadParaphraseItems(CONFIG.validate({ models }), settings);

  it("refuses a model whose file is not there, the file being what its provider's descriptor names", async () => {
    await expect(load(['replay:./no-such-recording.jsonl'])).rejects.toThrow(
      'model file not found: ./no-such-recording.jsonl',
    );
    await expect(load(['gguf:./no-such-model.gguf?ctx=512'])).rejects.toThrow(
      'model file not found: ./no-such-model.gguf',
    );
    // A Hugging Face file is downloaded when the model is made, an endpoint names no file.
    const loaded = await load(['gguf:hf:o/r/m.gguf', 'openai:m@http://127.0.0.1:9/v1']);
    expect(loaded.items.length).toBeGreaterThan(0);
  });

  it("asks a registered provider's descriptor too", async () => {
    const providers = new ProviderRegistry();
    providers.register({
      name: 'recorded',
      spec: { fields: {}, fromString: (rest) => ({ model: rest }) },
      create: () => Promise.reject(new Error('not made here')),
      localFile: (spec) => `${spec.model}.jsonl`,
    });
    await withProviders(providers, () =>
      expect(load(['recorded:./nowhere'])).rejects.toThrow('model file not found: ./nowhere.jsonl'),
    );
  });
});
