#!/usr/bin/env node
// The budgeted spread estimate against the full grid: on synthetic 100 templates x 200 items grids
// (a Rasch model whose per-template accuracies spread like the papers': about 0.35 to 0.75,
// 5th to 95th percentile), the cells PromptEval's design picks at budgets 5%, 10%, 25% of the grid,
// estimated by `estimateSpread` with each estimator (`--estimators deconvolved,prompteval,full-grid`:
// the mixed model, PromptEval's model, the observed means; `--budgets 0.05,0.1,0.25`); the
// error of each quantile (5/25/50/75/95) against the full grid's, and the seconds one estimate
// takes in CPU seconds (its bootstrap included). Aim (issue 39): at 10%, every quantile within 0.03.
//
//   npx tsc -p tsconfig.build.json && node bench/spread-estimator.mjs [--grids 5] [--resamples 200] [--estimators ...] [--budgets ...]
//
// Prints a table and one line `RESULT {...}`.
import { estimateSpread, planCells } from '../dist/protocols/spread/estimators/index.js';
import { percentile } from '../dist/stats/bootstrap.js';
import { PyRandom } from '../dist/util/random.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const GRIDS = Number(arg('grids', '5'));
const RESAMPLES = Number(arg('resamples', '200'));
const T = 100;
const I = 200;
const BUDGETS = arg('budgets', '0.05,0.1,0.25').split(',').map(Number);
const METHODS = arg('estimators', 'deconvolved,prompteval,full-grid').split(',');
const QS = [0.05, 0.25, 0.5, 0.75, 0.95];
const AIM = 0.03;

function normal(rng) {
  return Math.sqrt(-2 * Math.log(1 - rng.random())) * Math.cos(2 * Math.PI * rng.random());
}

function syntheticGrid(seed) {
  const rng = new PyRandom(seed);
  const theta = Array.from({ length: T }, () => 0.6 * normal(rng));
  const beta = Array.from({ length: I }, () => 0.3 + 1.5 * normal(rng));
  return theta.map((t) => beta.map((b) => (rng.random() < 1 / (1 + Math.exp(-(t + b))) ? 1 : 0)));
}

const quantilesOf = (values) => {
  const sorted = Float64Array.from(values).sort();
  return QS.map((q) => percentile(sorted, q));
};

const rows = [];
for (const budget of BUDGETS) {
  for (const method of METHODS) {
    const errors = QS.map(() => []);
    const covered = QS.map(() => 0);
    let seconds = 0;
    for (let g = 0; g < GRIDS; g++) {
      const Y = syntheticGrid(1000 + g);
      const truth = quantilesOf(Y.map((row) => row.reduce((a, b) => a + b, 0) / I));
      const cells = planCells(T, I, Math.round(budget * T * I), g);
      const observations = cells.map(({ template, item }) => ({
        template,
        item,
        correct: Y[template][item],
      }));
      const start = process.hrtime.bigint();
      const estimate = estimateSpread(
        { nTemplates: T, nItems: I, observations, seed: g },
        { method, resamples: RESAMPLES },
      );
      seconds += Number(process.hrtime.bigint() - start) / 1e9;
      estimate.quantiles.forEach((q, k) => {
        errors[k].push(Math.abs(q.value - truth[k]));
        if (q.lo <= truth[k] && truth[k] <= q.hi) covered[k]++;
      });
    }
    rows.push({
      budget,
      method,
      calls: Math.round(budget * T * I),
      meanAbsError: errors.map((e) => +(e.reduce((a, b) => a + b, 0) / e.length).toFixed(4)),
      maxAbsError: errors.map((e) => +Math.max(...e).toFixed(4)),
      coverage: covered.map((c) => c / GRIDS),
      cpuSecondsPerEstimate: +(seconds / GRIDS).toFixed(2),
    });
  }
}

console.log(
  `grids ${GRIDS} of ${T} x ${I}, bootstrap ${RESAMPLES} resamples; errors per quantile ${QS.join('/')}`,
);
for (const r of rows) {
  const worst = Math.max(...r.maxAbsError);
  console.log(
    `${String(r.budget * 100).padStart(3)}%  ${r.method.padEnd(10)}  calls ${String(r.calls).padStart(5)}  mean |err| ${r.meanAbsError.join(' ')}  max |err| ${r.maxAbsError.join(' ')}  CI covers ${r.coverage.join(' ')}  ${r.cpuSecondsPerEstimate} s CPU  ${r.budget === 0.1 ? (worst <= AIM ? 'PASS' : 'FAIL') : ''}`,
  );
}
console.log(`RESULT ${JSON.stringify({ grids: GRIDS, resamples: RESAMPLES, rows })}`);
