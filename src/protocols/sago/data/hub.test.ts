import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_TYPES } from '../../../data/open/resolve.js';
import { namedDatasets } from '../../../data/registry.js';
import { type LoopbackHub, parquetOf, startLoopbackHub } from '../../../test-support/hub/loopback-hub.js';
import { sharedHubMissing, sharedHubRepos } from '../../../test-support/hub/shared-hub.js';
import { sharedDir } from '../../../test-support/shared.js';
import { loadOpenDataset, resolveOpenPrompts } from './datasets.js';

describe.skipIf(sharedHubMissing)(
  `open prompts from a loopback Hub built from ../shared/data ${sharedHubMissing ? `(skipped: ${sharedHubMissing} missing)` : ''}`,
  () => {
    let hub: LoopbackHub;
    beforeAll(async () => {
      hub = await startLoopbackHub(
        await sharedHubRepos([
          'truthfulqa/truthful_qa',
          'google-research-datasets/nq_open',
          'mandarjoshi/trivia_qa',
          'hotpotqa/hotpot_qa',
          'basicv8vc/SimpleQA',
          'tatsu-lab/alpaca_eval',
        ]),
      );
    });
    afterAll(() => hub.close());
    const opts = () => ({
      env: { HF_ENDPOINT: hub.origin, WAVER_CACHE_DIR: mkdtempSync(join(tmpdir(), 'waver-hubcache-')) },
      hub: { onProgress: () => {}, log: () => {} },
    });

    for (const { name } of namedDatasets(OPEN_TYPES)) {
      it(`${name}: the Hub's columns give the prompts the local file gives`, async () => {
        const fromHub = await loadOpenDataset(name, opts());
        const fromFile = await loadOpenDataset(name, { dataDir: join(sharedDir, 'data') });
        expect(fromHub.map((p) => p.text)).toEqual(fromFile.map((p) => p.text));
        expect(new Set(fromHub.map((p) => p.id)).size).toBe(fromHub.length);
        // Sources name the Hub file, never a cache path.
        expect(fromHub[0]?.source.file).toMatch(/^hf:[^/]+\/[^/]+\//);
      });
    }

    it('the sample records the dataset: commit, file sha256, licence; ids stable across routes where the rows are the same', async () => {
      const [sample] = await resolveOpenPrompts(['truthfulqa'], { n: 4, seed: 0, ...opts() });
      expect(sample?.prompts.map((p) => p.id)).toEqual(['tqa-494', 'tqa-176', 'tqa-35', 'tqa-530']);
      expect(sample?.source?.hub).toMatchObject({
        repo: 'truthfulqa/truthful_qa',
        config: 'generation',
        split: 'validation',
      });
      expect(sample?.source?.licence).toBe('apache-2.0');
      const [nq] = await resolveOpenPrompts(['hf:google-research-datasets/nq_open'], { n: 2, ...opts() });
      expect(nq?.name).toBe('hf:google-research-datasets/nq_open');
      expect(nq?.prompts[0]?.id).toMatch(/^nq-\d+$/);
    });
  },
);

describe('open prompts from a local Parquet file', () => {
  it('reads it with the field mapping', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-pq-'));
    const file = join(dir, 'q.parquet');
    writeFileSync(
      file,
      await parquetOf([
        { q: 'Why is the sky blue?', k: 'a' },
        { q: 'What is fog?', k: 'b' },
      ]),
    );
    const [sample] = await resolveOpenPrompts([file], { n: 2, fields: { prompt: 'q', id: 'k' } });
    expect(sample?.prompts.map((p) => p.id).sort()).toEqual(['a', 'b']);
    // Named by the records' content, never the file (docs/datasets.md#identity).
    expect(sample?.name).toMatch(/^records-[0-9a-f]{12}$/);
    expect(sample?.source).toMatchObject({ name: sample?.name, files: [], records: { count: 2 } });
    expect(sample?.prompts[0]?.dataset).toBe(sample?.name);
  });
});
