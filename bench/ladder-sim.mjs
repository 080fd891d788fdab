#!/usr/bin/env node
/**
 * SIM throughput: waver's `sim()` (difflib port, Python lowercasing, 4-decimal rounding) against
 * CPython's `difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()` on the same pairs, in
 * the same run (issue 3 "Measure"; goal: waver at least 1.5x faster).
 *
 *   npm run build && node bench/ladder-sim.mjs [--repeat N] [--fixtures DIR]
 *
 * Pairs: every pair of ../shared/fixtures/difflib-ratio-pairs.json and difflib-ratio-long.json,
 * plus each pair reversed when that makes fewer than 4,000 (the ratio is not symmetric, so the
 * reversed pairs are new work). Each side times only its loop over the pairs, inside its own
 * process, after loading the JSON (no start-up, no parsing); the loops run N times alternately
 * (waver, CPython, waver, ...) and the median is compared. Every SIM waver computes is checked
 * against CPython's rounded ratio: a single difference makes the run INVALID (exit code 1).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const repeat = Math.max(1, Number(option('--repeat', 3)));
const fixtures = resolve(option('--fixtures', resolve(here, '../../shared/fixtures')));
const FILES = ['difflib-ratio-pairs.json', 'difflib-ratio-long.json'];
const MIN_PAIRS = 4000;
const GOAL = 1.5;

function finish(result, code = 0) {
  process.stdout.write(`RESULT ${JSON.stringify({ name: 'ladder-sim', goal: `>=${GOAL}`, ...result })}\n`);
  process.exit(code);
}
function skip(reason) {
  process.stdout.write(`ladder-sim: SKIPPED: ${reason}\n`);
  finish({ pass: false, skipped: reason });
}

const dist = resolve(here, '../dist/protocols/ladder/severity/similarity.js');
if (!existsSync(dist))
  skip('dist/protocols/ladder/severity/similarity.js is missing: run `npm run build` first');
const paths = FILES.map((f) => resolve(fixtures, f));
const missing = paths.filter((p) => !existsSync(p));
if (missing.length > 0) skip(`fixture not found: ${missing.join(', ')}`);
const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
if (probe.status !== 0) skip('python3 is not on the PATH');
const pythonVersion = (probe.stdout || probe.stderr).trim();

const { sim } = await import(pathToFileURL(dist).href);

// The pairs, in the order both sides use.
const fixturePairs = paths.flatMap((p) => JSON.parse(readFileSync(p, 'utf8')).map((x) => [x.a, x.b]));
const reversed = fixturePairs.length < MIN_PAIRS;
const pairs = reversed ? [...fixturePairs, ...fixturePairs.map(([a, b]) => [b, a])] : fixturePairs;

const PYTHON = `
import json, sys, time
from difflib import SequenceMatcher
paths, reverse = json.loads(sys.argv[1]), sys.argv[2] == "1"
pairs = []
for p in paths:
    with open(p, encoding="utf-8") as f:
        pairs += [(x["a"], x["b"]) for x in json.load(f)]
if reverse:
    pairs += [(b, a) for a, b in pairs]
out = [0.0] * len(pairs)
t0 = time.perf_counter()
for i, (a, b) in enumerate(pairs):
    out[i] = SequenceMatcher(None, a.lower(), b.lower()).ratio()
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "n": len(pairs), "sims": [round(r, 4) for r in out]}))
`;

function runPython() {
  const r = spawnSync('python3', ['-c', PYTHON, JSON.stringify(paths), reversed ? '1' : '0'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr.slice(-500)}`);
  return JSON.parse(r.stdout);
}

function runWaver() {
  const out = new Array(pairs.length);
  const t0 = performance.now();
  for (let i = 0; i < pairs.length; i++) out[i] = sim(pairs[i][0], pairs[i][1]);
  return { seconds: (performance.now() - t0) / 1000, sims: out };
}

const waverTimes = [];
const pythonTimes = [];
let mismatches = 0;
let firstMismatch;
for (let r = 0; r < repeat; r++) {
  const w = runWaver();
  const p = runPython();
  if (p.n !== pairs.length) throw new Error(`python3 saw ${p.n} pairs, waver ${pairs.length}`);
  waverTimes.push(w.seconds);
  pythonTimes.push(p.seconds);
  if (r === 0) {
    for (let i = 0; i < pairs.length; i++) {
      if (!Object.is(w.sims[i], p.sims[i])) {
        mismatches++;
        firstMismatch ??= { pair: i, waver: w.sims[i], cpython: p.sims[i] };
      }
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const waverS = median(waverTimes);
const pythonS = median(pythonTimes);
const ratio = pythonS / waverS;
const pass = mismatches === 0 && ratio >= GOAL;
const fmt = (x, d = 3) => x.toFixed(d);
const perS = (s) => Math.round(pairs.length / s).toLocaleString('en-US');

const rows = [
  ['engine', 'median s', 'pairs/s', 'runs (s)'],
  ['waver sim()', fmt(waverS), perS(waverS), waverTimes.map((t) => fmt(t)).join(' ')],
  [
    `CPython difflib (${pythonVersion})`,
    fmt(pythonS),
    perS(pythonS),
    pythonTimes.map((t) => fmt(t)).join(' '),
  ],
];
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
const line = (row) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
process.stdout.write(
  `ladder-sim: SIM on ${pairs.length.toLocaleString('en-US')} pairs (${fixturePairs.length.toLocaleString('en-US')} fixture pairs${
    reversed ? ' and the same reversed' : ''
  }), lowercased, autojunk on, ${repeat} alternating runs each\n\n`,
);
process.stdout.write(`${line(rows[0])}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
for (const row of rows.slice(1)) process.stdout.write(`${line(row)}\n`);
process.stdout.write(
  `\nspeed-up (CPython median / waver median): ${fmt(ratio, 2)}x   goal >= ${GOAL}x   ${pass ? 'PASS' : mismatches ? 'INVALID' : 'FAIL'}\n`,
);
process.stdout.write(
  `agreement: ${pairs.length - mismatches}/${pairs.length} SIM values identical to CPython's round(ratio, 4)${
    firstMismatch ? ` (first difference: ${JSON.stringify(firstMismatch)})` : ''
  }\n`,
);
finish(
  {
    pairs: pairs.length,
    waverS: Number(fmt(waverS, 4)),
    pythonS: Number(fmt(pythonS, 4)),
    ratio: Number(fmt(ratio, 2)),
    identical: pairs.length - mismatches,
    pass,
  },
  mismatches === 0 ? 0 : 1,
);
