import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackHub, parquetOf, startLoopbackHub } from '../../../test-support/hub/loopback-hub.js';
import { sharedHubMissing, sharedHubRepos } from '../../../test-support/hub/shared-hub.js';
import { closedPort } from '../../../test-support/models/loopback.js';
import { testConfig } from '../../../test-support/protocols/ladder/fakes.js';
import { sharedDataEnv } from '../../../test-support/shared.js';
import { buildLadderSuite } from '../suite.js';
import { readLadderSuite, writeLadderSuite } from '../suite-file.js';
import type { Seed } from '../types.js';
import { resolveLadderSeeds } from './datasets.js';

const local = sharedDataEnv;

describe.skipIf(sharedHubMissing)(
  `ladder seeds from a loopback Hub built from ../shared/data ${sharedHubMissing ? `(skipped: ${sharedHubMissing} missing)` : ''}`,
  () => {
    let hub: LoopbackHub;
    let release: string | Buffer;
    beforeAll(async () => {
      const repos = await sharedHubRepos(['openai/gsm8k', 'apple/GSM-Symbolic']);
      release = repos['apple/GSM-Symbolic']?.files['main/test.jsonl'] as string;
      hub = await startLoopbackHub(repos);
    });
    afterAll(() => hub.close());
    const env = () => ({
      HF_ENDPOINT: hub.origin,
      WAVER_CACHE_DIR: mkdtempSync(join(tmpdir(), 'waver-hubcache-')),
    });
    const hubOpts = { onProgress: () => {}, log: () => {} };
    const strip = (seeds: readonly { id: string; question: string; gold: unknown }[]) =>
      seeds.map(({ id, question, gold }) => ({ id, question, gold }));

    it('gsm8k and hf:openai/gsm8k read main/test-00000-of-00001.parquet: the same seeds as the local JSONL', async () => {
      const e = env();
      const fromHub = await resolveLadderSeeds('gsm8k', { env: e, hub: hubOpts });
      expect(strip(fromHub)).toEqual(strip(await resolveLadderSeeds('gsm8k', { env: local })));
      const source = fromHub[0]?.dataset;
      expect(source?.hub).toEqual({
        repo: 'openai/gsm8k',
        revision: 'main',
        commit: hub.commitOf('openai/gsm8k'),
        config: 'main',
        split: 'test',
      });
      expect(source?.files.map((f) => f.path)).toEqual(['main/test-00000-of-00001.parquet']);
      expect(source?.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(source?.licence).toBe('mit');
      const five = await resolveLadderSeeds('hf:openai/gsm8k', { env: e, hub: hubOpts, limit: 5 });
      expect(five.map((s) => s.id)).toEqual([
        'gsm8k-test-0',
        'gsm8k-test-1',
        'gsm8k-test-2',
        'gsm8k-test-3',
        'gsm8k-test-4',
      ]);
      expect(five[0]?.dataset?.name).toBe('hf:openai/gsm8k');
    });

    it("gsm-symbolic reads apple/GSM-Symbolic's main config: the 100 distinct originals, as the templates give them", async () => {
      const fromHub = await resolveLadderSeeds('gsm-symbolic', { env: env(), hub: hubOpts });
      expect(fromHub).toHaveLength(100);
      expect(strip(fromHub)).toEqual(strip(await resolveLadderSeeds('gsm-symbolic', { env: local })));
      expect(fromHub[0]?.dataset?.licence).toBe('cc-by-nc-nd-4.0');
      expect(fromHub[0]?.dataset?.licenceNote).toMatch(/non-commercial.*no adapted material may be shared/);
    });

    it('the choice and text datasets read from the Hub give the seeds their local files give', async () => {
      const hubRepos = await sharedHubRepos([
        'allenai/ai2_arc',
        'tau/commonsense_qa',
        'mandarjoshi/trivia_qa',
        'basicv8vc/SimpleQA',
        'google-research-datasets/nq_open',
      ]);
      const more = await startLoopbackHub(hubRepos);
      try {
        const e = {
          HF_ENDPOINT: more.origin,
          WAVER_CACHE_DIR: mkdtempSync(join(tmpdir(), 'waver-hubcache-')),
        };
        const answer = (seeds: readonly Record<string, unknown>[]) =>
          seeds.map(({ question, gold, options, aliases, answerType }) => ({
            question,
            gold,
            options,
            aliases,
            answerType,
          }));
        for (const name of ['arc-challenge', 'commonsenseqa', 'triviaqa', 'simpleqa', 'nq-open']) {
          const fromHub = await resolveLadderSeeds(name, { env: e, hub: hubOpts, limit: 20 });
          const fromFile = await resolveLadderSeeds(name, { env: local, limit: 20 });
          expect(answer(fromHub as never[]), name).toEqual(answer(fromFile as never[]));
          expect(fromHub[0]?.dataset?.hub?.repo, name).toBeDefined();
        }
        // A Hub spec naming the repository reads as the named dataset, with its answer type.
        const arc = await resolveLadderSeeds('hf:allenai/ai2_arc?config=ARC-Challenge', {
          env: e,
          hub: hubOpts,
          limit: 2,
        });
        expect(arc[0]?.answerType).toBe('choice');
      } finally {
        await more.close();
      }
    });

    it("GSM-Symbolic's release file downloaded by hand (main/test.jsonl) gives the same 100 seeds", async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'waver-gsmsym-')), 'test.jsonl');
      writeFileSync(file, release);
      const seeds = await resolveLadderSeeds(file);
      expect(strip(seeds)).toEqual(strip(await resolveLadderSeeds('gsm-symbolic', { env: local })));
      expect(seeds[0]?.dataset?.licence).toBe('CC-BY-NC-ND-4.0');
    });

    it('offline with no data directory: names apple/GSM-Symbolic and how to point at a copy, and no local path', async () => {
      const port = await closedPort();
      const err = await resolveLadderSeeds('gsm-symbolic', {
        env: {
          HF_ENDPOINT: `http://127.0.0.1:${port}`,
          WAVER_CACHE_DIR: mkdtempSync(join(tmpdir(), 'waver-hubcache-')),
        },
        hub: hubOpts,
      }).catch((e: unknown) => e);
      expect((err as Error).name).toBe('DownloadError');
      expect((err as Error).message).toMatch(/apple\/GSM-Symbolic/);
      expect((err as Error).message).toMatch(/--dataset FILE.*WAVER_DATA_DIR/);
      expect((err as Error).message).not.toMatch(/shared/);
    });
  },
);

describe('ladder seeds from Parquet and mapped fields', () => {
  it('a local Parquet file with GSM8K columns works as a dataset, named by its records, not its file name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-pq-'));
    const rows = [
      { question: 'Tom has 3 apples and buys 4. How many?', answer: '3+4=7\n#### 7' },
      { question: 'Ann has 10 pens and gives 2 away. How many?', answer: '#### 8' },
    ];
    const file = join(dir, 'test-00000-of-00001.parquet');
    writeFileSync(file, await parquetOf(rows));
    const seeds = await resolveLadderSeeds(file);
    const name = seeds[0]?.dataset?.name as string;
    expect(name).toMatch(/^records-[0-9a-f]{12}$/);
    expect(seeds.map((s) => [s.id, s.gold])).toEqual([
      [`${name}-0`, 7],
      [`${name}-1`, 8],
    ]);
    expect(seeds[0]?.dataset).toEqual({ name, files: [], records: { count: 2, sha256: expect.any(String) } });
    // The same records under another name give the same seeds; other records, other names.
    const renamed = join(dir, 'mine.parquet');
    writeFileSync(renamed, await parquetOf(rows));
    const asked = (s: Seed[]) => s.map(({ source: _where, ...seed }) => seed);
    expect(asked(await resolveLadderSeeds(renamed))).toEqual(asked(seeds));
    const other = join(dir, 'other.parquet');
    writeFileSync(other, await parquetOf(rows.slice(1)));
    expect((await resolveLadderSeeds(other))[0]?.id).not.toBe(seeds[1]?.id);
  });

  it('every test of a suite built from it records the dataset, and the suite file reads back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-pq-'));
    const file = join(dir, 'test.parquet');
    writeFileSync(
      file,
      await parquetOf([{ question: 'Tom has 3 apples and buys 4 more. How many apples?', answer: '#### 7' }]),
    );
    const seeds = await resolveLadderSeeds(file);
    const build = await buildLadderSuite({
      seeds,
      config: testConfig(dir),
      generator: 'rules',
      seed: 1,
      families: ['SV'],
    });
    const path = join(dir, 'suite.jsonl');
    writeLadderSuite(path, build.tests);
    const back = readLadderSuite(path);
    expect(back.length).toBeGreaterThan(1);
    for (const t of back) expect(t.dataset).toEqual(seeds[0]?.dataset);
  });

  it('ladder.fields maps other columns (dotted paths); a missing one is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-pq-'));
    const file = join(dir, 'mine.json');
    writeFileSync(file, JSON.stringify([{ p: { text: 'What is 2+2?' }, n: 4, key: 'a' }]));
    const seeds = await resolveLadderSeeds(file, { fields: { question: 'p.text', gold: 'n', id: 'key' } });
    expect(seeds.map((s) => [s.id, s.question, s.gold])).toEqual([
      [`${seeds[0]?.dataset?.name}-a`, 'What is 2+2?', 4],
    ]);
    await expect(resolveLadderSeeds(file)).rejects.toThrow(
      /no question field.*fields: p, n, key.*ladder\.fields\.question/,
    );
  });

  it('hf: specs are checked: unknown options and bad repository names are input errors', async () => {
    await expect(resolveLadderSeeds('hf:openai/gsm8k?subset=main')).rejects.toThrow(
      /unknown option 'subset'/,
    );
    await expect(resolveLadderSeeds('hf:gsm8k')).rejects.toThrow(/does not name a Hub dataset repository/);
  });
});
