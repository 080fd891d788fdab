#!/usr/bin/env node
// Paraphrase metrics at leaderboard scale: raw accuracy, SAA, per-phrasing accuracy, run and prompt
// instability (each with a 2,000-resample cluster-bootstrap CI), flips and the leaderboard, for
// 30 models x 32 items x 5 phrasings x 2 repeats of synthetic answers held in memory. Goal: < 1 s.
//
//   npm run build && node bench/paraphrase-metrics.mjs [--repeat 5]
//
// Prints a small table and one line `RESULT {...}` (the median of the repeats).
import { paraphraseLeaderboard, paraphraseMetrics } from '../dist/protocols/paraphrase/metrics.js';
import { PyRandom } from '../dist/util/random.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const repeatRuns = Number(arg('repeat', '5'));
const MODELS = 30;
const ITEMS = 32;
const PHRASINGS = ['canonical', 'reworded', 'terse', 'verbose', 'options-shuffled'];
const REPEATS = 2;
const RESAMPLES = 2000;
const GOAL_MS = 1000;

// Synthetic answers: model m knows an item with probability 0.6..0.99; a known item is answered
// right except for rare flips; 2% of replies unparsed, 1% of cells failed. Built once, outside the timing.
const items = Array.from({ length: ITEMS }, (_, i) => `item-${i}`);
const rng = new PyRandom(20240601);
const models = Array.from({ length: MODELS }, (_, m) => {
  const skill = 0.6 + (0.39 * m) / (MODELS - 1);
  const observations = [];
  for (const item of items) {
    const knows = rng.random() < skill;
    for (const phrasing of PHRASINGS)
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        if (rng.random() < 0.01) {
          observations.push({
            item,
            phrasing,
            repeat,
            status: 'failed',
            correct: false,
            error: { kind: 'timeout', message: 'synthetic' },
          });
          continue;
        }
        const unparsed = rng.random() < 0.02;
        const right = knows ? rng.random() > 0.03 : rng.random() < 0.25;
        const answer = unparsed ? undefined : right ? 'A' : 'BCD'[rng.randbelow(3)];
        observations.push({
          item,
          phrasing,
          repeat,
          status: 'done',
          answer,
          given: answer ?? 'unparsed',
          correct: !unparsed && right,
        });
      }
  }
  return { label: `model-${m}`, observations };
});
const design = { items, phrasings: PHRASINGS, repeats: REPEATS };

function once() {
  const started = performance.now();
  const scored = models.map((m) => ({
    label: m.label,
    metrics: paraphraseMetrics(design, m.observations, { seed: 0, streamKey: m.label, resamples: RESAMPLES }),
  }));
  const board = paraphraseLeaderboard(scored);
  return { ms: performance.now() - started, scored, board };
}

once(); // warm-up: JIT and module loading are not what is measured
const runs = Array.from({ length: repeatRuns }, once);
const times = runs.map((r) => r.ms).sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const last = runs.at(-1);
const bootstraps = MODELS * (3 + PHRASINGS.length + 1);
const pass = median < GOAL_MS;

process.stdout.write(
  [
    `paraphrase metrics: ${MODELS} models x ${ITEMS} items x ${PHRASINGS.length} phrasings x ${REPEATS} repeats, ${RESAMPLES} resamples per CI (${bootstraps} CIs)`,
    '',
    '| measure | median of runs | goal | verdict |',
    '|---|---:|---:|---|',
    `| metrics + CIs + leaderboard | ${median.toFixed(1)} ms | < ${GOAL_MS} ms | ${pass ? 'PASS' : 'FAIL'} |`,
    '',
    `runs (ms): ${times.map((t) => t.toFixed(1)).join(', ')} · ranked ${last.board.ranked.length}, incomplete ${last.board.incomplete.length}`,
    `best: ${last.board.ranked[0]?.label} SAA ${last.board.ranked[0]?.metrics.saa.value?.toFixed(3)} [${last.board.ranked[0]?.metrics.saa.low?.toFixed(3)}, ${last.board.ranked[0]?.metrics.saa.high?.toFixed(3)}]`,
    '',
    `RESULT ${JSON.stringify({ name: 'paraphrase-metrics', ms: Number(median.toFixed(1)), goal: `<${GOAL_MS}ms`, pass, models: MODELS, cis: bootstraps, resamples: RESAMPLES })}`,
    '',
  ].join('\n'),
);
