import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McItem } from '../../data/mc/mc-item.js';
import { recordingLine } from '../../models/replay.js';
import { requestFor, roleParams } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { CONFIG } from '../index.js';
import {
  acceptReword,
  checkRewordable,
  REWORD_MAX_TOKENS,
  REWORD_TEMPERATURE,
  rewordItems,
  rewordTest,
} from './reword.js';
import { REWORD_SUITE } from './suite-names.js';

const item = (id: string, stem: string, alternates?: string[]): McItem => ({
  id,
  stem,
  options: [
    { letter: 'A', text: 'x' },
    { letter: 'B', text: 'y' },
  ],
  key: 'A',
  category: 'test',
  source: 'test',
  ...(alternates ? { alternates } : {}),
});

describe('acceptReword', () => {
  const stem = 'A train leaves at 10:40 and takes 2 hours. When does it arrive?';
  it('takes a rewrite that keeps every number, without labels or quotes', () => {
    expect(
      acceptReword(
        stem,
        'Reworded question: "Departing at 10:40 for a 2-hour trip, when does the train arrive?"',
      ),
    ).toEqual({
      ok: true,
      text: 'Departing at 10:40 for a 2-hour trip, when does the train arrive?',
    });
  });
  it('rejects an empty rewrite, the original, a dropped number and a runaway answer', () => {
    expect(acceptReword(stem, '  ')).toEqual({ ok: false, reason: 'empty rewrite' });
    expect(acceptReword(stem, stem.toUpperCase())).toEqual({
      ok: false,
      reason: 'the rewrite is the original',
    });
    expect(acceptReword(stem, 'A train leaves at 10:40. When does it get there?')).toEqual({
      ok: false,
      reason: 'the rewrite drops the number 2',
    });
    expect(acceptReword(stem, `${stem} ${'and so on '.repeat(40)}`).ok).toBe(false);
  });
});

describe('rewording with the generator role', () => {
  it('uses alternates where items have them and the generator (through runSuite, stored) for the rest; bad rewrites drop the item', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-reword-'));
    const withAlt = item('alt', 'Pick 3 of 5?', ['Choose 3 out of 5?']);
    const good = item('good', 'What is 7 times 6?');
    const lossy = item('lossy', 'What is 9 minus 4?');
    const unrecorded = item('unrecorded', 'Name a colour.');
    const params = roleParams(REWORD_TEMPERATURE, REWORD_MAX_TOKENS);
    const answer = (text: string) => ({
      text,
      finishReason: 'stop' as const,
      usage: { inputTokens: 40, outputTokens: 9 },
    });
    const recording = join(dir, 'generator.jsonl');
    writeFileSync(
      recording,
      `${[
        recordingLine(requestFor(rewordTest(good), params), answer('Multiply 7 by 6: what do you get?')),
        recordingLine(requestFor(rewordTest(lossy), params), answer('What is nine take away four?')),
      ].join('\n')}\n`,
    );
    const store = join(dir, 'store.db');
    const config = CONFIG.validate({ generator: `replay:${recording}`, store });
    const rewords = await rewordItems(config, [withAlt, good, lossy, unrecorded]);
    expect(rewords.fromAlternate).toBe(1);
    expect(rewords.fromGenerator).toBe(1);
    expect(rewords.byItem.get('alt')).toEqual({ text: 'Choose 3 out of 5?', source: { kind: 'alternate' } });
    expect(rewords.byItem.get('good')).toEqual({
      text: 'Multiply 7 by 6: what do you get?',
      source: { kind: 'generator', generator: rewords.generator },
    });
    expect(rewords.generator).toMatch(/^replay:[0-9a-f]{16}$/);
    expect(rewords.dropped).toEqual([
      { item: 'lossy', reason: 'rewrite rejected: the rewrite drops the number 9' },
      {
        item: 'unrecorded',
        reason: expect.stringMatching(/^generator call failed: no_recording: replay .*no recorded response/),
      },
    ]);
    // The generator's calls are in the store like any other: a suite named paraphrase/reword.
    const s = openStore(store);
    try {
      const cells = [...s.cells.all()];
      expect(cells).toHaveLength(3);
      expect(new Set(cells.map((c) => s.suites.get(c.suiteHash)?.name))).toEqual(new Set([REWORD_SUITE]));
    } finally {
      s.close();
    }
  });

  it('needs no generator when every item has an alternate wording, and refuses to start without one otherwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-reword-'));
    const store = join(dir, 'store.db');
    const config = CONFIG.validate({ store });
    const rewords = await rewordItems(config, [item('alt', 'Pick 3?', ['Choose 3?'])]);
    expect(rewords.byItem.size).toBe(1);
    expect(() => checkRewordable(config, [item('bare', 'Pick 3?')])).toThrow(
      "1 item(s) have no alternate wording (first: 'bare') and no generator is configured: pass --generator SPEC to reword them, or leave 'reworded' out of paraphrase.phrasings",
    );
    expect(existsSync(store)).toBe(false);
  });
});
