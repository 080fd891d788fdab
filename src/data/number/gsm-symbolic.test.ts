import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { sharedFile } from '../../test-support/shared.js';
import { loadGsmSymbolic } from './gsm-symbolic.js';

const templates = sharedFile('data/gsm-symbolic/templates/symbolic');
const gsm8kTest = sharedFile('data/gsm8k/test.jsonl');

describe('loadGsmSymbolic', () => {
  it.skipIf(!templates || !gsm8kTest)(
    `maps the 100 templates to their GSM8K problems${templates && gsm8kTest ? '' : ' (skipped: ../shared/data gsm-symbolic templates or gsm8k test.jsonl missing)'}`,
    () => {
      const viaGsm8k = loadGsmSymbolic(templates as string, { gsm8kTest });
      const own = loadGsmSymbolic(templates as string);
      expect(viaGsm8k).toHaveLength(100);
      // The README's verified mapping: id -> gsm8k test index (gold).
      const expected: [number, number, number][] = [
        [0, 473, 10],
        [6, 145, 4000],
        [34, 266, 118000],
        [83, 1305, 2325],
        [99, 1141, 20],
      ];
      for (const [id, orig, gold] of expected) {
        const seed = viaGsm8k.find((s) => s.id === `gsm-symbolic-${id}`);
        expect(seed?.gold, `template ${id}`).toBe(gold);
        expect(seed?.source).toContain(`gsm8k test #${orig}`);
      }
      // The templates carry the GSM8K text verbatim, so both routes give the same seeds.
      expect(own).toEqual(viaGsm8k);
    },
  );

  it.skipIf(!templates)(
    `accepts the dataset root as well as the templates folder${templates ? '' : ' (skipped: templates missing)'}`,
    () => {
      const root = join(templates as string, '..', '..');
      expect(loadGsmSymbolic(root).map((s) => s.id)).toEqual(
        loadGsmSymbolic(templates as string).map((s) => s.id),
      );
    },
  );

  it('names the file of a template missing id_orig', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-gsmsym-'));
    mkdirSync(join(dir, 'symbolic'));
    const good = { question: 'Q?', answer: 'a\n#### 4', id_orig: 3, id_shuffled: 0 };
    writeFileSync(join(dir, 'symbolic', '0000.json'), JSON.stringify(good));
    writeFileSync(
      join(dir, 'symbolic', '0001.json'),
      JSON.stringify({ question: 'Q2?', answer: '#### 5', id_shuffled: 1 }),
    );
    let err: unknown;
    try {
      loadGsmSymbolic(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).file).toBe(join(dir, 'symbolic', '0001.json'));
    expect((err as InputError).field).toBe('id_orig');

    writeFileSync(
      join(dir, 'symbolic', '0001.json'),
      JSON.stringify({ ...good, id_orig: 4, answer: '#### ?' }),
    );
    expect(() => loadGsmSymbolic(dir)).toThrow(/no parsable gold/);
    writeFileSync(join(dir, 'symbolic', '0001.json'), JSON.stringify({ ...good, id_shuffled: 1 }));
    expect(() => loadGsmSymbolic(dir)).toThrow(/id_orig 3 is also/);
  });
});
