import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../errors.js';
import { sharedDir, sharedFile } from '../../../test-support/shared.js';
import { resolveLadderSeeds } from './datasets.js';
import { GRADE_SCHOOL_SEEDS } from './grade-school.js';

const dataDir = join(sharedDir, 'data');
const haveData = sharedFile('data/gsm8k/test.jsonl') && sharedFile('data/gsm-symbolic/templates/symbolic');

describe('resolveLadderSeeds', () => {
  it('defaults to the built-in seeds and keeps the first N with a limit', () => {
    expect(resolveLadderSeeds(undefined)).toEqual(GRADE_SCHOOL_SEEDS);
    expect(resolveLadderSeeds('builtin', { limit: 3 }).map((s) => s.id)).toEqual(
      GRADE_SCHOOL_SEEDS.slice(0, 3).map((s) => s.id),
    );
    expect(() => resolveLadderSeeds('builtin', { limit: 0 })).toThrow(InputError);
  });

  it.skipIf(!haveData)(
    `resolves the named datasets in a data dir (WAVER_DATA_DIR)${haveData ? '' : ' (skipped: ../shared/data missing)'}`,
    () => {
      const env = { WAVER_DATA_DIR: dataDir };
      expect(resolveLadderSeeds('gsm8k', { env })).toHaveLength(1319);
      const sym = resolveLadderSeeds('gsm-symbolic', { env });
      expect(sym).toHaveLength(100);
      const paper = resolveLadderSeeds('ladder-seeds', { env });
      expect(paper).toHaveLength(100);
      expect(new Set(paper.map((s) => s.gold))).toEqual(new Set(sym.map((s) => s.gold)));
      // A path works too, and is read by its shape.
      expect(resolveLadderSeeds(join(dataDir, 'gsm8k', 'test.jsonl'), { limit: 2 })).toHaveLength(2);
    },
  );

  it('names an unknown dataset and a missing data dir', () => {
    expect(() => resolveLadderSeeds('no-such-set', { cwd: tmpdir() })).toThrow(
      /unknown dataset 'no-such-set'/,
    );
    const empty = mkdtempSync(join(tmpdir(), 'waver-nodata-'));
    expect(() => resolveLadderSeeds('gsm8k', { env: { WAVER_DATA_DIR: empty } })).toThrow(/WAVER_DATA_DIR/);
    const odd = join(empty, 'seeds.txt');
    writeFileSync(odd, 'x');
    expect(() => resolveLadderSeeds(odd)).toThrow(/cannot tell the seed format/);
  });
});
