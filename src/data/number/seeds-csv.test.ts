import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { sharedFile } from '../../test-support/shared.js';
import { loadGsmSymbolic } from './gsm-symbolic.js';
import { loadLadderSeedsCsv } from './seeds-csv.js';

const csv = sharedFile('fixtures/ladder-reference/gsm8k_symbolic100.csv');
const templates = sharedFile('data/gsm-symbolic/templates/symbolic');

describe('loadLadderSeedsCsv', () => {
  it.skipIf(!csv || !templates)(
    `reads the paper's 100 seeds, the same problems and golds as the GSM-Symbolic templates${csv && templates ? '' : ' (skipped: ../shared fixture or templates missing)'}`,
    () => {
      const seeds = loadLadderSeedsCsv(csv as string);
      expect(seeds).toHaveLength(100);
      expect(seeds[0]).toMatchObject({ id: 'gsm8k-test-11', gold: 694 });
      const fromTemplates = new Map(
        loadGsmSymbolic(templates as string).map((s) => [s.source.match(/#(\d+)\)/)?.[1], s]),
      );
      for (const s of seeds) {
        const t = fromTemplates.get(s.id.replace('gsm8k-test-', ''));
        expect(t, s.id).toBeDefined();
        expect(s.gold, s.id).toBe(t?.gold);
        expect(s.question, s.id).toBe(t?.question);
      }
    },
  );

  it('names file, line and field for a seed without a parsable gold, and for disagreeing golds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-seedcsv-'));
    const file = join(dir, 'seeds.csv');
    writeFileSync(
      file,
      'original_id,question,answer,ground_truth\n1,"A, b?","x\n#### 3",3\n2,"Q?","no gold here",\n',
    );
    let err: unknown;
    try {
      loadLadderSeedsCsv(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    // The second record starts on line 4: the first one's answer spans lines 2-3.
    expect((err as InputError).format()).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: ground_truth: no parsable gold`),
    );

    writeFileSync(file, 'original_id,question,answer,ground_truth\n1,"Q?","#### 3",4\n');
    expect(() => loadLadderSeedsCsv(file)).toThrow(/disagrees/);
    writeFileSync(file, 'original_id,question,answer,ground_truth\n1,"Q?","#### 3",three\n');
    expect(() => loadLadderSeedsCsv(file)).toThrow(/not a number/);
    writeFileSync(file, 'id,question\n1,Q\n');
    expect(() => loadLadderSeedsCsv(file)).toThrow(/missing column 'original_id'/);
  });
});
