import type { WaverConfig } from '../config/schema.js';
import type { Capabilities, GenerateResult } from '../models/types.js';
import { withAdapters } from '../protocols/adapters.js';
import { CONFIG, PROTOCOLS } from '../protocols/index.js';
import { type KbJudgeJob, kbJudgeTest } from '../protocols/ladder/kb-judge.js';
import { ladderRunConfig, ladderSuite } from '../protocols/ladder/run.js';
import { KB_JUDGE_SUITE } from '../protocols/ladder/suite-names.js';
import { ladderTest } from '../protocols/ladder/test-support/ladder-test.js';
import type { KbType, LadderTest, Seed } from '../protocols/ladder/types.js';
import { BUILTIN_MC_ITEMS } from '../protocols/paraphrase/data/builtin-items.js';
import { buildParaphraseSuite } from '../protocols/paraphrase/suite.js';
import type { SagoModelRecord } from '../protocols/sago/axes.js';
import { SagoConfig } from '../protocols/sago/config.js';
import { type SagoManifest, saveManifest } from '../protocols/sago/manifest.js';
import { responsesSuite } from '../protocols/sago/run.js';
import { ruleVariations } from '../protocols/sago/variants.js';
import { reportedProtocols } from '../report/reported-protocols.js';
import { cacheKey } from '../run/cache-key.js';
import { requestFor } from '../run/plan.js';
import { suiteOf } from '../run/suite.js';
import type { Suite } from '../run/types.js';
import { type CellWrite, openStore, type Store } from '../store/store.js';

/**
 * A small store holding one run of every protocol, written through the Store API with each
 * protocol's own suite builders (ladderSuite, buildParaphraseSuite, responsesSuite, kbJudgeTest,
 * saveManifest), so the report reads it exactly as it reads a real run. Responses are canned and
 * named as such; some are hostile (HTML, script, markdown links), as a model's output may be.
 */

/** A response no page may run: the browser tests assert `window.__waverPwned` stays undefined. */
export const HOSTILE_RESPONSE =
  'Sure! <script>window.__waverPwned = "script"</script><img src=x onerror="window.__waverPwned = \'img\'"> ' +
  'See [the answer](javascript:window.__waverPwned=%22link%22) and </script><b>bold</b>. #### 7';

/** A dataset string that tries to close the page's data element. */
export const HOSTILE_QUESTION =
  'A shop sells 4 boxes of 3 pens. </script><script>window.__waverPwned = "data"</script> How many pens?';

/** Every protocol as the report is handed it (the CLI's: src/protocols/index.ts). */
export const REPORTED = await reportedProtocols(await withAdapters(PROTOCOLS));

export const MODELS = [
  { label: 'replay:alpha', identity: 'replay:alpha@sha256:aaaa' },
  { label: 'replay:beta <b>', identity: 'replay:beta@sha256:bbbb' },
] as const;

const SEEDS: Seed[] = [
  {
    id: 'seed-a',
    question:
      'Mia buys 3 boxes of pencils. Each box holds 12 pencils. She gives 5 pencils to her brother. How many pencils does Mia have left?',
    gold: 31,
    source: 'test',
  },
  { id: 'seed-b', question: HOSTILE_QUESTION, gold: 12, source: 'test' },
];

const [A, B] = SEEDS as [Seed, Seed];
export const LADDER_TESTS: LadderTest[] = [
  ladderTest(A, 'baseline', 0, A.question, { magnitude: 0 }),
  ladderTest(B, 'baseline', 0, B.question, { magnitude: 0 }),
  ladderTest(A, 'SV', 1, A.question.replace('buys', 'purchases'), { magnitude: 0.08 }),
  ladderTest(B, 'SV', 1, B.question.replace('sells', 'offers'), { magnitude: 0.07 }),
  ladderTest(A, 'IQ', 2, A.question.replace('pencils', 'pencls'), { magnitude: 0.03 }),
  ladderTest(B, 'IQ', 2, B.question.replace('boxes', 'boxs'), { magnitude: 0.03 }),
  ladderTest(A, 'KB', 1, A.question.replace('3 boxes', 'some boxes'), {
    magnitude: 0.1,
    kbType: 'missing-information',
  }),
  ladderTest(B, 'KB', 5, `${B.question} The pens are made of thunder.`, {
    magnitude: 0.3,
    kbType: 'impossible-premise',
  }),
];

function result(text: string, extra: Partial<GenerateResult> = {}): GenerateResult {
  return { text, finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 }, ...extra };
}

const AT = '2025-01-01T00:00:00.000Z';
const PLAIN_PARAMS = { temperature: 0, maxTokens: 64, logprobs: false };

interface Answer {
  text?: string;
  error?: string;
}

function writeCells(
  store: Store,
  suite: Suite,
  runId: string,
  model: { label: string; identity: string },
  answer: (testId: string, repeat: number) => Answer | undefined,
  params: WaverConfig['params'],
  repeats = 1,
  tokens?: (text: string) => GenerateResult['tokens'],
): void {
  const writes: CellWrite[] = [];
  for (const t of suite.tests)
    for (let r = 0; r < (t.repeats ?? repeats); r++) {
      const a = answer(t.id, r);
      if (!a) continue;
      const request = requestFor(t, params);
      const ref = {
        suiteHash: suite.hash,
        testId: t.id,
        model: model.label,
        modelIdentity: model.identity,
        repeat: r,
        runId,
      };
      if (a.error !== undefined)
        writes.push({
          kind: 'failed',
          cell: {
            ...ref,
            request,
            error: { kind: 'server', message: a.error, status: 503 },
            attempts: [{ attempt: 1, startedAt: AT, outcome: 'server', message: a.error, status: 503 }],
          },
        });
      else {
        const text = a.text ?? '';
        const toks = tokens?.(text);
        writes.push({
          kind: 'done',
          cell: {
            ...ref,
            key: cacheKey(model.identity, request, r),
            request,
            result: result(text, toks ? { tokens: toks } : {}),
            attempts: [{ attempt: 1, startedAt: AT, latencyMs: 5, outcome: 'ok' }],
          },
        });
      }
    }
  store.cells.write(writes);
}

/** Builds the store in `path` (':memory:' works) and returns it open. */
export function buildReportStore(path = ':memory:'): Store {
  const store = openStore(path);
  addLadder(store);
  addSago(store);
  addParaphrase(store);
  addPlain(store);
  return store;
}

function addLadder(store: Store): void {
  const config = CONFIG.schema.parse({
    store: 'fixture.db',
    models: MODELS.map((m) => m.label),
    judge: 'replay:judge',
    seed: 7,
    ladder: { resamples: 200 },
  });
  const suite = ladderSuite(LADDER_TESTS, config);
  store.suites.save(suite);
  // Recorded as runLadder records it: with the cap its cells are sent.
  const runId = store.runs.begin({
    id: 'run-ladder',
    suiteHash: suite.hash,
    config: ladderRunConfig(config),
    waverVersion: 'test',
  });
  const byId = new Map(LADDER_TESTS.map((t) => [t.id, t]));
  const answers =
    (model: number) =>
    (testId: string, repeat: number): Answer => {
      const t = byId.get(testId) as LadderTest;
      if (t.family === 'KB')
        return {
          text:
            t.seedId === 'seed-a'
              ? 'The number of boxes is missing, so it cannot be answered.'
              : HOSTILE_RESPONSE,
        };
      if (t.family === 'IQ' && t.seedId === 'seed-a' && model === 0) return { error: 'upstream overloaded' };
      // beta misreads the rephrased SV question of seed-b (a flip); alpha answers in JSON.
      const gold = t.gold as number;
      const wrong = model === 1 && t.family === 'SV' && t.seedId === 'seed-b';
      const n = wrong ? gold + 1 : gold;
      return { text: model === 0 ? `{"ground_truth": ${n}}` : `Step by step (repeat ${repeat}).\n#### ${n}` };
    };
  MODELS.forEach((m, k) => {
    writeCells(store, suite, runId, m, answers(k), config.params);
  });
  store.runs.finish(runId, 'incomplete');

  // The KB judge's verdicts, as runLadder stores them: one judge test per KB response.
  const jobs: KbJudgeJob[] = [];
  for (const m of MODELS)
    for (const cell of store.cells.all({
      suiteHash: suite.hash,
      modelIdentity: m.identity,
      status: 'done',
    })) {
      const t = byId.get(cell.testId);
      if (t?.family !== 'KB' || !cell.response) continue;
      jobs.push({
        key: `${m.identity.slice(-4)}/${cell.testId}/${cell.repeat}`,
        question: t.text,
        response: cell.response.text,
        kbType: t.subtype as KbType,
        meta: {
          sutSuite: suite.hash,
          modelIdentity: m.identity,
          testId: cell.testId,
          repeat: cell.repeat,
          responseKey: cell.responseKey,
        },
      });
    }
  const judgeSuite = suiteOf(
    KB_JUDGE_SUITE,
    jobs.map((job) => kbJudgeTest(job)),
  );
  store.suites.save(judgeSuite);
  const judgeConfig = {
    ...config,
    models: ['replay:judge'],
    repeats: 1,
    params: { temperature: 0, maxTokens: 256, logprobs: false },
  };
  const judgeRun = store.runs.begin({
    id: 'run-kb-judge',
    suiteHash: judgeSuite.hash,
    config: judgeConfig,
    waverVersion: 'test',
  });
  writeCells(
    store,
    judgeSuite,
    judgeRun,
    { label: 'replay:judge', identity: 'replay:judge@sha256:cccc' },
    (testId) => {
      const job = jobs.find((j) => j.key === testId);
      return {
        text:
          job?.response === HOSTILE_RESPONSE
            ? '{"score": 0, "reason": "answers <b>7</b> as if the premise held"}'
            : '{"score": 1.0, "reason": "names the missing number of boxes"}',
      };
    },
    judgeConfig.params,
  );
  store.runs.finish(judgeRun, 'complete');
}

const OPENAI: Capabilities = {
  chat: true,
  tokenLogprobs: true,
  topLogprobs: 2,
  fullDistribution: false,
  scoreContinuation: false,
  embeddings: false,
};

function addSago(store: Store): void {
  const settings = SagoConfig.parse({
    families: ['noise', 'register'],
    strengths: { politeness: [-10, 10], spacing: [5], punctuation: [3], casing: [50] },
    ablation: { sizes: [2, 3], draws: 20 },
  });
  const prompts = ['Why is the sky blue?', 'What is fog?', 'How do tides form?'].map((text, i) => ({
    key: `builtin::q${i}`,
    prompt: { id: `q${i}`, dataset: i < 2 ? 'builtin' : 'other', text, source: { file: 'test' } },
  }));
  const suite = responsesSuite(ruleVariations(prompts, settings, 0));
  store.suites.save(suite);
  const records: SagoModelRecord[] = MODELS.map((m) => ({ ...m, provider: 'openai', capabilities: OPENAI }));
  const config = {
    models: MODELS.map((m) => m.label),
    seed: 7,
    repeats: 1,
    params: { temperature: 0, maxTokens: 64, logprobs: true },
  };
  const runId = store.runs.begin({ id: 'run-sago', suiteHash: suite.hash, config, waverVersion: 'test' });
  const tokens = (text: string) =>
    text.split(' ').map((w, i) => ({
      token: w,
      logprob: -0.1 * (i + 1),
      top: [
        { token: w, logprob: -0.1 * (i + 1) },
        { token: 'x', logprob: -2.5 },
      ],
    }));
  records.forEach((m, k) => {
    writeCells(
      store,
      suite,
      runId,
      m,
      (testId) => {
        const i = suite.tests.findIndex((t) => t.id === testId);
        return { text: i % (2 + k) === 0 ? 'the answer is blue light scattering' : 'the answer is grey' };
      },
      config.params,
      1,
      tokens,
    );
  });
  store.runs.finish(runId, 'complete');
  const manifest: SagoManifest = {
    version: 1,
    responsesSuite: suite.hash,
    models: records,
    seed: 7,
    minCoverage: 0.9,
    settings: { ...settings, structural: 'rules' },
    datasets: [
      { name: 'builtin', available: 32, n: 2 },
      { name: 'other', available: 5, n: 1 },
    ],
    rejected: [],
  };
  saveManifest(store, manifest);
}

function addParaphrase(store: Store): void {
  const items = BUILTIN_MC_ITEMS.slice(0, 3);
  const suite = buildParaphraseSuite(items, {
    phrasings: ['canonical', 'reworded', 'terse', 'verbose', 'options-shuffled'],
    repeats: 2,
    runSeed: 7,
    dataset: 'builtin',
    verified: new Set(items.map((i) => i.id)),
    rewords: {
      byItem: new Map(
        items.map((i) => [
          i.id,
          { text: i.alternates?.[0] ?? i.stem, source: { kind: 'alternate' as const } },
        ]),
      ),
    },
  });
  store.suites.save(suite);
  const config = {
    models: MODELS.map((m) => m.label),
    seed: 7,
    repeats: 2,
    minCoverage: 0.9,
    paraphrase: { resamples: 200 },
    params: { temperature: 0 },
  };
  const runId = store.runs.begin({
    id: 'run-paraphrase',
    suiteHash: suite.hash,
    config,
    waverVersion: 'test',
  });
  const byId = new Map(suite.tests.map((t) => [t.id, t]));
  MODELS.forEach((m, k) => {
    writeCells(
      store,
      suite,
      runId,
      m,
      (testId, repeat) => {
        const meta = byId.get(testId)?.meta as { key: string; phrasing: string; item: string };
        if (k === 1 && meta.phrasing === 'terse' && repeat === 1) return { error: 'connection reset' };
        if (k === 0 && meta.phrasing === 'options-shuffled' && meta.item === items[0]?.id)
          return { text: 'Answer: Z' };
        if (k === 1 && meta.phrasing === 'verbose' && meta.item === items[1]?.id)
          return { text: repeat === 0 ? 'Answer: A' : 'Answer: B' };
        return { text: `Answer: ${meta.key}` };
      },
      PLAIN_PARAMS,
      2,
    );
  });
  store.runs.finish(runId, 'complete');
}

function addPlain(store: Store): void {
  const suite = suiteOf('smoke.jsonl', [
    { id: 'q1', prompt: 'Say hi.', meta: { item: 'greeting' } },
    { id: 'q2', prompt: 'What is 2 + 2?' },
  ]);
  store.suites.save(suite);
  const runId = store.runs.begin({
    id: 'run-plain',
    suiteHash: suite.hash,
    config: { models: [MODELS[0].label], seed: 0 },
    waverVersion: 'test',
  });
  writeCells(store, suite, runId, MODELS[0], (id) => ({ text: id === 'q1' ? 'hi' : '4' }), PLAIN_PARAMS);
  store.runs.finish(runId, 'complete');
}
