#!/usr/bin/env node
// The ladder's rules suite on the paper's 100 seeds (issue 3 "Measure"): 100 seeds x 7 families x
// 5 levels x up to 2 attempts, generated, gated and binned, timed (goal: under 10 s); and the fill
// table: per family x requested level, the share of seeds with an admitted test that MEASURED at the
// requested level (goal: every cell >= 80%).
//
//   npm run build && node bench/ladder-suite.mjs [--seed N]
//
// Prints a table with goals and PASS/FAIL, then one `RESULT {...}` JSON line.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const SEEDS_CSV = resolve(ROOT, '..', 'shared', 'fixtures', 'ladder-reference', 'gsm8k_symbolic100.csv');
const GOAL_SECONDS = 10;
const GOAL_FILL = 0.8;

const seedArg = process.argv.indexOf('--seed');
const suiteSeed = seedArg > 0 ? Number(process.argv[seedArg + 1]) : 0;

if (!existsSync(join(DIST, 'protocols', 'ladder', 'suite.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
if (!existsSync(SEEDS_CSV)) {
  console.log(`skipped: ${SEEDS_CSV} is not there (the paper's seed CSV lives in ../shared/fixtures)`);
  console.log(`RESULT ${JSON.stringify({ name: 'ladder-suite', skipped: 'seed CSV missing' })}`);
  process.exit(0);
}

const { BaseConfig: WaverConfig } = await import(join(DIST, 'config', 'schema.js'));
const { loadLadderSeedsCsv } = await import(join(DIST, 'protocols', 'ladder', 'data', 'seeds-csv.js'));
const { buildLadderSuite, fillCounts } = await import(join(DIST, 'protocols', 'ladder', 'suite.js'));
const { ladderSuiteJsonl } = await import(join(DIST, 'protocols', 'ladder', 'suite-file.js'));
const { FAMILIES, LEVELS } = await import(join(DIST, 'protocols', 'ladder', 'types.js'));

const seeds = loadLadderSeedsCsv(SEEDS_CSV);
const scratch = mkdtempSync(join(tmpdir(), 'waver-bench-ladder-suite-'));
try {
  // No judge: the rules path makes no model call and never opens the store.
  const config = WaverConfig.parse({ store: join(scratch, 'store.db') });
  const t0 = performance.now();
  const build = await buildLadderSuite({ seeds, config, generator: 'rules', seed: suiteSeed, attempts: 2 });
  const jsonl = ladderSuiteJsonl(build.tests);
  const seconds = (performance.now() - t0) / 1000;

  const candidates = build.admission.reduce((n, r) => n + r.candidates, 0);
  const admitted = build.admission.reduce((n, r) => n + r.admitted, 0);
  const timePass = seconds < GOAL_SECONDS;

  console.log(
    `ladder rules suite: ${seeds.length} seeds x ${FAMILIES.length} families x ${LEVELS.length} levels x <= 2 attempts`,
  );
  console.log(
    `  candidates ${candidates}, admitted ${admitted}, ${build.tests.length} tests incl. baselines, ${(jsonl.length / 1e6).toFixed(2)} MB JSONL`,
  );
  console.log(`  wall ${seconds.toFixed(2)} s   goal < ${GOAL_SECONDS} s   ${timePass ? 'PASS' : 'FAIL'}`);
  console.log('');

  const fill = fillCounts(build.tests);
  console.log(
    `fill: share of the ${seeds.length} seeds with an admitted test measured at the requested level (goal >= ${GOAL_FILL * 100}% each)`,
  );
  console.log(
    ['family', ...LEVELS.map((l) => `L${l}`), 'min', '']
      .map((c, i) => (i === 0 ? c.padEnd(7) : c.padStart(6)))
      .join(' '),
  );
  const cells = {};
  let fillMin = 1;
  const failing = [];
  for (const family of FAMILIES) {
    const shares = LEVELS.map((l) => (fill.get(`${family}/L${l}`) ?? 0) / seeds.length);
    shares.forEach((s, i) => {
      cells[`${family}/L${LEVELS[i]}`] = Number(s.toFixed(4));
      if (s < GOAL_FILL) failing.push(`${family}/L${LEVELS[i]}`);
    });
    const min = Math.min(...shares);
    fillMin = Math.min(fillMin, min);
    const pct = (s) => `${(100 * s).toFixed(0)}%`;
    console.log(
      [
        family.padEnd(7),
        ...shares.map((s) => pct(s).padStart(6)),
        pct(min).padStart(6),
        min >= GOAL_FILL ? '  PASS' : '  FAIL',
      ].join(' '),
    );
  }
  const fillPass = failing.length === 0;
  console.log(`  fill ${fillPass ? 'PASS' : `FAIL (${failing.join(', ')})`}`);
  console.log(
    `RESULT ${JSON.stringify({
      name: 'ladder-suite',
      seconds: Number(seconds.toFixed(3)),
      goal: `<${GOAL_SECONDS}`,
      pass: timePass,
      seeds: seeds.length,
      candidates,
      admitted,
      fillMin: Number(fillMin.toFixed(4)),
      fillGoal: `>=${GOAL_FILL}`,
      fillPass,
      fillBelowGoal: failing,
      fill: cells,
    })}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
