import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir, sharedFile } from '../../../test-support/shared.js';
import { mcDataDir, resolveMcItems } from './datasets.js';

const ARC = sharedFile('data/arc-challenge/arc_challenge.jsonl');

describe('resolveMcItems', () => {
  it('gives the 32 built-in items when no dataset is named, or `builtin`', async () => {
    expect((await resolveMcItems()).items).toHaveLength(32);
    expect(await resolveMcItems('builtin')).toMatchObject({ name: 'builtin' });
    expect((await resolveMcItems()).file).toBeUndefined();
  });

  it('finds the data directory: WAVER_DATA_DIR, else none (named datasets come from the Hub)', () => {
    expect(mcDataDir({}, '/a/repo')).toBeUndefined();
    expect(mcDataDir({ WAVER_DATA_DIR: 'data' }, '/a/repo')).toBe(resolve('/a/repo/data'));
  });

  it('reads a generic JSONL file by path (relative to the cwd)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-mcds-'));
    writeFileSync(
      join(dir, 'mine.jsonl'),
      `${JSON.stringify({ id: 'm1', stem: 's', options: ['x', 'y'], key: 'B' })}\n`,
    );
    const ds = await resolveMcItems('mine.jsonl', { cwd: dir });
    // Named by its records' content, never its path (docs/datasets.md#identity).
    expect(ds.name).toMatch(/^records-[0-9a-f]{12}$/);
    expect(ds.file).toBe(join(dir, 'mine.jsonl'));
    expect(ds.items.map((i) => [i.id, i.source])).toEqual([['m1', `${ds.name}:1`]]);
    expect(await resolveMcItems(join(dir, 'mine.jsonl'))).toEqual(ds);
  });

  it('names what it expected for an unknown dataset, and where it looked for a missing named one', async () => {
    await expect(resolveMcItems('mmlu', { cwd: tmpdir() })).rejects.toThrow(
      "unknown dataset 'mmlu': expected builtin, arc-challenge, commonsenseqa, truthfulqa-mc, hf:OWNER/NAME, NAME:FILE, or a .jsonl, .json, .csv or .parquet file",
    );
    const empty = mkdtempSync(join(tmpdir(), 'waver-nodata-'));
    await expect(resolveMcItems('arc', { env: { WAVER_DATA_DIR: empty } })).rejects.toThrow(
      `dataset 'arc-challenge' not found at ${join(empty, 'arc-challenge/arc_challenge.jsonl')}: set WAVER_DATA_DIR`,
    );
    await expect(resolveMcItems('csqa:missing.jsonl', { cwd: empty })).rejects.toThrow(
      'cannot read dataset: no such file',
    );
  });

  (ARC ? it : it.skip)(
    `loads named datasets from WAVER_DATA_DIR, by alias and as NAME:FILE ${ARC ? '' : `(skipped: ${resolve(sharedDir, 'data')} is not there)`}`,
    async () => {
      const dataDir = resolve(sharedDir, 'data');
      const byName = await resolveMcItems('arc', { env: { WAVER_DATA_DIR: dataDir } });
      expect(byName).toMatchObject({ name: 'arc-challenge', file: ARC });
      expect(byName.items).toHaveLength(1172);
      const byPrefix = await resolveMcItems(`arc-challenge:${ARC}`, { cwd: dirname(ARC as string) });
      expect(byPrefix.items).toHaveLength(1172);
      // A relative WAVER_DATA_DIR is read from the cwd.
      expect(
        (
          await resolveMcItems('csqa', {
            env: { WAVER_DATA_DIR: '../shared/data' },
            cwd: resolve(sharedDir, '..', 'main'),
          })
        ).items,
      ).toHaveLength(1221);
      expect((await resolveMcItems('truthfulqa', { env: { WAVER_DATA_DIR: dataDir } })).items).toHaveLength(
        790,
      );
    },
  );
});
