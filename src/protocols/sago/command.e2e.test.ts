import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordingLine } from '../../models/replay.js';
import { auxCount } from '../../run/aux-cache.js';
import { requestFor, roleParams } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { assertBuilt, type CliResult, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { connectionOf } from '../../test-support/store/connection.js';
import { resolveOpenPrompts } from './data/datasets.js';
import { latestManifest } from './manifest.js';
import { judgeTestId, loadSagoResults, type SagoTestMeta } from './results.js';
import { sagoJson } from './tables.js';
import { generatorTest, promptsOf } from './variants.js';
import { FORM_STRENGTH } from './variations/structural.js';

beforeAll(assertBuilt);

/** `waver sago` through the built CLI, with an environment that holds only what the tests set. */
function sago(args: string[], opts: { cwd: string }): Promise<CliResult> {
  return runCli(['sago', ...args], { cwd: opts.cwd, env: cleanEnv() });
}

const withModel = tinyModelPath ? describe : describe.skip;

withModel(`waver sago with the real tiny GGUF ${tinyModelMissing ?? ''}`, () => {
  const model = `gguf:${tinyModelPath}`;

  it('runs offline on the built-in set: real log-probs, entropy and embeddings, all rebuilt from the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-sago-'));
    const store = join(dir, 'store.db');
    const args = [
      '--models',
      model,
      '--embedder',
      model,
      '--limit',
      '2',
      '--families',
      'noise',
      '--variations',
      '6',
      '--max-tokens',
      '16',
      '--store',
      store,
      '--format',
      'json',
    ];
    const r = await sago(args, { cwd: dir });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.prompts).toBe(2);
    expect(out.variations).toBe(6);
    expect(out.variants).toBe(12);
    const m = out.models[0];
    expect(m.coverage).toMatchObject({ total: 14, done: 14, failed: 0 });
    // Every axis is available for an in-process model with an embedder; entropy is exact.
    for (const axis of ['activation', 'bleu', 'bertscore', 'cosine', 'logprob', 'entropy', 'mirroring'])
      expect(m.axes[axis], axis).toMatchObject({ available: true, computed: true });
    expect(m.axes.entropy.approximate).toBeUndefined();
    expect(m.axes.activation.method).toMatch(/final-layer hidden state .* final layer only/);
    expect(m.axes.bertscore.method).toMatch(/word-prefix hidden states from gguf:/);
    const total = m.scores.at(-1);
    expect(total.scope).toBe('total');
    for (const axis of ['activation', 'bleu', 'bertscore', 'cosine', 'logprob', 'entropy']) {
      expect(total.axes[axis].n, axis).toBe(2);
      expect(total.axes[axis].sgs, axis).toBeGreaterThanOrEqual(0);
      expect(total.axes[axis].tests.map((t: { eps: number }) => t.eps)).toEqual([0.01, 0.05, 0.1]);
    }
    // The store alone rebuilds the same numbers (what the report will do).
    const db = openStore(store);
    try {
      const manifest = latestManifest(db);
      expect(manifest?.responsesSuite).toBe(out.suite);
      const rebuilt = JSON.parse(JSON.stringify(sagoJson(loadSagoResults(db, out.suite))));
      expect(rebuilt).toEqual(out);
      // Real log-probs and entropies were stored with every response, embeddings in aux_results.
      for (const cell of db.cells.all({ suiteHash: out.suite })) {
        expect(cell.response?.tokens?.length).toBeGreaterThan(0);
        for (const t of cell.response?.tokens ?? []) {
          expect(t.logprob).toBeLessThanOrEqual(0);
          expect(t.entropy).toBeGreaterThanOrEqual(0);
        }
      }
      expect(auxCount(db, { kind: 'embed' })).toBeGreaterThan(14);
      // The measure rows are a cache: stale or gone, the loader recomputes the same numbers from
      // the stored responses and embeddings.
      const stale = connectionOf(db)
        .prepare(
          "UPDATE aux_results SET result_json = json_set(result_json, '$.fingerprint', 'stale') WHERE kind = 'measure' AND request_json LIKE '%response-features%'",
        )
        .run();
      expect(stale.changes).toBe(2);
      expect(JSON.parse(JSON.stringify(sagoJson(loadSagoResults(db, out.suite))))).toEqual(out);
      connectionOf(db).prepare("DELETE FROM aux_results WHERE kind = 'measure'").run();
      expect(JSON.parse(JSON.stringify(sagoJson(loadSagoResults(db, out.suite))))).toEqual(out);
    } finally {
      db.close();
    }
    // Again: nothing is called twice, and the numbers are identical.
    const again = await sago(args, { cwd: dir });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(out);
    expect(again.stderr).toMatch(/cached 14/);
  }, 120_000);

  it('structural rewrites by a replay generator and politeness by a replay judge', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-sago-roles-'));
    const store = join(dir, 'store.db');
    // The generator's recorded answers: one per structural test the run will send.
    const [sample] = await resolveOpenPrompts([], { n: 2, seed: 0 });
    const prompts = promptsOf(sample ? [sample] : []);
    const genLines: string[] = [];
    const params = roleParams(0, 256);
    for (const p of prompts) {
      for (const v of [
        { subtype: 'length', strength: 0.5 },
        { subtype: 'length', strength: 2 },
        { subtype: 'interrogative', strength: FORM_STRENGTH },
        { subtype: 'imperative', strength: FORM_STRENGTH },
      ]) {
        const test = generatorTest(p, v as never);
        // One unusable reply (empty): that variant is dropped and the reason recorded.
        const reply =
          v.subtype === 'imperative' && p === prompts[1]
            ? ''
            : `Rewritten prompt: "${v.subtype === 'length' && v.strength < 1 ? p.prompt.text.split(' ').slice(0, 4).join(' ') : `Please tell me: ${p.prompt.text}`}"`;
        genLines.push(
          recordingLine(requestFor(test, params), {
            text: reply,
            finishReason: 'stop',
            usage: { inputTokens: 10, outputTokens: 5 },
          }),
        );
      }
    }
    const generator = join(dir, 'generator.jsonl');
    writeFileSync(generator, `${genLines.join('\n')}\n`);
    const common = [
      '--models',
      model,
      '--limit',
      '2',
      '--families',
      'register,structural',
      '--strengths',
      'politeness=-10,10;length=0.5,2',
      '--generator',
      `replay:${generator}`,
      '--max-tokens',
      '12',
      '--store',
      store,
      '--format',
      'json',
    ];
    const first = await sago(common, { cwd: dir });
    expect(first.stderr).not.toMatch(/internal error/);
    expect(first.code).toBe(0);
    const a = JSON.parse(first.stdout);
    expect(a.roles.generator.identity).toMatch(/^replay:/);
    expect(a.rejected).toEqual([
      expect.objectContaining({ subtype: 'imperative', reason: 'generator reply had no usable prompt' }),
    ]);
    // 2 prompts x (6 register + 4 structural) - 1 dropped.
    expect(a.variants).toBe(19);
    expect(a.models[0].axes.mirroring.method).toMatch(/no judge/);
    expect(a.models[0].axes.mirroring.missing['no judge for politeness']).toBe(12);

    // The judge's recorded verdicts, for every reply a register variant needs (variant and baseline).
    const db = openStore(store);
    const judgeLines: string[] = [];
    try {
      const suite = db.suites.get(a.suite);
      const generated =
        suite?.tests.filter((t) => (t.meta as unknown as SagoTestMeta).family === 'structural') ?? [];
      expect(
        generated.every((t) => (t.meta as unknown as SagoTestMeta).generator === `replay:${generator}`),
      ).toBe(true);
      expect(generated.some((t) => t.prompt.startsWith('Please tell me: '))).toBe(true);
      const seen = new Set<string>();
      for (const cell of db.cells.all({ suiteHash: a.suite })) {
        const text = cell.response?.text ?? '';
        if (seen.has(text)) continue;
        seen.add(text);
        const request = requestFor(
          {
            id: judgeTestId(text),
            prompt: (await import('./mirroring.js')).politenessJudgePrompt(text),
          },
          roleParams(0, 64),
        );
        judgeLines.push(
          recordingLine(request, {
            text: `{"register": "${seen.size % 2 === 0 ? 'rude' : 'neutral'}", "reason": "recorded for the test"}`,
            finishReason: 'stop',
            usage: { inputTokens: 10, outputTokens: 8 },
          }),
        );
      }
    } finally {
      db.close();
    }
    const judge = join(dir, 'judge.jsonl');
    writeFileSync(judge, `${judgeLines.join('\n')}\n`);
    const second = await sago([...common, '--judge', `replay:${judge}`], { cwd: dir });
    expect(second.stderr).not.toMatch(/internal error/);
    expect(second.code).toBe(0);
    const b = JSON.parse(second.stdout);
    // Same suite, no new SUT calls; politeness now has values from the judge.
    expect(b.suite).toBe(a.suite);
    expect(second.stderr).toMatch(/cached 21/);
    expect(b.roles.judge.identity).toMatch(/^replay:/);
    expect(b.models[0].axes.mirroring.method).toMatch(/politeness judge \(replay:/);
    expect(b.models[0].axes.mirroring.missing?.['no judge for politeness']).toBeUndefined();
    expect(b.models[0].scores.at(-1).axes.mirroring.values).toBeGreaterThan(
      a.models[0].scores.at(-1).axes.mirroring.values,
    );
  }, 120_000);
});

describe('waver sago: bad input is named and nothing is written', () => {
  const cases: [string, string[], RegExp][] = [
    ['an empty dataset', ['--dataset', 'EMPTY'], /dataset '.*empty\.jsonl' has no prompts/],
    [
      'a sample larger than the dataset',
      ['--limit', '40'],
      /sample size 40 is larger than dataset 'builtin' \(32 prompts\)/,
    ],
    [
      'a strength outside the family range',
      ['--strengths', 'spacing=7'],
      /strength 7 is outside the noise family's spacing range \(allowed: 1, 5, 20, 50, 100\)/,
    ],
    [
      'an axis the provider cannot give',
      ['--models', 'openai:gpt-4o-mini@http://127.0.0.1:9/v1', '--axes', 'activation'],
      /axis 'activation' cannot be computed for openai:gpt-4o-mini@http:\/\/127\.0\.0\.1:9\/v1: openai: the model's hidden states are not exposed/,
    ],
    ['an unknown axis', ['--axes', 'vibes'], /--axes: unknown axis 'vibes' \(expected some of activation, /],
  ];
  for (const [what, extra, message] of cases) {
    it(what, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-sago-bad-'));
      const empty = join(dir, 'empty.jsonl');
      writeFileSync(empty, '');
      const store = join(dir, 'store.db');
      const args = extra.map((x) => (x === 'EMPTY' ? empty : x));
      const models = args.includes('--models') ? [] : ['--models', 'gguf:./no-model-needed-first.gguf'];
      const r = await sago([...models, ...args, '--store', store], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(store)).toBe(false);
    }, 60_000);
  }
});
