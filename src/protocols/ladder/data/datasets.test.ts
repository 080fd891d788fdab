import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../errors.js';
import { sharedDir, sharedFile } from '../../../test-support/shared.js';
import { resolveLadderSeeds } from './datasets.js';
import { GRADE_SCHOOL_SEEDS } from './grade-school.js';

const dataDir = join(sharedDir, 'data');
const paperCsv = sharedFile('fixtures/ladder-reference/gsm8k_symbolic100.csv');
const haveData =
  sharedFile('data/gsm8k/test.jsonl') && sharedFile('data/gsm-symbolic/templates/symbolic') && paperCsv;

describe('resolveLadderSeeds', () => {
  it('defaults to the built-in seeds and keeps the first N with a limit', async () => {
    expect(await resolveLadderSeeds(undefined)).toEqual(GRADE_SCHOOL_SEEDS);
    expect((await resolveLadderSeeds('builtin', { limit: 3 })).map((s) => s.id)).toEqual(
      GRADE_SCHOOL_SEEDS.slice(0, 3).map((s) => s.id),
    );
    await expect(resolveLadderSeeds('builtin', { limit: 0 })).rejects.toThrow(InputError);
  });

  it.skipIf(!haveData)(
    `resolves the named datasets in a data dir (WAVER_DATA_DIR)${haveData ? '' : ' (skipped: ../shared/data missing)'}`,
    async () => {
      // A data directory laid out as docs/datasets.md#offline describes, with the paper's CSV in it.
      const dir = mkdtempSync(join(tmpdir(), 'waver-datadir-'));
      for (const d of ['gsm8k', 'gsm-symbolic']) symlinkSync(join(dataDir, d), join(dir, d));
      mkdirSync(join(dir, 'ladder'));
      symlinkSync(paperCsv as string, join(dir, 'ladder', 'gsm8k_symbolic100.csv'));
      const env = { WAVER_DATA_DIR: dir };
      expect(await resolveLadderSeeds('gsm8k', { env })).toHaveLength(1319);
      const sym = await resolveLadderSeeds('gsm-symbolic', { env });
      expect(sym).toHaveLength(100);
      const paper = await resolveLadderSeeds('ladder-seeds', { env });
      expect(paper).toHaveLength(100);
      expect(new Set(paper.map((s) => s.gold))).toEqual(new Set(sym.map((s) => s.gold)));
      // A path works too, and is read by its shape.
      expect(await resolveLadderSeeds(join(dataDir, 'gsm8k', 'test.jsonl'), { limit: 2 })).toHaveLength(2);
    },
  );

  it('names an unknown dataset and a missing data dir', async () => {
    await expect(resolveLadderSeeds('no-such-set', { cwd: tmpdir() })).rejects.toThrow(
      /unknown dataset 'no-such-set'/,
    );
    const empty = mkdtempSync(join(tmpdir(), 'waver-nodata-'));
    await expect(resolveLadderSeeds('gsm8k', { env: { WAVER_DATA_DIR: empty } })).rejects.toThrow(
      /WAVER_DATA_DIR/,
    );
    // The paper's seed CSV is not on the Hub: the message says where it is instead.
    const seeds = resolveLadderSeeds('ladder-seeds', { env: { WAVER_DATA_DIR: empty } });
    await expect(seeds).rejects.toThrow(
      /gsm8k_symbolic100\.csv \(neuroloft-ai\/stability on GitHub, not on the Hugging Face Hub\)/,
    );
    await expect(resolveLadderSeeds('ladder-seeds', { env: { WAVER_DATA_DIR: empty } })).rejects.not.toThrow(
      /download it from the Hugging Face Hub/,
    );
    const odd = join(empty, 'seeds.txt');
    writeFileSync(odd, 'x');
    await expect(resolveLadderSeeds(odd)).rejects.toThrow(/cannot tell the seed format/);
  });
});
