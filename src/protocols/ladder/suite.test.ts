import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { Recording, SEED_A, scratchDir, testConfig } from '../../test-support/protocols/ladder/fakes.js';
import { deriveSeed } from '../../util/random.js';
import { GRADE_SCHOOL_SEEDS } from './data/grade-school.js';
import type { RulesFn } from './families/contract.js';
import { generatorTemperature, modelInstructions } from './families/instructions.js';
import { generatorRequest } from './families/model-generator.js';
import { ladderFamily } from './families/registry.js';
import { builtInFamilyCodes } from './families/roster.js';
import { type GateJob, gateRequest } from './gates/model-gates.js';
import { structuralGate } from './gates/structural-gate.js';
import { measureSeverity } from './severity/measure.js';
import { buildLadderSuite, fillCounts } from './suite.js';
import { ladderSuiteJsonl, ladderTestId, readLadderSuite, writeLadderSuite } from './suite-file.js';
import type { LadderTest } from './types.js';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SEEDS = GRADE_SCHOOL_SEEDS.slice(0, 6);

describe('buildLadderSuite with the rules generators', async () => {
  const config = testConfig(dir);
  const build = await buildLadderSuite({ seeds: SEEDS, config, generator: 'rules', seed: 7 });

  it('puts a baseline first for each seed, then at most one test per family and requested level', () => {
    const bySeed = new Map<string, LadderTest[]>();
    for (const t of build.tests) bySeed.set(t.seedId, [...(bySeed.get(t.seedId) ?? []), t]);
    expect([...bySeed.keys()]).toEqual(SEEDS.map((s) => s.id));
    for (const [seedId, tests] of bySeed) {
      const seed = SEEDS.find((s) => s.id === seedId);
      expect(tests[0]).toMatchObject({
        family: 'baseline',
        requestedLevel: 0,
        measuredLevel: 0,
        text: seed?.question,
        gold: seed?.gold,
        gates: [],
      });
      const slots = tests.slice(1).map((t) => `${t.family}/${t.requestedLevel}`);
      expect(new Set(slots).size).toBe(slots.length);
    }
  });

  it('admits only tests that passed every gate that ran, binned by measured level', () => {
    for (const t of build.tests) {
      expect(t.id).toBe(ladderTestId(t));
      if (t.family === 'baseline') continue;
      expect(t.text).not.toBe(t.original);
      expect(t.gold).toBe(t.family === 'KB' ? 'unanswerable' : SEEDS.find((s) => s.id === t.seedId)?.gold);
      expect(t.severity?.level).toBe(t.measuredLevel);
      // Recomputing the severity from the texts gives what the suite recorded.
      const again = measureSeverity(
        ladderFamily(t.family),
        t.original,
        t.text,
        t.family === 'KB' ? { kbType: t.subtype as never } : {},
      );
      expect(again).toEqual(t.severity);
      // The rule ran on the generator seeded for its (suite seed, item, family, level, attempt).
      const g = t.generator;
      expect(g?.kind).toBe('rules');
      if (g?.kind === 'rules')
        expect(g.seed).toBe(deriveSeed(7, t.seedId, t.family, t.requestedLevel, g.attempt));
      const names = t.gates.map((g) => g.gate);
      expect(names).toContain('level');
      if (t.family !== 'KB') expect(names[0]).toBe('structural');
      for (const g of t.gates) expect(g.verdict, `${t.family} ${g.gate}: ${g.reason}`).not.toBe('fail');
      // No judge: the family's model gates are recorded as not run.
      const modelGates = t.gates.filter((g) => g.verdict === 'not-run').map((g) => g.gate);
      expect(modelGates).toEqual(ladderFamily(t.family).modelGates);
    }
  });

  it('keeps the admission books: candidates = admitted + rejected + superseded, per family', () => {
    expect(build.admission.map((r) => r.family)).toEqual(builtInFamilyCodes());
    for (const row of build.admission) {
      // CI and CL have no rules (docs/decisions.md E62): no candidate, unavailable on every seed.
      if (row.family === 'CI' || row.family === 'CL') {
        expect([row.candidates, row.unavailable?.seeds], row.family).toEqual([0, SEEDS.length]);
        continue;
      }
      const rejected = Object.values(row.rejectedByGate).reduce((a, b) => a + b, 0);
      expect(row.candidates).toBe(row.admitted + rejected + (row.superseded ?? 0));
      expect(row.candidates).toBeGreaterThanOrEqual(SEEDS.length * 5);
      expect(row.candidates).toBeLessThanOrEqual(SEEDS.length * 5 * 2);
      const tests = build.tests.filter((t) => t.family === row.family);
      expect(row.admitted).toBe(tests.length);
      expect(row.offLevel).toBe(tests.filter((t) => t.measuredLevel !== t.requestedLevel).length);
      const byLevel = Object.values(row.admittedByLevel).reduce((a, b) => a + b, 0);
      expect(byLevel).toBe(row.admitted);
    }
    // The rules fill most cells on level (the bench measures the 100 paper seeds).
    const filled = [...fillCounts(build.tests).values()].reduce((a, b) => a + b, 0);
    expect(filled).toBeGreaterThan(0.6 * SEEDS.length * 25);
  });

  it('is byte-identical for the same inputs and seed, and differs with another seed', async () => {
    const again = await buildLadderSuite({ seeds: SEEDS, config, generator: 'rules', seed: 7 });
    expect(ladderSuiteJsonl(again.tests)).toBe(ladderSuiteJsonl(build.tests));
    expect(again.admission).toEqual(build.admission);
    const other = await buildLadderSuite({ seeds: SEEDS, config, generator: 'rules', seed: 8 });
    expect(ladderSuiteJsonl(other.tests)).not.toBe(ladderSuiteJsonl(build.tests));
  });

  it('round-trips through the JSONL file', () => {
    const file = join(dir, 'rules.jsonl');
    writeLadderSuite(file, build.tests);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text.split('\n')[0]?.startsWith('{"answerType":"number","family":"baseline","gates":[],"gold":'),
    ).toBe(true);
    expect(readLadderSuite(file)).toEqual(JSON.parse(JSON.stringify(build.tests)));
  });

  it('restricts to the families and levels asked, in canonical order', async () => {
    const some = await buildLadderSuite({
      seeds: SEEDS.slice(0, 2),
      config,
      generator: 'rules',
      seed: 7,
      families: ['KB', 'SV', 'KB'],
      levels: [3, 1],
    });
    expect(some.admission.map((r) => r.family)).toEqual(['SV', 'KB']);
    const perturbed = some.tests.filter((t) => t.family !== 'baseline');
    expect(new Set(perturbed.map((t) => t.requestedLevel))).toEqual(new Set([1, 3]));
    // Per seed: SV before KB, levels ascending (a slot whose candidates all failed is simply absent).
    for (const seed of SEEDS.slice(0, 2)) {
      const order = perturbed
        .filter((t) => t.seedId === seed.id)
        .map((t) => (t.family === 'SV' ? 0 : 10) + (t.requestedLevel as number));
      expect(order).toEqual([...order].sort((x, y) => x - y));
    }
    expect(new Set(perturbed.map((t) => t.family))).toEqual(new Set(['SV', 'KB']));
  });
});

describe('one test per (seed, family, measured level), no text twice for a seed', () => {
  const config = testConfig(dir);
  // A rule that ignores the level: every request yields the same text, measured at one level
  // (a review found 81 identical texts admitted under two requested levels).
  const sv = ladderFamily('SV');
  const svRules = sv.rules as RulesFn;
  const sameText: typeof sv = {
    ...sv,
    rules: (input) => svRules({ ...input, level: 2, target: { ...input.target, level: 2 } }),
  };
  const modules = [sameText];

  it('admits the on-level test and rejects the copies at gate duplicate', async () => {
    const build = await buildLadderSuite({
      seeds: SEEDS.slice(0, 3),
      config,
      generator: 'rules',
      seed: 7,
      families: ['SV'],
      modules,
    });
    for (const seed of SEEDS.slice(0, 3)) {
      const tests = build.tests.filter((t) => t.seedId === seed.id && t.family === 'SV');
      const cells = tests.map((t) => t.measuredLevel);
      expect(new Set(cells).size).toBe(cells.length);
      expect(new Set(tests.map((t) => t.text)).size).toBe(tests.length);
    }
    const row = build.admission[0];
    expect(row?.rejectedByGate.duplicate).toBeGreaterThan(0);
    const rejected = Object.values(row?.rejectedByGate ?? {}).reduce((a, b) => a + b, 0);
    expect(row?.candidates).toBe((row?.admitted ?? 0) + rejected + (row?.superseded ?? 0));
  });

  it('holds on the full rules suite', async () => {
    const build = await buildLadderSuite({ seeds: SEEDS, config, generator: 'rules', seed: 3 });
    const cells = new Set<string>();
    const texts = new Set<string>();
    for (const t of build.tests) {
      if (t.family === 'baseline') continue;
      const cell = `${t.seedId}/${t.family}/${t.measuredLevel}`;
      expect(cells.has(cell), cell).toBe(false);
      expect(texts.has(`${t.seedId}/${t.text}`), t.text).toBe(false);
      cells.add(cell);
      texts.add(`${t.seedId}/${t.text}`);
    }
  });
});

describe('buildLadderSuite with a generator model and a judge (replay recordings)', () => {
  const sv = ladderFamily('SV');
  const iq = ladderFamily('IQ');
  const q = SEED_A.question;
  // Attempt 1 is a fair paraphrase the meaning judge rejects; the retry at +0.10 passes.
  const svFirst = q
    .replace('Mia buys', 'Mia purchases')
    .replace('How many pencils does Mia have left?', 'How many pencils remain with Mia?');
  const svSecond = q.replace('Mia buys', 'Mia picks up').replace('gives', 'hands');
  // IQ attempt 1 drops a number (the structural gate rejects it, no judge is asked); attempt 2 the judge answers with garbage.
  const iqFirst = q.replace('12 pencils', 'twelve pencils').replace('pencils.', 'pencls.');
  const iqSecond = q.replace('pencils', 'pencisl').replace('brother', 'brohter');
  const svJob = (attempt: number) => ({ seed: SEED_A, family: 'SV' as const, level: 2 as const, attempt });
  const iqJob = (attempt: number) => ({ seed: SEED_A, family: 'IQ' as const, level: 2 as const, attempt });
  const gateJob = (
    family: GateJob['family'],
    level: number,
    attempt: number,
    candidate: string,
  ): GateJob => ({
    key: `${SEED_A.id}/${family}/L${level}/a${attempt}`,
    family,
    original: q,
    candidate,
  });

  const gen = new Recording(dir, 'gen.jsonl')
    .add(generatorRequest(sv, svJob(1)), `[QUESTION] ${svFirst}`)
    .add(generatorRequest(sv, svJob(2)), `"${svSecond}"`)
    .add(generatorRequest(iq, iqJob(1)), iqFirst)
    .add(generatorRequest(iq, iqJob(2)), `\`\`\`\n${iqSecond}\n\`\`\``);
  const judge = new Recording(dir, 'judge.jsonl')
    .add(gateRequest('nli', gateJob('SV', 2, 1, svFirst)), 'entailment')
    .add(
      gateRequest('meaning', gateJob('SV', 2, 1, svFirst)),
      '{"pass": false, "reason": "changes the question"}',
    )
    .add(gateRequest('nli', gateJob('SV', 2, 2, svSecond)), 'entailment')
    .add(gateRequest('meaning', gateJob('SV', 2, 2, svSecond)), '{"pass": true, "reason": "same problem"}')
    .add(gateRequest('nli', gateJob('IQ', 2, 2, iqSecond)), 'Sure! Here is my analysis: ...');

  it('the recorded candidates pass the offline gates they are meant to pass', () => {
    expect(structuralGate(q, svFirst).verdict).toBe('pass');
    expect(sv.familyGate(q, svFirst, 2).verdict).toBe('pass');
    expect(sv.familyGate(q, svSecond, 2).verdict).toBe('pass');
    expect(structuralGate(q, iqFirst).verdict).toBe('fail');
    expect(iq.familyGate(q, iqSecond, 2).verdict).toBe('pass');
  });

  it('retries a candidate the judge rejects at +0.10 and admits the retry; a garbage judge reply rejects', async () => {
    const config = testConfig(dir, { generator: gen.spec, judge: judge.spec, store: join(dir, 'model.db') });
    const build = await buildLadderSuite({
      seeds: [SEED_A],
      config,
      generator: 'model',
      seed: 1,
      families: ['SV', 'IQ'],
      levels: [2],
    });
    expect(build.tests.map((t) => t.family)).toEqual(['baseline', 'SV']);
    const svTest = build.tests[1] as LadderTest;
    expect(svTest.text).toBe(svSecond);
    const base = modelInstructions(sv, SEED_A, 2, 1).temperature;
    expect(svTest.generator).toMatchObject({
      kind: 'model',
      attempt: 2,
      temperature: generatorTemperature(sv, 2, 2),
    });
    expect(svTest.generator?.kind === 'model' && svTest.generator.temperature).toBeCloseTo(base + 0.1, 10);
    expect(svTest.gates.map((g) => [g.gate, g.verdict])).toEqual([
      ['structural', 'pass'],
      ['family', 'pass'],
      ['level', 'pass'],
      ['nli', 'pass'],
      ['meaning', 'pass'],
    ]);
    expect(svTest.gates[4]?.reason).toBe('meaning judge: kept — same problem');

    const [svRow, iqRow] = build.admission;
    expect(svRow).toMatchObject({ family: 'SV', candidates: 2, admitted: 1, rejectedByGate: { meaning: 1 } });
    expect(iqRow).toMatchObject({
      family: 'IQ',
      candidates: 2,
      admitted: 0,
      rejectedByGate: { structural: 1, nli: 1 },
    });

    // The same build again replays from the store: same bytes, no new calls.
    const again = await buildLadderSuite({
      seeds: [SEED_A],
      config,
      generator: 'model',
      seed: 1,
      families: ['SV', 'IQ'],
      levels: [2],
    });
    expect(ladderSuiteJsonl(again.tests)).toBe(ladderSuiteJsonl(build.tests));
  });

  it('without a judge admits on the offline gates and records the model gates as not run', async () => {
    const config = testConfig(dir, { generator: gen.spec, store: join(dir, 'no-judge.db') });
    const build = await buildLadderSuite({
      seeds: [SEED_A],
      config,
      generator: 'model',
      seed: 1,
      families: ['SV'],
      levels: [2],
    });
    const svTest = build.tests[1] as LadderTest;
    // Attempt 1 passes every gate that ran; it is admitted unless it measured off level.
    const onLevel = (text: string) => measureSeverity(ladderFamily('SV'), q, text).level === 2;
    expect(svTest.text).toBe(onLevel(svFirst) || !onLevel(svSecond) ? svFirst : svSecond);
    expect(svTest.gates.filter((g) => g.verdict === 'not-run').map((g) => g.gate)).toEqual([
      'nli',
      'meaning',
    ]);
    for (const g of svTest.gates.filter((g) => g.verdict === 'not-run')) expect(g.reason).toMatch(/no judge/);
  });
});

describe('bad input', () => {
  const config = testConfig(dir);
  const base = { seeds: SEEDS.slice(0, 1), config, generator: 'rules' as const, seed: 0 };
  const inputError = async (p: Promise<unknown>, field: string, message: RegExp) => {
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).field).toBe(field);
    expect((e as InputError).message).toMatch(message);
  };

  it('names an unknown family or level', async () => {
    await inputError(
      buildLadderSuite({ ...base, families: ['SV', 'XX' as never] }),
      'families',
      /unknown family 'XX'/,
    );
    await inputError(buildLadderSuite({ ...base, levels: [1, 6 as never] }), 'levels', /unknown level '6'/);
  });

  it('names the key of a band table that is not increasing', async () => {
    // Past the config schema (a library caller may hand over any object): the builder checks again.
    const bands = {
      SV: [
        [0.05, 0.15],
        [0.35, 0.6],
        [0.15, 0.35],
        [0.6, 0.85],
        [0.85, 0.95],
      ],
    };
    const bad = { ...testConfig(dir), ladder: { bands } } as unknown as typeof config;
    await inputError(buildLadderSuite({ ...base, config: bad }), 'ladder.bands.SV.2', /not increasing/);
  });

  it('asks for a generator model for the model generator, and refuses duplicate seeds', async () => {
    await inputError(buildLadderSuite({ ...base, generator: 'model' }), 'generator', /generator model/);
    await inputError(buildLadderSuite({ ...base, seeds: [SEED_A, SEED_A] }), 'dataset', /appears twice/);
  });
});
