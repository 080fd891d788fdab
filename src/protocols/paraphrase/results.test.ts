import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordingLine } from '../../models/replay.js';
import { requestFor } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { withPool } from '../define.js';
import { CONFIG } from '../index.js';
import { paraphraseSettings } from './config.js';
import { canonicalPrompt, questionOf } from './phrasings.js';
import { loadParaphraseResults, scoreCell } from './results.js';
import { rewordItems } from './reword.js';
import { loadParaphraseItems, paraphraseSuite, runParaphrase } from './run.js';
import type { ParaphraseTestMeta } from './suite.js';

const meta: ParaphraseTestMeta = {
  protocol: 'paraphrase',
  item: 'lamp',
  category: 'quantitative',
  phrasing: 'options-shuffled',
  options: [
    { letter: 'A', text: '$93' },
    { letter: 'B', text: '$81.90' },
    { letter: 'C', text: '$90' },
    { letter: 'D', text: '$96' },
  ],
  key: 'C',
  itemKey: 'B',
  canonicalOf: { A: 'C', B: 'A', C: 'B', D: 'D' },
  dataset: 'builtin',
  source: 'builtin',
  keyVerified: true,
};

describe('scoreCell', () => {
  it('parses against the options as shown, and maps the answer back to the item lettering', () => {
    expect(scoreCell(meta, 1, 'done', 'C')).toMatchObject({
      given: 'C',
      answer: 'B',
      correct: true,
      via: 'bare',
      key: 'C',
    });
    expect(scoreCell(meta, 0, 'done', 'The answer is B')).toMatchObject({
      given: 'B',
      answer: 'A',
      correct: false,
    });
    expect(scoreCell(meta, 0, 'done', '$90')).toMatchObject({
      given: 'C',
      correct: true,
      via: 'option-text',
    });
    expect(scoreCell(meta, 0, 'done', 'A or C')).toMatchObject({
      correct: false,
      via: 'unparsed',
      reason: 'several letters: A, C',
    });
  });

  it('reads a reply with the question it answers: a letter the question names is that person', () => {
    const kinds: ParaphraseTestMeta = {
      ...meta,
      phrasing: 'canonical',
      options: [
        { letter: 'A', text: 'a knight' },
        { letter: 'B', text: 'a knave' },
      ],
      key: 'B',
      itemKey: 'B',
      canonicalOf: { A: 'A', B: 'B' },
    };
    const prompt = canonicalPrompt(
      'You meet A, who says: "I am a knave and 2 + 2 = 5." What is A?',
      kinds.options,
    );
    expect(questionOf(prompt)).toBe('You meet A, who says: "I am a knave and 2 + 2 = 5." What is A?\n');
    expect(scoreCell(kinds, 0, 'done', 'A is a knave.', undefined, questionOf(prompt))).toMatchObject({
      given: 'B',
      correct: true,
      via: 'option-text',
    });
  });

  it('a failed cell is wrong, with its error kept', () => {
    expect(scoreCell(meta, 0, 'failed', undefined, { kind: 'rate_limit', message: '429' })).toMatchObject({
      status: 'failed',
      correct: false,
      error: { kind: 'rate_limit', message: '429' },
    });
  });
});

describe('loadParaphraseResults', () => {
  it('rebuilds from the store alone what the run reported, for every model the store holds for the suite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-para-results-'));
    const settings = paraphraseSettings({ paraphrase: { limit: 4 } });
    const base = CONFIG.validate({});
    // Two recorded models: one always answers the key, one always "A".
    const recordings = ['key', 'always-a'].map((name) => join(dir, `${name}.jsonl`));
    const config0 = CONFIG.validate({
      models: [`replay:${recordings[0]}`],
      store: join(dir, 'store.db'),
      paraphrase: { limit: 4 },
    });
    for (const file of recordings) writeFileSync(file, '');
    const loaded = await loadParaphraseItems(config0, settings);
    const suite = paraphraseSuite(config0, settings, loaded, await rewordItems(config0, loaded.items));
    recordings.forEach((file, k) => {
      writeFileSync(
        file,
        `${suite.tests
          .map((t) => {
            const m = t.meta as unknown as ParaphraseTestMeta;
            return recordingLine(requestFor(t, base.params), {
              text: k === 0 ? m.key : 'A',
              finishReason: 'stop',
              usage: { inputTokens: 1, outputTokens: 1 },
            });
          })
          .join('\n')}\n`,
      );
    });
    const first = await withPool(config0, {}, (o) => runParaphrase(config0, loaded, o));
    expect(first.suite.hash).toBe(suite.hash);
    expect(first.results.models).toHaveLength(1);
    expect(first.results.models[0]?.metrics.saa.value).toBe(1);
    const both = CONFIG.validate({
      models: recordings.map((r) => `replay:${r}`),
      store: join(dir, 'store.db'),
      paraphrase: { limit: 4 },
    });
    const second = await withPool(both, {}, async (o) =>
      runParaphrase(both, await loadParaphraseItems(both, settings), o),
    );
    expect(second.run.summary.calls).toBe(40);

    const store = openStore(join(dir, 'store.db'));
    try {
      const rebuilt = loadParaphraseResults(store, suite.hash, { resamples: 2000 });
      expect(rebuilt).toEqual(second.results);
      expect(rebuilt.suite).toMatchObject({
        name: 'paraphrase/items',
        dataset: 'builtin',
        items: 4,
        repeats: 2,
        keysVerified: 4,
      });
      const alwaysA = rebuilt.models.find((m) => m.label.endsWith('always-a.jsonl'));
      // Keys of the first four logic items are B, C, D, B: "A" is right only where the shuffle moved the key to A.
      const shuffledKeys = suite.tests.filter(
        (t) => (t.meta as unknown as ParaphraseTestMeta).phrasing === 'options-shuffled',
      );
      const right =
        shuffledKeys.filter((t) => (t.meta as unknown as ParaphraseTestMeta).key === 'A').length * 2;
      expect(alwaysA?.metrics.rawAccuracy.value).toBe(right / 40);
      expect(alwaysA?.metrics.saa.value).toBe(0);
      expect(rebuilt.leaderboard.ranked[0]).toBe(
        rebuilt.models.find((m) => m.label.endsWith('key.jsonl'))?.identity,
      );
      expect(() => loadParaphraseResults(store, 'f'.repeat(64))).toThrow(/no suite f+ in the store/);
    } finally {
      store.close();
    }
  }, 60_000);
});
