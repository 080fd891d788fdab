#!/usr/bin/env node
// Ladder scoring and metrics at the paper's scale: 4 models x 4,773 responses (4,473 perturbed
// tests + 100 seeds x 3 baseline repeats), read from a SQLite store filled synthetically through
// the Store API, with the KB responses' judge verdicts stored as a `ladder/kb-judge` suite.
// Measured: `loadLadderResults` — reading every cell and verdict back, parsing and scoring each
// response, and every metric with its 2,000-resample seed bootstrap. Goal: < 2 s.
//
//   npm run build && node bench/ladder-metrics.mjs [--repeat 3]
//
// Prints a small table and one line `RESULT {...}` (the median of the repeats).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG } from '../dist/protocols/index.js';
import { builtInFamilyCodes } from '../dist/protocols/ladder/families/roster.js';
import { kbJudgeTest } from '../dist/protocols/ladder/kb-judge.js';
import { loadLadderResults } from '../dist/protocols/ladder/results.js';
import { kbJudgeJobs, ladderSuite } from '../dist/protocols/ladder/run.js';
import { KB_JUDGE_SUITE } from '../dist/protocols/ladder/suite-names.js';
import { KB_TYPES } from '../dist/protocols/ladder/types.js';
import { suiteOf } from '../dist/run/suite.js';
import { openStore } from '../dist/store/store.js';
import { PyRandom } from '../dist/util/random.js';

const FAMILIES = builtInFamilyCodes();

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const repeatRuns = Number(arg('repeat', '3'));
const MODELS = 4;
const SEEDS = 100;
const PERTURBED = 4473;
const BASELINE_REPEATS = 3;
const GOAL_MS = 2000;
// The paper's Table 3: admitted tests per family (4,473 in all).
const ADMITTED = { F: 818, IQ: 751, CL: 737, CI: 605, CIS: 600, SV: 573, KB: 389 };

const dir = mkdtempSync(join(tmpdir(), 'waver-bench-ladder-'));
const storePath = join(dir, 'store.db');
const config = CONFIG.validate({ store: storePath, models: ['replay:bench.jsonl'] });
const rng = new PyRandom(4773);

// --- the suite: 100 seeds, the paper's family sizes spread over seeds and measured levels --------
const tests = [];
for (let s = 0; s < SEEDS; s++)
  tests.push(test(`seed-${s}`, 'baseline', 0, `Seed problem ${s}: 3 boxes of 12 pencils, 5 given away?`, 31));
for (const family of FAMILIES) {
  for (let i = 0; i < ADMITTED[family]; i++) {
    const level = 1 + (i % 5);
    const seedId = `seed-${i % SEEDS}`;
    const kbType = family === 'KB' ? KB_TYPES[level - 1] : undefined;
    tests.push(test(seedId, family, level, `${family} L${level} variant ${i} of ${seedId}`, 31, kbType));
  }
}
if (tests.length - SEEDS !== PERTURBED) throw new Error(`expected ${PERTURBED} perturbed tests`);
const suite = ladderSuite(tests, config);

function test(seedId, family, level, text, gold, kbType) {
  const magnitude = family === 'baseline' ? 0 : Math.round((0.02 + 0.15 * level * rng.random()) * 1e4) / 1e4;
  return {
    id: `${seedId}/${family}/${level}/${text.length}/${tests.length}`,
    seedId,
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
    original: 'Seed problem',
    text,
    gold: family === 'KB' ? 'unanswerable' : gold,
    gates: [],
  };
}

// --- the store: every model's cells, then the judge's verdicts ---------------------------------
const store = openStore(storePath);
store.suites.save(suite);
const identities = [];
let responses = 0;
for (let m = 0; m < MODELS; m++) {
  const identity = `bench:model-${m}`;
  identities.push(identity);
  const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'bench' });
  const skill = 0.65 + 0.1 * m;
  const writes = [];
  for (const t of suite.tests) {
    for (let repeat = 0; repeat < t.repeats; repeat++) {
      responses++;
      const ref = {
        suiteHash: suite.hash,
        testId: t.id,
        model: `model-${m}`,
        modelIdentity: identity,
        repeat,
        runId,
      };
      const request = { messages: [{ role: 'user', content: t.prompt }], temperature: 0, maxTokens: 256 };
      if (rng.random() < 0.005) {
        writes.push({
          kind: 'failed',
          cell: { ...ref, request, error: { kind: 'timeout', message: 'synthetic' }, attempts: [] },
        });
        continue;
      }
      const right = rng.random() < skill - 0.04 * (t.meta.measuredLevel ?? 0);
      const text =
        t.meta.family === 'KB'
          ? right
            ? 'This cannot be answered: the question is missing information.'
            : 'Step by step... #### 12'
          : m % 2 === 0
            ? `{"ground_truth": ${right ? 31 : 30}}`
            : `Three boxes of 12 is 36, minus 5.\n#### ${right ? 31 : 29}`;
      const result = { text, finishReason: 'stop', usage: { inputTokens: 60, outputTokens: 20 } };
      writes.push({
        kind: 'done',
        cell: { ...ref, key: `${identity}/${t.id}/${repeat}`, request, result, latencyMs: 1, attempts: [] },
      });
    }
  }
  store.cells.write(writes);
  store.runs.finish(runId, 'complete');
}
store.close();

// The judge: one verdict per done KB response, as a `ladder/kb-judge` suite pointing at the SUT suite.
const jobs = kbJudgeJobs(storePath, suite, identities);
const judgeSuite = suiteOf(KB_JUDGE_SUITE, jobs.map(kbJudgeTest));
const js = openStore(storePath);
js.suites.save(judgeSuite);
const judgeRun = js.runs.begin({ suiteHash: judgeSuite.hash, config: {}, waverVersion: 'bench' });
const rubric = [1, 0.75, 0.25, 0];
js.cells.write(
  judgeSuite.tests.map((t) => ({
    kind: 'done',
    cell: {
      suiteHash: judgeSuite.hash,
      testId: t.id,
      model: 'judge',
      modelIdentity: 'bench:judge',
      repeat: 0,
      runId: judgeRun,
      key: `judge/${t.id}`,
      request: { messages: [{ role: 'user', content: t.prompt }], temperature: 0, maxTokens: 256 },
      result: {
        text: JSON.stringify({ score: rubric[Math.floor(rng.random() * 4)], reason: 'synthetic verdict' }),
        finishReason: 'stop',
        usage: { inputTokens: 100, outputTokens: 12 },
      },
      attempts: [],
    },
  })),
);
js.runs.finish(judgeRun, 'complete');
js.close();

// --- measured: everything from the store --------------------------------------------------------
function once() {
  const s = openStore(storePath);
  try {
    const started = performance.now();
    const results = loadLadderResults(s, suite.hash, { seed: 0 });
    return { ms: performance.now() - started, results };
  } finally {
    s.close();
  }
}

once(); // warm-up: JIT, SQLite page cache
const runs = Array.from({ length: repeatRuns }, once);
const times = runs.map((r) => r.ms).sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const last = runs.at(-1).results;
const pass = median < GOAL_MS;
const perModel = last.models.map((m) => m.cells.length);
const first = last.models[0];
const cp = first.metrics.families.map(
  (f) =>
    `${f.family} ${f.collapse.status === 'collapsed' ? `L${f.collapse.level}` : f.collapse.status === 'never' ? '—' : 'n/a'}`,
);
rmSync(dir, { recursive: true, force: true });

process.stdout.write(
  [
    `ladder metrics: ${MODELS} models x ${perModel[0]} responses (${PERTURBED} perturbed + ${SEEDS} x ${BASELINE_REPEATS} baseline), ${jobs.length} KB verdicts, read from a store; 2000-resample seed bootstrap`,
    '',
    '| measure | median of runs | goal | verdict |',
    '|---|---:|---:|---|',
    `| load, score and compute every ladder metric with CIs | ${median.toFixed(1)} ms | < ${GOAL_MS} ms | ${pass ? 'PASS' : 'FAIL'} |`,
    '',
    `runs (ms): ${times.map((t) => t.toFixed(1)).join(', ')} · responses stored ${responses} · scored per model ${perModel.join(', ')}`,
    `model-0: acc(L0) ${first.metrics.baseline.accuracy.value?.toFixed(3)} · Collapse Points ${cp.join(', ')}`,
    '',
    `RESULT ${JSON.stringify({ name: 'ladder-metrics', ms: Number(median.toFixed(1)), goal: `<${GOAL_MS}ms`, pass, models: MODELS, responses: perModel[0], resamples: 2000 })}`,
    '',
  ].join('\n'),
);
