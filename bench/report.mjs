#!/usr/bin/env node
// The report at the paper's scale: a store with 4 models x 4,773 ladder cells (4,473 perturbed
// tests + 100 seeds x 3 baseline repeats, KB responses judged), a SAGO run (2 models x 32 prompts x
// 83 rule variants) and a paraphrase run (4 models x 32 items x 5 phrasings x 2 repeats), filled
// synthetically through the Store API with the protocols' own suite builders.
// Measured: `waver report --out report.html` as a fresh process (imports, every loader with its
// 2,000-resample bootstraps, every chart, the file written), the file's size, and the first paint
// of the file in headless Chromium (playwright-core, Debian's /usr/bin/chromium).
// Goals: written < 5 s, file < 10 MB, first paint < 2 s.
//
//   npm run build && node bench/report.mjs [--repeat 3] [--keep]
//
// Prints a small table and one line `RESULT {...}` (medians of the repeats).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG } from '../dist/protocols/index.js';
import { builtInFamilyCodes } from '../dist/protocols/ladder/families/roster.js';
import { kbJudgeTest } from '../dist/protocols/ladder/kb-judge.js';
import { ladderSuite } from '../dist/protocols/ladder/run.js';
import { KB_JUDGE_SUITE } from '../dist/protocols/ladder/suite-names.js';
import { KB_TYPES } from '../dist/protocols/ladder/types.js';
import { BUILTIN_MC_ITEMS } from '../dist/protocols/paraphrase/data/builtin-items.js';
import { buildParaphraseSuite } from '../dist/protocols/paraphrase/suite.js';
import { promptGroups } from '../dist/protocols/sago/aux-stage.js';
import { SagoConfig } from '../dist/protocols/sago/config.js';
import { featureRow, featuresRequest } from '../dist/protocols/sago/features.js';
import { saveManifest } from '../dist/protocols/sago/manifest.js';
import { writePromptRow } from '../dist/protocols/sago/measures.js';
import { responsesSuite } from '../dist/protocols/sago/run.js';
import { ruleVariations } from '../dist/protocols/sago/variants.js';
import { requestFor } from '../dist/run/plan.js';
import { suiteOf } from '../dist/run/suite.js';
import { openStore } from '../dist/store/store.js';
import { PyRandom } from '../dist/util/random.js';

const FAMILIES = builtInFamilyCodes();

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const repeatRuns = Number(arg('repeat', '3'));
const GOALS = { writeMs: 5000, bytes: 10e6, paintMs: 2000 };
const MODELS = 4;
const SEEDS = 100;
// The paper's Table 3: admitted tests per family (4,473 in all).
const ADMITTED = { F: 818, IQ: 751, CL: 737, CI: 605, CIS: 600, SV: 573, KB: 389 };
const CHROMIUM = '/usr/bin/chromium';

const dir = mkdtempSync(join(tmpdir(), 'waver-bench-report-'));
const storePath = join(dir, 'store.db');
const outPath = join(dir, 'report.html');
const rng = new PyRandom(6);
const words =
  'the a of to and in is was for on that with as by at from his her it an be this which or are have'.split(
    ' ',
  );
const nouns =
  'farmer apples baker trays muffins train miles store pencils boxes garden roses tickets students'.split(
    ' ',
  );
const sentence = (n) => {
  const out = [];
  for (let i = 0; i < n; i++)
    out.push(rng.random() < 0.3 ? nouns[rng.randrange(nouns.length)] : words[rng.randrange(words.length)]);
  return `${out.join(' ')} ${rng.randint(2, 90)}.`;
};
const paragraph = (sentences) =>
  Array.from({ length: sentences }, () => sentence(rng.randint(8, 16))).join(' ');

// --- ladder ---------------------------------------------------------------------------------
const modelLabels = ['openai:gpt-4o-mini', 'anthropic:claude-haiku', 'gguf:phi4-mini.gguf', 'openai:o4-mini'];
const identities = modelLabels.map((l) => `${l}@bench`);
const config = CONFIG.validate({ store: storePath, models: modelLabels, judge: 'openai:gpt-4o', seed: 1 });
const originals = Array.from({ length: SEEDS }, () => `${paragraph(4)} How many are left?`);
const tests = [];
const ladderTest = (s, family, level, text, kbType) => {
  const magnitude = family === 'baseline' ? 0 : Math.round((0.02 + 0.15 * level * rng.random()) * 1e4) / 1e4;
  return {
    id: `seed-${s}/${family}/${level}/${tests.length}`,
    seedId: `seed-${s}`,
    family,
    ...(kbType && { subtype: kbType }),
    requestedLevel: level,
    measuredLevel: level,
    ...(family !== 'baseline' && {
      severity: {
        sim: 1 - magnitude,
        magnitude,
        score: magnitude,
        level,
        via: family === 'KB' ? 'kb-type' : 'band',
      },
    }),
    original: originals[s],
    text,
    gold: family === 'KB' ? 'unanswerable' : 31,
    gates: [],
  };
};
for (let s = 0; s < SEEDS; s++) tests.push(ladderTest(s, 'baseline', 0, originals[s]));
for (const family of FAMILIES)
  for (let i = 0; i < ADMITTED[family]; i++) {
    const level = 1 + (i % 5);
    const s = i % SEEDS;
    const extra = family === 'CL' ? ` ${paragraph(level)}` : family === 'CI' ? ` ${sentence(12)}` : '';
    const text = `${originals[s].replace(/the /, level % 2 ? 'that ' : 'one ')}${extra}`;
    tests.push(ladderTest(s, family, level, text, family === 'KB' ? KB_TYPES[level - 1] : undefined));
  }
const suite = ladderSuite(tests, config);
const store = openStore(storePath);
store.suites.save(suite);
const attempt = (outcome) => [{ attempt: 1, startedAt: new Date().toISOString(), latencyMs: 900, outcome }];
let ladderCells = 0;
for (let m = 0; m < MODELS; m++) {
  const runId = store.runs.begin({ suiteHash: suite.hash, config, waverVersion: 'bench' });
  const writes = [];
  const skill = 0.65 + 0.1 * m;
  for (const t of suite.tests)
    for (let repeat = 0; repeat < t.repeats; repeat++) {
      ladderCells++;
      const ref = {
        suiteHash: suite.hash,
        testId: t.id,
        model: modelLabels[m],
        modelIdentity: identities[m],
        repeat,
        runId,
      };
      const request = requestFor(t, config.params);
      if (rng.random() < 0.005) {
        writes.push({
          kind: 'failed',
          cell: {
            ...ref,
            request,
            error: { kind: 'timeout', message: 'request timed out after 60000 ms' },
            attempts: attempt('timeout'),
          },
        });
        continue;
      }
      const right = rng.random() < skill - 0.04 * (t.meta.measuredLevel ?? 0);
      const n = right ? 31 : 30 + rng.randint(2, 9);
      const text =
        t.meta.family === 'KB'
          ? right
            ? `This cannot be answered: ${sentence(14)}`
            : `${paragraph(3)}\n#### ${n}`
          : m % 2 === 0
            ? `{"ground_truth": ${n}}`
            : `Let me work through it step by step. ${paragraph(rng.randint(2, 6))}\n#### ${n}`;
      writes.push({
        kind: 'done',
        cell: {
          ...ref,
          key: `${identities[m]}/${t.id}/${repeat}`,
          request,
          result: { text, finishReason: 'stop', usage: { inputTokens: 120, outputTokens: 40 } },
          latencyMs: 900,
          attempts: attempt('ok'),
        },
      });
    }
  store.cells.write(writes);
  store.runs.finish(runId, 'complete');
}
// The KB judge's verdicts (a `ladder/kb-judge` suite pointing back at each response).
const jobs = [];
for (let m = 0; m < MODELS; m++)
  for (const cell of store.cells.all({
    suiteHash: suite.hash,
    modelIdentity: identities[m],
    status: 'done',
  })) {
    const t = suite.tests.find((x) => x.id === cell.testId);
    if (t?.meta.family !== 'KB') continue;
    jobs.push({
      key: `${m}/${cell.testId}/${cell.repeat}`,
      question: t.meta.text,
      response: cell.response.text,
      kbType: t.meta.subtype,
      meta: {
        sutSuite: suite.hash,
        modelIdentity: identities[m],
        testId: cell.testId,
        repeat: cell.repeat,
        responseKey: cell.responseKey,
      },
    });
  }
const judgeSuite = suiteOf(KB_JUDGE_SUITE, jobs.map(kbJudgeTest));
store.suites.save(judgeSuite);
const judgeRun = store.runs.begin({
  suiteHash: judgeSuite.hash,
  config: { ...config, models: ['openai:gpt-4o'] },
  waverVersion: 'bench',
});
const rubric = [1, 0.75, 0.25, 0];
store.cells.write(
  judgeSuite.tests.map((t) => ({
    kind: 'done',
    cell: {
      suiteHash: judgeSuite.hash,
      testId: t.id,
      model: 'openai:gpt-4o',
      modelIdentity: 'openai:gpt-4o@bench',
      repeat: 0,
      runId: judgeRun,
      key: `judge/${t.id}`,
      request: requestFor(t, { temperature: 0, maxTokens: 256, logprobs: false }),
      result: {
        text: JSON.stringify({ score: rubric[rng.randrange(4)], reason: sentence(10) }),
        finishReason: 'stop',
        usage: { inputTokens: 300, outputTokens: 30 },
      },
      attempts: attempt('ok'),
    },
  })),
);
store.runs.finish(judgeRun, 'complete');

// --- sago -----------------------------------------------------------------------------------
const sagoSettings = SagoConfig.parse({ structural: 'rules' });
const prompts = Array.from({ length: 32 }, (_, i) => ({
  key: `${i < 16 ? 'truthfulqa' : 'nq-open'}::q${i}`,
  prompt: {
    id: `q${i}`,
    dataset: i < 16 ? 'truthfulqa' : 'nq-open',
    text: `${sentence(12)} What ${words[i % words.length]} ${nouns[i % nouns.length]}?`,
    source: { file: 'bench' },
  },
}));
const sagoSuite = responsesSuite(ruleVariations(prompts, sagoSettings, 1));
store.suites.save(sagoSuite);
const caps = [
  {
    chat: true,
    tokenLogprobs: true,
    topLogprobs: 5,
    fullDistribution: false,
    scoreContinuation: false,
    embeddings: false,
  },
  {
    chat: true,
    tokenLogprobs: false,
    topLogprobs: 0,
    fullDistribution: false,
    scoreContinuation: false,
    embeddings: false,
  },
];
const sagoModels = [0, 1].map((m) => ({
  label: modelLabels[m],
  identity: identities[m],
  provider: m === 0 ? 'openai' : 'anthropic',
  capabilities: caps[m],
}));
const sagoRun = store.runs.begin({
  suiteHash: sagoSuite.hash,
  config: { ...config, models: modelLabels.slice(0, 2) },
  waverVersion: 'bench',
});
let sagoCells = 0;
for (const [m, model] of sagoModels.entries()) {
  const writes = [];
  for (const t of sagoSuite.tests) {
    sagoCells++;
    const text = paragraph(rng.randint(2, 5));
    const tokens =
      m === 0
        ? text.split(' ').map((w) => ({
            token: w,
            logprob: -rng.random(),
            top: [
              { token: w, logprob: -rng.random() },
              { token: 'x', logprob: -3 },
            ],
          }))
        : undefined;
    writes.push({
      kind: 'done',
      cell: {
        suiteHash: sagoSuite.hash,
        testId: t.id,
        model: model.label,
        modelIdentity: model.identity,
        repeat: 0,
        runId: sagoRun,
        key: `sago/${m}/${t.id}`,
        request: requestFor(t, config.params),
        result: {
          text,
          ...(tokens && { tokens }),
          finishReason: 'stop',
          usage: { inputTokens: 40, outputTokens: 80 },
        },
        attempts: attempt('ok'),
      },
    });
  }
  store.cells.write(writes);
}
store.runs.finish(sagoRun, 'complete');
// What `waver sago` leaves behind besides the responses: the per-prompt derived values (BLEU,
// log-prob, entropy, rule mirroring) it stores once the calls are done, which the report reads.
for (const model of sagoModels) {
  const cellMap = new Map();
  for (const c of store.cells.all({ suiteHash: sagoSuite.hash, modelIdentity: model.identity }))
    if (c.repeat === 0) cellMap.set(c.testId, c);
  store.transaction(() => {
    for (const group of promptGroups(sagoSuite)) {
      const features = featureRow(store, model.identity, group, cellMap, sagoSettings);
      if (features)
        writePromptRow(
          store,
          model.identity,
          featuresRequest(model.identity, sagoSuite.hash, group, sagoSettings),
          features,
        );
    }
  });
}
saveManifest(store, {
  version: 1,
  responsesSuite: sagoSuite.hash,
  models: sagoModels,
  seed: 1,
  minCoverage: 0.9,
  settings: sagoSettings,
  datasets: [
    { name: 'truthfulqa', available: 817, n: 16 },
    { name: 'nq-open', available: 3610, n: 16 },
  ],
  rejected: [],
});

// --- paraphrase -----------------------------------------------------------------------------
const items = BUILTIN_MC_ITEMS;
const paraSuite = buildParaphraseSuite(items, {
  phrasings: ['canonical', 'reworded', 'terse', 'verbose', 'options-shuffled'],
  repeats: 2,
  runSeed: 1,
  dataset: 'builtin',
  verified: new Set(),
  rewords: {
    byItem: new Map(items.map((i) => [i.id, { text: i.alternates[0], source: { kind: 'alternate' } }])),
  },
});
store.suites.save(paraSuite);
const paraRun = store.runs.begin({
  suiteHash: paraSuite.hash,
  config: { ...config, repeats: 2 },
  waverVersion: 'bench',
});
let paraCells = 0;
for (let m = 0; m < MODELS; m++) {
  const writes = [];
  for (const t of paraSuite.tests)
    for (let repeat = 0; repeat < 2; repeat++) {
      paraCells++;
      const letter = rng.random() < 0.8 ? t.meta.key : 'ABCD'[rng.randrange(4)];
      writes.push({
        kind: 'done',
        cell: {
          suiteHash: paraSuite.hash,
          testId: t.id,
          model: modelLabels[m],
          modelIdentity: identities[m],
          repeat,
          runId: paraRun,
          key: `para/${m}/${t.id}/${repeat}`,
          request: requestFor(t, config.params),
          result: {
            text: `${sentence(10)} Answer: ${letter}`,
            finishReason: 'stop',
            usage: { inputTokens: 90, outputTokens: 20 },
          },
          attempts: attempt('ok'),
        },
      });
    }
  store.cells.write(writes);
}
store.runs.finish(paraRun, 'complete');
store.close();

// --- measured -------------------------------------------------------------------------------
// `waver report` as a user runs it: a fresh process of the CLI.
const cli = join(ROOT, 'dist/bin/waver.cjs');
function writeOnce() {
  rmSync(outPath, { force: true });
  const started = performance.now();
  const r = spawnSync(process.execPath, [cli, 'report', '--store', storePath, '--out', outPath], {
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`waver report failed (${r.status}): ${r.stderr}`);
  return { ms, stderr: r.stderr.trim() };
}

async function firstPaint() {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is missing (apt-get install chromium)` };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
  try {
    const out = [];
    for (let i = 0; i < repeatRuns; i++) {
      const page = await browser.newPage();
      const requests = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`file://${outPath}`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="1"]');
      const paint = await page.evaluate(() => {
        const entries = performance.getEntriesByType('paint');
        const fp = entries.find((e) => e.name === 'first-paint') ?? entries[0];
        const fcp = entries.find((e) => e.name === 'first-contentful-paint');
        return { fp: fp?.startTime, fcp: fcp?.startTime, ready: performance.now() };
      });
      out.push({ ...paint, requests: requests.length });
      await page.close();
    }
    return { runs: out };
  } finally {
    await browser.close();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const writes = Array.from({ length: repeatRuns }, writeOnce);
const writeMs = median(writes.map((w) => w.ms));
const bytes = statSync(outPath).size;
const paint = await firstPaint();
// --keep leaves the store and the report for a look (and a profile).
if (process.argv.includes('--keep')) process.stderr.write(`kept ${dir}\n`);
else rmSync(dir, { recursive: true, force: true });

const paintMs = paint.runs ? median(paint.runs.map((r) => r.fcp ?? r.fp)) : undefined;
const readyMs = paint.runs ? median(paint.runs.map((r) => r.ready)) : undefined;
const requests = paint.runs ? Math.max(...paint.runs.map((r) => r.requests)) : undefined;
const pass = {
  write: writeMs < GOALS.writeMs,
  size: bytes < GOALS.bytes,
  paint: paintMs !== undefined && paintMs < GOALS.paintMs,
};
const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
process.stdout.write(
  [
    `report: ${MODELS} models x ${ladderCells / MODELS} ladder cells (+${jobs.length} KB verdicts), sago ${sagoCells} cells (2 models x ${sagoSuite.tests.length} tests), paraphrase ${paraCells} cells; ${repeatRuns} runs`,
    '',
    '| measure | median | goal | verdict |',
    '|---|---:|---:|---|',
    `| \`waver report --out report.html\` (fresh process) | ${(writeMs / 1000).toFixed(2)} s | < ${GOALS.writeMs / 1000} s | ${verdict(pass.write)} |`,
    `| file size | ${(bytes / 1e6).toFixed(2)} MB | < ${GOALS.bytes / 1e6} MB | ${verdict(pass.size)} |`,
    paintMs === undefined
      ? `| first paint in Chromium | skipped: ${paint.skipped} | < ${GOALS.paintMs / 1000} s | FAIL |`
      : `| first contentful paint in Chromium | ${(paintMs / 1000).toFixed(2)} s | < ${GOALS.paintMs / 1000} s | ${verdict(pass.paint)} |`,
    readyMs === undefined
      ? ''
      : `| transcript browser ready (data parsed, first page drawn) | ${(readyMs / 1000).toFixed(2)} s | (info) | |`,
    '',
    `writes (s): ${writes.map((w) => (w.ms / 1000).toFixed(2)).join(', ')} · ${writes.at(-1).stderr}`,
    paint.runs
      ? `paint (ms): ${paint.runs.map((r) => `fp ${r.fp?.toFixed(0)} fcp ${r.fcp?.toFixed(0)} ready ${r.ready.toFixed(0)}`).join('; ')} · requests per load ${requests} (the file itself)`
      : '',
    '',
    `RESULT ${JSON.stringify({
      name: 'report',
      writeS: Number((writeMs / 1000).toFixed(2)),
      mb: Number((bytes / 1e6).toFixed(2)),
      firstPaintS: paintMs === undefined ? null : Number((paintMs / 1000).toFixed(2)),
      goal: 'write<5s, size<10MB, paint<2s',
      pass: pass.write && pass.size && pass.paint,
      cells: ladderCells + sagoCells + paraCells,
      requests: requests ?? null,
    })}`,
    '',
  ].join('\n'),
);
