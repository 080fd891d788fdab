#!/usr/bin/env node
// The ladder's rules suite on the paper's 100 seeds (issue 3 "Measure"): 100 seeds x 7 families x
// 5 levels x up to 2 attempts, generated, gated and binned, timed (goal: under 10 s); and the fill
// table: per family x requested level, the share of seeds with an admitted test that MEASURED at the
// requested level (goal: every cell >= 80%; a family the rules do not write, as CI and CL on every
// seed type since docs/decisions.md E62, is unavailable, not a goal). Then issue 11's checks:
// IQ tests inside their band at their measured level (goal >= 95%), no (seed, family, measured level) with two tests and no text twice for a seed, KB distinctness
// (share of L2-L5 texts that differ from the seed's L1 text by more than one added sentence), the
// distinct CIS directives per tier, and whether the meaning gates ran. `--sample K --draw S` prints K
// tests per family drawn with PyRandom(S) (a seeded draw, not a hand pick). `--dataset gsm8k` (or
// gsm-symbolic, or a file) builds from ../shared/data instead of the paper's seed CSV, `--seeds N`
// on a seeded sample of N of its problems (PyRandom(S) again). Then the suite's realism figures: the commonest
// template's share per family, KB L5's kinds, CIS's generic fallbacks, and IQ's word rates per level
// with every IQ test read back.
//
//   npm run build && node bench/ladder-suite.mjs [--seed N] [--sample 5 --draw 1] [--dataset gsm8k --seeds 100]
//
// Prints tables with goals and PASS/FAIL, then one `RESULT {...}` JSON line.
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

const argOf = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const suiteSeed = argOf('--seed', 0);
const sampleK = argOf('--sample', 0);
const drawSeed = argOf('--draw', 1);
const topK = argOf('--top', 1);
const datasetIdx = process.argv.indexOf('--dataset');
const datasetName = datasetIdx > 0 ? process.argv[datasetIdx + 1] : undefined;
const seedCount = argOf('--seeds', 0);
const DATA_DIR = resolve(ROOT, '..', 'shared', 'data');
const GOAL_BAND = 0.95;

if (!existsSync(join(DIST, 'protocols', 'ladder', 'suite.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
if (datasetName === undefined && !existsSync(SEEDS_CSV)) {
  console.log(`skipped: ${SEEDS_CSV} is not there (the paper's seed CSV lives in ../shared/fixtures)`);
  console.log(`RESULT ${JSON.stringify({ name: 'ladder-suite', skipped: 'seed CSV missing' })}`);
  process.exit(0);
}
if (datasetName !== undefined && !existsSync(DATA_DIR)) {
  console.log(`skipped: ${DATA_DIR} is not there (the datasets live in ../shared/data)`);
  console.log(`RESULT ${JSON.stringify({ name: 'ladder-suite', skipped: 'data dir missing' })}`);
  process.exit(0);
}

const { BaseConfig: WaverConfig } = await import(join(DIST, 'config', 'schema.js'));
const { loadLadderSeedsCsv } = await import(join(DIST, 'data', 'number', 'seeds-csv.js'));
const { buildLadderSuite, fillCounts } = await import(join(DIST, 'protocols', 'ladder', 'suite.js'));
const { ladderSuiteJsonl } = await import(join(DIST, 'protocols', 'ladder', 'suite-file.js'));
const { LEVELS } = await import(join(DIST, 'protocols', 'ladder', 'types.js'));
const FAMILIES = (
  await import(join(DIST, 'protocols', 'ladder', 'families', 'roster.js'))
).builtInFamilyCodes();
const { DEFAULT_BANDS } = await import(join(DIST, 'protocols', 'ladder', 'severity', 'levels.js'));
const { PyRandom } = await import(join(DIST, 'util', 'random.js'));
const { SEED_DIRECTIVES } = await import(join(DIST, 'protocols', 'ladder', 'families', 'cis', 'rules.js'));
const { conflictExplicitness } = await import(join(DIST, 'protocols', 'ladder', 'severity', 'ces.js'));
const { resolveLadderSeeds } = await import(join(DIST, 'protocols', 'ladder', 'data', 'datasets.js'));
const { withoutCutGolds } = await import(join(DIST, 'protocols', 'ladder', 'data', 'text-seeds.js'));
const { readsBack } = await import(join(DIST, 'protocols', 'ladder', 'families', 'iq', 'rules.js'));
const { scanSuite, SUITE_SCANS } = await import(join(DIST, 'protocols', 'ladder', 'suite-scans.js'));

const all =
  datasetName === undefined
    ? loadLadderSeedsCsv(SEEDS_CSV)
    : await resolveLadderSeeds(datasetName, { dataDir: DATA_DIR });
const drawn = seedCount > 0 && seedCount < all.length ? new PyRandom(drawSeed).sample(all, seedCount) : all;
// Seeds whose gold is cut short in the source file are left out, as a build leaves them out (issue 36).
const { kept: seeds, leftOut } = withoutCutGolds(drawn);
if (leftOut.length > 0)
  console.log(
    `left out ${leftOut.length} of ${drawn.length} seeds, their gold cut short or question damaged in the source file: ${leftOut.map((x) => `${x.id} ("${x.gold}": ${x.why})`).join('; ')}`,
  );
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
    `ladder rules suite: ${seeds.length} seeds (${datasetName ?? "the paper's gsm8k_symbolic100.csv"}${seedCount > 0 ? `, PyRandom(${drawSeed}).sample of ${all.length}` : ''}) x ${FAMILIES.length} families x ${LEVELS.length} levels x <= 2 attempts`,
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
  const unavailableOf = (family) => build.admission.find((r) => r.family === family)?.unavailable;
  for (const family of FAMILIES) {
    // A family the rules do not write on these seeds is unavailable, never 0% (issue 36).
    const none = unavailableOf(family);
    const over = seeds.length - (none?.seeds ?? 0);
    if (over === 0) {
      for (const l of LEVELS) cells[`${family}/L${l}`] = null;
      console.log(`${family.padEnd(7)} unavailable on all ${seeds.length} seeds: ${none.reason}`);
      continue;
    }
    const shares = LEVELS.map((l) => (fill.get(`${family}/L${l}`) ?? 0) / over);
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
  console.log('');

  const perturbed = build.tests.filter((t) => t.family !== 'baseline');
  const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

  // IQ: the binned score inside the family's band of the measured level (CI: no rules, E62).
  const inBand = {};
  for (const family of ['IQ']) {
    const ts = perturbed.filter((t) => t.family === family);
    const ok = ts.filter((t) => {
      const band = t.measuredLevel ? DEFAULT_BANDS[family][t.measuredLevel - 1] : undefined;
      const score = t.severity?.score;
      return band && score !== undefined && score >= band[0] && (band[1] === null || score < band[1]);
    }).length;
    inBand[family] = {
      inside: ok,
      tests: ts.length,
      share: ts.length ? Number((ok / ts.length).toFixed(4)) : null,
    };
    const pass = ts.length > 0 && ok / ts.length >= GOAL_BAND;
    console.log(
      `${family} inside its band at the measured level: ${ok}/${ts.length} (${pct(ok, ts.length)})   goal >= ${GOAL_BAND * 100}%   ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
  const bandPass = Object.values(inBand).every((b) => b.share !== null && b.share >= GOAL_BAND);

  // One test per (seed, family, measured level); no text twice for a seed.
  const cellCount = new Map();
  const textCount = new Map();
  for (const t of perturbed) {
    const cell = `${t.seedId}/${t.family}/${t.measuredLevel}`;
    cellCount.set(cell, (cellCount.get(cell) ?? 0) + 1);
    const text = `${t.seedId}\u0000${t.text}`;
    textCount.set(text, (textCount.get(text) ?? 0) + 1);
  }
  const doubleCells = [...cellCount.values()].filter((n) => n > 1).length;
  const doubleTexts = [...textCount.values()].filter((n) => n > 1).length;
  const dupPass = doubleCells === 0 && doubleTexts === 0;
  console.log(
    `(seed, family, measured level) cells with two tests: ${doubleCells}; texts twice for a seed: ${doubleTexts}   goal 0 and 0   ${dupPass ? 'PASS' : 'FAIL'}`,
  );

  // KB: an L2-L5 text that is the seed's L1 text plus at most one added sentence is not a type of its own.
  const sentences = (text) =>
    text
      .split(/(?<=[.?!])\s+/)
      .map((x) => x.trim())
      .filter(Boolean);
  const kb = perturbed.filter((t) => t.family === 'KB');
  const kbL1 = new Map(kb.filter((t) => t.measuredLevel === 1).map((t) => [t.seedId, t.text]));
  const kbDistinct = {};
  let kbN = 0;
  let kbD = 0;
  for (const level of [2, 3, 4, 5]) {
    const ts = kb.filter((t) => t.measuredLevel === level);
    let distinct = 0;
    for (const t of ts) {
      const l1 = kbL1.get(t.seedId);
      if (l1 === undefined) {
        distinct++;
        continue;
      }
      const a = sentences(l1);
      const b = sentences(t.text);
      const kept = a.every((x) => b.includes(x));
      if (!(kept && b.length <= a.length + 1)) distinct++;
    }
    kbDistinct[`L${level}`] = { distinct, tests: ts.length };
    kbN += ts.length;
    kbD += distinct;
  }
  console.log(
    `KB L2-L5 texts that differ from the seed's L1 text by more than one added sentence: ${kbD}/${kbN} (${pct(kbD, kbN)}); ` +
      Object.entries(kbDistinct)
        .map(([l, x]) => `${l} ${pct(x.distinct, x.tests)}`)
        .join(', '),
  );

  // CIS: distinct directives per tier (issue 11: >= 20), as templates (the directive each added
  // sentence was filled from) and as texts.
  // A template as a pattern: a number slot ({n} {k} {m}) matches a number, any other slot words.
  const templateRe = (t) =>
    new RegExp(
      `^${t
        .split(/(\{\w+\})/)
        .map((x, i) =>
          i % 2 === 1
            ? /^\{[nkm]\}$/.test(x)
              ? '\\$?\\d+(?:[.,]\\d+)*'
              : '[^.?!]+?'
            : x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
      'i',
    );
  const cisDirectives = {};
  for (const level of LEVELS) {
    const res = [...SEED_DIRECTIVES[level]].map((t) => [t, templateRe(t)]);
    const used = new Set();
    const texts = new Set();
    for (const t of perturbed) {
      if (t.family !== 'CIS' || t.requestedLevel !== level) continue;
      const added = conflictExplicitness(t.original, t.text).added.join(' ');
      texts.add(added);
      const hit = res.find(([, re]) => re.test(added));
      if (hit) used.add(hit[0]);
    }
    cisDirectives[`L${level}`] = {
      templates: used.size,
      of: SEED_DIRECTIVES[level].length,
      texts: texts.size,
    };
  }
  console.log(
    `CIS distinct directives per requested tier (templates used of those defined; distinct filled texts; goal >= 20 templates): ${Object.entries(
      cisDirectives,
    )
      .map(([l, x]) => `${l} ${x.templates}/${x.of} (${x.texts} texts)`)
      .join(', ')}`,
  );

  // Templates (issue 23): the share of a family's tests that use its commonest template. CIS: the
  // directive template. Other families have no sentence templates: their generator technique is
  // reported instead (CI and CL, whose sentence templates the goal was for, have no rules: E62).
  const cisTemplates = LEVELS.flatMap((l) => [...SEED_DIRECTIVES[l]]).map((t) => [t, templateRe(t)]);
  const templatesOf = (t) => {
    if (t.family === 'CIS') {
      const added = conflictExplicitness(t.original, t.text).added.join(' ');
      const hit = cisTemplates.find(([, re]) => re.test(added));
      return new Set([hit ? hit[0] : `(own) ${added.replace(/\$?\d+(?:[.,]\d+)*/g, '#')}`]);
    }
    return new Set([`(technique) ${t.generator.name}`]);
  };
  const templateShare = {};
  console.log("commonest template per family (share of the family's tests using it):");
  for (const family of FAMILIES) {
    const ts = perturbed.filter((t) => t.family === family);
    const uses = new Map();
    for (const t of ts) for (const k of templatesOf(t)) uses.set(k, (uses.get(k) ?? 0) + 1);
    const ranked = [...uses.entries()].sort((a, b) => b[1] - a[1]);
    const [top, n] = ranked[0] ?? ['none', 0];
    const share = ts.length ? n / ts.length : 0;
    templateShare[family] = {
      template: top,
      tests: n,
      of: ts.length,
      share: Number(share.toFixed(4)),
      templates: uses.size,
    };
    console.log(
      `  ${family.padEnd(4)} ${pct(n, ts.length).padStart(6)} (${n}/${ts.length}; ${uses.size} distinct) ${JSON.stringify(top)}`,
    );
    for (const [k, m] of ranked.slice(1, topK))
      console.log(`       ${pct(m, ts.length).padStart(6)} ${JSON.stringify(k)}`);
  }

  // KB L5 (issue 23): the kinds of impossible premise and their shares (goal: >= 4 kinds, none over 40%).
  const l5 = perturbed.filter((t) => t.family === 'KB' && t.measuredLevel === 5);
  const kinds = new Map();
  for (const t of l5) {
    const kind = t.generator.name?.replace(/^KB\/impossible-premise-?/, '') || '(unnamed)';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const kindShares = Object.fromEntries([...kinds.entries()].sort((a, b) => b[1] - a[1]));
  const topKind = Math.max(0, ...kinds.values()) / Math.max(1, l5.length);
  const kindsPass = kinds.size >= 4 && topKind <= 0.4;
  console.log(
    `KB L5 impossible-premise kinds over ${l5.length} tests: ${Object.entries(kindShares)
      .map(([k, n]) => `${k} ${pct(n, l5.length)}`)
      .join(', ')}   goal >= 4 kinds, none over 40%   ${kindsPass ? 'PASS' : 'FAIL'}`,
  );

  // IQ (issue 23): the share of whitespace words a test alters, per measured level.
  const iqRates = {};
  for (const level of LEVELS) {
    const rates = perturbed
      .filter((t) => t.family === 'IQ' && t.measuredLevel === level)
      .map((t) => {
        const o = t.original.split(/\s+/).filter(Boolean);
        const c = t.text.split(/\s+/).filter(Boolean);
        return o.filter((w, i) => c[i] !== w).length / Math.max(1, o.length);
      })
      .sort((a, b) => a - b);
    iqRates[`L${level}`] = {
      tests: rates.length,
      median: Number((rates[Math.floor(rates.length / 2)] ?? 0).toFixed(3)),
      max: Number((rates.at(-1) ?? 0).toFixed(3)),
    };
  }
  const iqTests = perturbed.filter((t) => t.family === 'IQ');
  const iqUnread = iqTests.filter((t) => readsBack(t.original, t.text, t.measuredLevel) !== undefined).length;
  console.log(
    `IQ words altered per test (median, max): ${Object.entries(iqRates)
      .map(([l, x]) => `${l} ${pct(x.median, 1)} / ${pct(x.max, 1)} (${x.tests})`)
      .join(', ')}; tests that do not read back: ${iqUnread}/${iqTests.length}`,
  );

  // CIS: directives from the generic lists, where the seed's own steps and givens gave none.
  const cisTests = perturbed.filter((t) => t.family === 'CIS');
  const cisGeneric = cisTests.filter((t) => /-generic-|-mixed-/.test(t.generator.name ?? '')).length;
  console.log(
    `CIS tests with a generic directive: ${cisGeneric}/${cisTests.length} (${pct(cisGeneric, cisTests.length)})`,
  );

  // Meaning gates: did any NLI, meaning or epistemic judge run?
  const MEANING = ['nli', 'meaning', 'epistemic'];
  const notRun = perturbed.filter((t) =>
    t.gates.some((g) => MEANING.includes(g.gate) && g.verdict === 'not-run'),
  ).length;
  console.log(`tests admitted with a meaning gate not run: ${notRun}/${perturbed.length}`);

  // Issue 36's defect scans (src/protocols/ladder/suite-scans.ts): hits per scan, goal 0 each.
  const scanHits = scanSuite(build.tests);
  const scans = {};
  console.log('');
  console.log('defect scans (hits / tests of the family the scan reads; goal 0 each):');
  for (const scan of SUITE_SCANS) {
    const hits = scanHits.get(scan.id) ?? [];
    scans[scan.id] = hits.length;
    console.log(
      `  ${scan.id.padEnd(22)} ${String(hits.length).padStart(4)}   ${hits.length === 0 ? 'PASS' : 'FAIL'}   ${scan.title}`,
    );
    for (const h of hits.slice(0, topK))
      console.log(`      e.g. ${h.family} L${h.level} ${h.seedId}: ${h.why}`);
  }
  const scansPass = Object.values(scans).every((n) => n === 0);
  const unavailable = Object.fromEntries(
    build.admission.filter((r) => r.unavailable).map((r) => [r.family, r.unavailable]),
  );

  if (sampleK > 0) {
    const rng = new PyRandom(drawSeed);
    console.log('');
    console.log(
      `seeded draw: ${sampleK} tests per family, PyRandom(${drawSeed}).sample over the suite's order`,
    );
    for (const family of FAMILIES) {
      const ts = perturbed.filter((t) => t.family === family);
      for (const t of rng.sample(ts, Math.min(sampleK, ts.length)))
        console.log(
          `- ${family} L${t.measuredLevel} (asked L${t.requestedLevel}${t.subtype ? `, ${t.subtype}` : ''}) ${t.seedId}: ${JSON.stringify(t.text)}`,
        );
    }
  }
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
      inBand,
      bandPass,
      doubleCells,
      doubleTexts,
      dupPass,
      kbDistinct: { distinct: kbD, tests: kbN, byLevel: kbDistinct },
      cisDirectives,
      templateShare,
      kbImpossibleKinds: { tests: l5.length, kinds: kindShares, pass: kindsPass },
      iqWordRates: iqRates,
      iqUnreadable: iqUnread,
      cisGeneric: { tests: cisGeneric, of: cisTests.length },
      dataset: datasetName ?? 'gsm8k_symbolic100.csv',
      meaningNotRun: notRun,
      scans,
      scansPass,
      unavailable,
      leftOut: leftOut.map((x) => x.id),
    })}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
