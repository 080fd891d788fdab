import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedDatasets } from '../../../data/registry.js';
import { type LoopbackHub, parquetOf, startLoopbackHub } from '../../../test-support/hub/loopback-hub.js';
import { sharedHubMissing, sharedHubRepos } from '../../../test-support/hub/shared-hub.js';
import { sharedDataEnv } from '../../../test-support/shared.js';
import { resolveMcItems } from './datasets.js';

const local = sharedDataEnv;

describe.skipIf(sharedHubMissing)(
  `multiple-choice items from a loopback Hub built from ../shared/data ${sharedHubMissing ? `(skipped: ${sharedHubMissing} missing)` : ''}`,
  () => {
    let hub: LoopbackHub;
    beforeAll(async () => {
      hub = await startLoopbackHub(
        await sharedHubRepos(['allenai/ai2_arc', 'tau/commonsense_qa', 'truthfulqa/truthful_qa']),
      );
    });
    afterAll(() => hub.close());
    const opts = () => ({
      env: { HF_ENDPOINT: hub.origin, WAVER_CACHE_DIR: mkdtempSync(join(tmpdir(), 'waver-hubcache-')) },
      hub: { onProgress: () => {}, log: () => {} },
    });
    const view = (items: { id: string; stem: string; options: unknown; key: string }[]) =>
      items.map(({ id, stem, options, key }) => ({ id, stem, options, key }));

    for (const { name } of namedDatasets(['choice'])) {
      it(`${name}: the Hub's columns (parallel choice lists, label keys) give the local file's items`, async () => {
        const fromHub = await resolveMcItems(name, opts());
        const fromFile = await resolveMcItems(name, { env: local });
        expect(view(fromHub.items)).toEqual(view(fromFile.items));
        expect(fromHub.source?.hub?.commit).toBe(hub.commitOf(fromHub.source?.hub?.repo as string));
        expect(fromHub.file).toBeUndefined();
      });
    }

    it("NAME:FILE with the Hub's Parquet file (downloaded by hand) reads it in the Hub's columns", async () => {
      const repos = await sharedHubRepos(['allenai/ai2_arc']);
      const file = join(mkdtempSync(join(tmpdir(), 'waver-arcpq-')), 'test-00000-of-00001.parquet');
      writeFileSync(
        file,
        repos['allenai/ai2_arc']?.files['ARC-Challenge/test-00000-of-00001.parquet'] as Buffer,
      );
      const ds = await resolveMcItems(`arc:${file}`);
      expect(view(ds.items)).toEqual(view((await resolveMcItems('arc', { env: local })).items));
      // The declared name, the records' digest and the catalog's licence; never the file's path.
      expect(ds.source).toMatchObject({ name: 'arc-challenge', files: [], licence: 'CC-BY-SA-4.0' });
      expect(ds.source?.records?.sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('a named repository as hf: reads as that dataset; the suite record carries the licence', async () => {
      const ds = await resolveMcItems('hf:allenai/ai2_arc?config=ARC-Challenge&split=test', opts());
      expect(ds.name).toBe('arc-challenge');
      expect(ds.items[0]?.source).toBe('arc-challenge:Mercury_0');
      expect(ds.source?.licence).toBe('CC-BY-SA-4.0');
      expect(ds.source?.licenceNote).toMatch(/same licence/);
    });
  },
);

describe('multiple-choice items from records with paraphrase.fields', () => {
  it('maps a Parquet file with ARC-style choices and an index key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-pq-'));
    const file = join(dir, 'mc.parquet');
    writeFileSync(
      file,
      await parquetOf([
        { q: 'Which is a fruit?', opts: { text: ['stone', 'apple'], label: ['1', '2'] }, gold: '2' },
        { q: 'Which is blue?', opts: { text: ['sky', 'grass'], label: ['1', '2'] }, gold: '1' },
      ]),
    );
    const ds = await resolveMcItems(file, { fields: { stem: 'q', options: 'opts', key: 'gold' } });
    expect(ds.items.map((i) => [i.id, i.key, i.options.map((o) => o.letter).join('')])).toEqual([
      ['item-0', 'B', 'AB'],
      ['item-1', 'A', 'AB'],
    ]);
    await expect(resolveMcItems(file)).rejects.toThrow(/no stem field.*paraphrase\.fields\.stem/);
  });
});
