#!/usr/bin/env node
/**
 * BLEU throughput: waver's sacrebleu port (dist/text-measures/bleu.js) on the 1,250 cases of
 * ../shared/fixtures/sacrebleu-sentence-cases.json, against sacrebleu 2.6.0 itself in the same run
 * when `python3 -c 'import sacrebleu'` works (PYTHONPATH is passed through). First checks that
 * every score matches sacrebleu's to 1e-9 (a fast wrong BLEU is not a result).
 *
 *   npm run build && node bench/sago-bleu.mjs [--rounds R]
 *
 * Each contender scores all cases once per round (timed inside its own process, so interpreter
 * start-up is not counted); rounds alternate between the contenders and the median is reported.
 * sacrebleu is timed two ways: `sentence_bleu()` per case (its public one-call API, a new metric
 * object each time) and one `BLEU(effective_order=True)` per round calling `sentence_score`
 * (tokenizer cache warm within the round). The ratio is against the faster of the two.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const roundsArg = args.indexOf('--rounds');
const rounds = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 7;
const fixture = resolve(here, '../../shared/fixtures/sacrebleu-sentence-cases.json');
const dist = resolve(here, '../dist/text-measures/bleu.js');

if (!existsSync(dist)) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
if (!existsSync(fixture)) {
  console.error(`fixture not found: ${fixture}`);
  process.exit(1);
}
const { sentenceBleu } = await import(dist);
const cases = JSON.parse(readFileSync(fixture, 'utf8'));

// 1. Fidelity, on the same cases that are timed.
let mismatches = 0;
for (const c of cases) {
  const r = sentenceBleu(c.hyp, c.refs);
  if (
    Math.abs(r.score - c.py) > 1e-9 ||
    r.counts.join() !== c.py_counts.join() ||
    r.totals.join() !== c.py_totals.join()
  ) {
    mismatches++;
  }
}

function waverRound() {
  const t0 = performance.now();
  let sink = 0;
  for (const c of cases) sink += sentenceBleu(c.hyp, c.refs).score;
  const ms = performance.now() - t0;
  if (!Number.isFinite(sink)) throw new Error('non-finite BLEU');
  return ms;
}

const PY = `
import json, sys, time
import sacrebleu
from sacrebleu.metrics import BLEU
cases = json.load(open(sys.argv[1]))
mode = sys.argv[2]
def run():
    t0 = time.perf_counter()
    if mode == 'sentence_bleu':
        for c in cases: sacrebleu.sentence_bleu(c['hyp'], c['refs'])
    else:
        m = BLEU(effective_order=True)
        for c in cases: m.sentence_score(c['hyp'], c['refs'])
    return (time.perf_counter() - t0) * 1000
run()  # warm-up: imports, regex compilation
print(json.dumps({'ms': run(), 'version': sacrebleu.__version__}))
`;

const probe = spawnSync('python3', ['-c', 'import sacrebleu; print(sacrebleu.__version__)'], {
  encoding: 'utf8',
});
const sacrebleuVersion = probe.status === 0 ? probe.stdout.trim() : undefined;
const whyNoPython =
  probe.error !== undefined
    ? `python3 could not be started (${probe.error.message})`
    : probe.status !== 0
      ? `python3 cannot import sacrebleu (${(probe.stderr.trim().split('\n').at(-1) ?? '').slice(0, 120)}); pip install sacrebleu==2.6.0 or set PYTHONPATH to compare`
      : undefined;

function pythonRound(mode) {
  const run = spawnSync('python3', ['-c', PY, fixture, mode], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`sacrebleu run failed: ${run.stderr.slice(-500)}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)).ms;
}

// 2. Throughput, rounds interleaved.
for (let i = 0; i < 2; i++) waverRound(); // JIT warm-up
const times = { waver: [], sentence_bleu: [], sentence_score: [] };
for (let i = 0; i < rounds; i++) {
  times.waver.push(waverRound());
  if (sacrebleuVersion) {
    times.sentence_bleu.push(pythonRound('sentence_bleu'));
    times.sentence_score.push(pythonRound('sentence_score'));
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const perS = (ms) => (cases.length / ms) * 1000;
const waverRate = perS(median(times.waver));
const rows = [['waver sentenceBleu (dist/text-measures/bleu.js)', median(times.waver), waverRate]];
let anchorRate;
if (sacrebleuVersion) {
  const a = perS(median(times.sentence_bleu));
  const b = perS(median(times.sentence_score));
  rows.push([`sacrebleu ${sacrebleuVersion} sentence_bleu()`, median(times.sentence_bleu), a]);
  rows.push([`sacrebleu ${sacrebleuVersion} BLEU.sentence_score`, median(times.sentence_score), b]);
  anchorRate = Math.max(a, b);
}

const exact = mismatches === 0;
const ratio = anchorRate ? waverRate / anchorRate : undefined;
const goal = anchorRate ? '>= 1.0x sacrebleu, exact' : 'exact (no sacrebleu to compare)';
const pass = exact && (ratio === undefined || ratio >= 1);

console.log(`BLEU on ${cases.length} sacrebleu fixture cases, ${rounds} rounds, median per round`);
console.log(
  `fidelity: ${cases.length - mismatches}/${cases.length} cases equal to sacrebleu (score within 1e-9, counts, totals)\n`,
);
console.log(`${'contender'.padEnd(46)} ${'ms/round'.padStart(10)} ${'cases/s'.padStart(10)}`);
for (const [name, ms, rate] of rows)
  console.log(`${name.padEnd(46)} ${ms.toFixed(1).padStart(10)} ${Math.round(rate).toString().padStart(10)}`);
if (!anchorRate) console.log(`\nno comparison: ${whyNoPython}`);
console.log(
  `\nratio (waver / fastest sacrebleu): ${ratio === undefined ? 'n/a' : `${ratio.toFixed(2)}x`}  goal ${goal}  ${pass ? 'PASS' : 'FAIL'}`,
);
console.log(
  `RESULT ${JSON.stringify({
    name: 'sago-bleu',
    value: Math.round(waverRate),
    unit: 'cases/s',
    ...(ratio !== undefined ? { ratio: Number(ratio.toFixed(2)) } : {}),
    sacrebleu: sacrebleuVersion ?? null,
    ...(anchorRate ? { sacrebleuCasesPerS: Math.round(anchorRate) } : { why: whyNoPython }),
    cases: cases.length,
    mismatches,
    goal,
    pass,
  })}`,
);
