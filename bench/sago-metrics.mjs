#!/usr/bin/env node
// SAGO metrics at paper scale, from the store: 11 models (8 in-process with every axis, 3 APIs with
// fewer) x 6 datasets x 16 prompts x the full variation set (83 variants per prompt), 88,704
// responses written through the Store API into a real SQLite store, with what a run stores after
// its calls: the measure rows (response features — BLEU against the baseline, log-prob, entropy,
// rule mirroring — computed by the real code from the stored responses; similarities — activation,
// embedding cosine, BERTScore — as synthetic values) and politeness verdicts (not timed).
// Timed: loadSagoResults — every cell's status and text, the measure rows, the judge verdicts,
// the deltas on every axis, SGS per dataset and total, t-tests at three eps, the ablations
// (sample size: 500 draws per N; position; strength) — plus the Markdown and JSON tables.
// Goal: < 3 s.
//
//   npm run build && node bench/sago-metrics.mjs [--repeat 3] [--debug]
//
// Prints a small table and one line `RESULT {...}` (the median of the repeats).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANTHROPIC_CAPABILITIES } from '../dist/models/anthropic.js';
import { GGUF_CAPABILITIES } from '../dist/models/gguf.js';
import { OPENAI_CAPABILITIES } from '../dist/models/openai.js';
import { SagoConfig } from '../dist/protocols/sago/config.js';
import { featureRow, featuresRequest } from '../dist/protocols/sago/features.js';
import { saveManifest } from '../dist/protocols/sago/manifest.js';
import { promptRowRequest, writePromptRow } from '../dist/protocols/sago/measures.js';
import { politenessJudgePrompt } from '../dist/protocols/sago/mirroring.js';
import {
  activationRequest,
  JUDGE_SUITE,
  judgeTestId,
  loadSagoResults,
} from '../dist/protocols/sago/results.js';
import { responsesSuite } from '../dist/protocols/sago/run.js';
import { formatSagoResults } from '../dist/protocols/sago/tables.js';
import { ruleVariations } from '../dist/protocols/sago/variants.js';
import { cacheKey } from '../dist/run/cache-key.js';
import { requestFor } from '../dist/run/plan.js';
import { suiteOf } from '../dist/run/suite.js';
import { openStore } from '../dist/store/store.js';
import { PyRandom } from '../dist/util/random.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const repeatRuns = Number(arg('repeat', '3'));
const GOAL_MS = 3000;
const DATASETS = ['truthfulqa', 'nq-open', 'alpaca', 'simpleqa', 'triviaqa', 'hotpotqa'];
const PROMPTS_PER_DATASET = 16;

const models = [
  ...Array.from({ length: 8 }, (_, i) => ({
    label: `gguf:open-${i}.gguf`,
    identity: `gguf:open-${i}.gguf#${i}`,
    provider: 'gguf',
    capabilities: GGUF_CAPABILITIES,
  })),
  {
    label: 'openai:closed-a',
    identity: 'openai:closed-a@https://api.openai.com/v1',
    provider: 'openai',
    capabilities: OPENAI_CAPABILITIES,
  },
  {
    label: 'openai:closed-b',
    identity: 'openai:closed-b@https://example.test/v1',
    provider: 'openai',
    capabilities: OPENAI_CAPABILITIES,
  },
  {
    label: 'anthropic:closed-c',
    identity: 'anthropic:closed-c@https://api.anthropic.com',
    provider: 'anthropic',
    capabilities: ANTHROPIC_CAPABILITIES,
  },
];
const embedder = {
  label: 'gguf:embedder.gguf',
  identity: 'gguf:embedder.gguf#e',
  provider: 'gguf',
  tokenLevel: true,
};
const judge = { label: 'replay:judge.jsonl', identity: 'replay:judge' };

const WORDS =
  'the a river light sound cold warm because often people energy water small large city answer time first most'.split(
    ' ',
  );
const rng = new PyRandom(4242);
// A distinct reply per cell, 20-60 words; some polite, some with noise the detectors look for.
const reply = (i) => {
  const n = 20 + rng.randbelow(41);
  const words = Array.from({ length: n }, () => WORDS[rng.randbelow(WORDS.length)]);
  words.push(`r${i}.`);
  if (i % 7 === 0) words.unshift('Thank you!');
  if (i % 11 === 0) words[1] = `${words[1]}  ,`;
  if (i % 13 === 0) words[2] = words[2].toUpperCase();
  return words.join(' ');
};
const judged = new Set();

function build(dir) {
  const path = join(dir, 'store.db');
  const store = openStore(path);
  const settings = SagoConfig.parse({});
  const prompts = DATASETS.flatMap((d) =>
    Array.from({ length: PROMPTS_PER_DATASET }, (_, i) => ({
      key: `${d}::p${i}`,
      prompt: {
        id: `p${i}`,
        dataset: d,
        text: `Why does the ${WORDS[i]} ${WORDS[(i * 7) % WORDS.length]} of ${d} change over time?`,
        source: { file: 'bench' },
      },
    })),
  );
  const sets = ruleVariations(prompts, settings, 0);
  const suite = responsesSuite(sets);
  store.suites.save(suite);
  const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'bench' });
  const params = { temperature: 0, maxTokens: 256, logprobs: true };
  // Per prompt: the baseline test and its variants, in suite order.
  const groups = [];
  for (const t of suite.tests) {
    if (t.meta.role === 'baseline') groups.push({ baseline: t, variants: [] });
    else groups.at(-1).variants.push(t);
  }
  const cosine = () => 1 - rng.random() * 0.4;
  for (const [m, model] of models.entries()) {
    // The same request gets the same reply (the store keeps one response per request: register
    // strength 0 is the baseline prompt itself).
    const byRequest = new Map();
    const writes = suite.tests.map((t, k) => {
      const key = t.prompt;
      if (!byRequest.has(key)) byRequest.set(key, reply(m * 100000 + k));
      const text = byRequest.get(key);
      // The judge rates every reply a register variant needs: the variant's and its baseline's.
      if (t.meta.role === 'baseline' || (t.meta.family === 'register' && t.meta.strength !== 0))
        judged.add(text);
      const words = text.split(' ');
      const api = model.provider !== 'gguf';
      const tokens = model.capabilities.tokenLogprobs
        ? words.map((w) => {
            const lp = -rng.random() * 2;
            return api
              ? {
                  token: w,
                  logprob: lp,
                  top: [
                    { token: w, logprob: lp },
                    { token: 'x', logprob: lp - 1 },
                    { token: 'y', logprob: lp - 2 },
                  ],
                }
              : { token: w, logprob: lp, entropy: rng.random() * 3 };
          })
        : undefined;
      const request = requestFor(t, params);
      return {
        kind: 'done',
        cell: {
          suiteHash: suite.hash,
          testId: t.id,
          model: model.label,
          modelIdentity: model.identity,
          repeat: 0,
          runId,
          key: cacheKey(model.identity, request, 0),
          request,
          result: {
            text,
            ...(tokens ? { tokens } : {}),
            finishReason: 'stop',
            usage: { inputTokens: 20, outputTokens: words.length },
          },
          attempts: [],
        },
      };
    });
    for (let i = 0; i < writes.length; i += 2000) store.cells.write(writes.slice(i, i + 2000));
    // The measure rows the run stores after its calls: response features computed by the real
    // code from the stored responses, and pairwise similarities (activation from the model's own
    // hidden states, the embedder's cosine and BERTScore) as synthetic values.
    const cells = new Map();
    for (const c of store.cells.all({ suiteHash: suite.hash, modelIdentity: model.identity }))
      cells.set(c.testId, c);
    store.transaction(() => {
      for (const g of groups) {
        const features = featureRow(store, model.identity, g, cells, settings);
        writePromptRow(
          store,
          model.identity,
          featuresRequest(model.identity, suite.hash, g, settings),
          features,
        );
        const row = () => ({
          fingerprint: features.fingerprint,
          columns: { value: [1, ...g.variants.map(() => cosine())] },
        });
        if (model.provider === 'gguf')
          writePromptRow(
            store,
            model.identity,
            activationRequest(model.identity, suite.hash, g, settings),
            row(),
          );
        writePromptRow(
          store,
          embedder.identity,
          promptRowRequest('embedding-cosine', model.identity, suite.hash, g),
          row(),
        );
        writePromptRow(
          store,
          embedder.identity,
          promptRowRequest('bertscore-f1', model.identity, suite.hash, g),
          row(),
        );
      }
    });
  }
  // Politeness verdicts.
  const judgeTests = [...judged].map((t) => ({ id: judgeTestId(t), prompt: politenessJudgePrompt(t) }));
  const judgeSuite = suiteOf(JUDGE_SUITE, judgeTests);
  store.suites.save(judgeSuite);
  const jRun = store.runs.begin({ suiteHash: judgeSuite.hash, config: {}, waverVersion: 'bench' });
  store.cells.write(
    judgeTests.map((t, i) => {
      const request = requestFor(t, { temperature: 0, maxTokens: 64, logprobs: false });
      const register = ['polite', 'neutral', 'rude'][i % 3];
      return {
        kind: 'done',
        cell: {
          suiteHash: judgeSuite.hash,
          testId: t.id,
          model: judge.label,
          modelIdentity: judge.identity,
          repeat: 0,
          runId: jRun,
          key: cacheKey(judge.identity, request, 0),
          request,
          result: {
            text: `{"register": "${register}"}`,
            finishReason: 'stop',
            usage: { inputTokens: 50, outputTokens: 6 },
          },
          attempts: [],
        },
      };
    }),
  );
  saveManifest(store, {
    version: 1,
    responsesSuite: suite.hash,
    judgeSuite: judgeSuite.hash,
    judge,
    embedder,
    models,
    seed: 0,
    minCoverage: 0.9,
    settings: { ...settings, structural: 'rules' },
    datasets: DATASETS.map((name) => ({ name, available: 800, n: PROMPTS_PER_DATASET })),
    rejected: [],
  });
  store.close();
  return { path, suiteHash: suite.hash, tests: suite.tests.length };
}

const dir = mkdtempSync(join(tmpdir(), 'waver-sago-bench-'));
try {
  const t0 = performance.now();
  const { path, suiteHash, tests } = build(dir);
  const setupMs = performance.now() - t0;
  const times = [];
  let last;
  for (let r = 0; r < repeatRuns; r++) {
    const store = openStore(path);
    const start = performance.now();
    const results = loadSagoResults(store, suiteHash);
    const md = formatSagoResults(results, 'md');
    const json = formatSagoResults(results, 'json');
    times.push(performance.now() - start);
    last = { results, md, json };
    store.close();
  }
  times.sort((a, b) => a - b);
  const ms = times[Math.floor(times.length / 2)];
  const r = last.results;
  const cells = r.models.length * tests;
  const values = r.models.reduce(
    (n, m) => n + Object.values(m.scores.at(-1).axes).reduce((k, a) => k + a.values, 0),
    0,
  );
  if (process.argv.includes('--debug'))
    for (const m of r.models)
      console.log(
        m.model.label,
        JSON.stringify(
          Object.fromEntries(Object.entries(m.scores.at(-1).axes).map(([a, x]) => [a, x.values])),
        ),
        JSON.stringify(m.missing),
      );
  const pass = ms < GOAL_MS;
  const rows = [
    ['models x datasets x prompts', `${r.models.length} x ${DATASETS.length} x ${PROMPTS_PER_DATASET}`],
    ['variations per prompt', String(r.variations.length)],
    ['stored responses read', String(cells)],
    ['normalised deltas (all axes)', String(values)],
    ['ablation draws per N', String(r.manifest.settings.ablation.draws)],
    ['store setup (not timed)', `${(setupMs / 1000).toFixed(2)} s`],
    ['load + SGS + tests + ablations + tables (median)', `${(ms / 1000).toFixed(2)} s`],
    ['goal', `< ${GOAL_MS / 1000} s`],
    ['verdict', pass ? 'PASS' : 'FAIL'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log('sago metrics from the store');
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  console.log(
    `RESULT ${JSON.stringify({
      name: 'sago-metrics',
      models: r.models.length,
      datasets: DATASETS.length,
      prompts: r.prompts,
      variations: r.variations.length,
      cells,
      deltas: values,
      ms: Math.round(ms),
      goal: `<${GOAL_MS}ms`,
      pass,
    })}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
