import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../report/formats.js';
import { buildReport } from '../../report/report-data.js';
import { requestFor } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { Recording, scratchDir, testConfig } from '../../test-support/protocols/ladder/fakes.js';
import { ladderTest } from '../../test-support/protocols/ladder/ladder-test.js';
import { HOSTILE_RESPONSE, REPORTED } from '../../test-support/report-store.js';
import { withPool } from '../define.js';
import { saveAdmission } from './admission-record.js';
import { ladderSettings } from './config.js';
import { GRADE_SCHOOL_SEEDS } from './data/grade-school.js';
import { kbJudgeRequest } from './kb-judge.js';
import { meaningCheck } from './meaning-check.js';
import { stabilityFigure } from './report-section.js';
import { ladderBuildSettings } from './report-settings.js';
import { kbJudgeJobs, ladderSuiteTest, runLadder } from './run.js';
import type { LadderTest, Seed } from './types.js';

const NOW = '2025-06-01T12:00:00.000Z';

describe('buildReport on a store written by a real ladder run (runLadder, replay recordings)', () => {
  it('shows the run, its coverage, the ladder section and every cell with the judge’s verdict', async () => {
    const [A, B] = GRADE_SCHOOL_SEEDS as [Seed, Seed];
    const tests = [
      ladderTest(A, 'baseline', 0, A.question),
      ladderTest(B, 'baseline', 0, B.question),
      ladderTest(A, 'CI', 2, `${A.question} Unrelated: the shop opens at 9.`),
      ladderTest(B, 'KB', 1, B.question.replace(/\d+/, 'some'), { kbType: 'missing-information' }),
    ];
    const dir = scratchDir('waver-report-ladder-');
    const sut = new Recording(dir, 'sut.jsonl');
    const config0 = testConfig(dir, { models: [sut.spec] });
    const settings = ladderSettings(config0);
    for (const t of tests.slice(0, 3))
      sut.add(requestFor(ladderSuiteTest(t, settings, 1), config0.params), `{"ground_truth": ${t.gold}}`);
    sut.add(
      requestFor(ladderSuiteTest(tests[3] as LadderTest, settings, 1), config0.params),
      HOSTILE_RESPONSE,
    );
    const run1 = await withPool(config0, {}, (o) => runLadder(config0, tests, o));
    const judge = new Recording(dir, 'judge.jsonl');
    for (const job of kbJudgeJobs(config0.store, run1.suite, [run1.sut.models[0]?.identity as string]))
      judge.add(kbJudgeRequest(job), '{"score": 0, "reason": "answers as if <i>nothing</i> were missing"}');
    const config = testConfig(dir, { models: [sut.spec], judge: judge.spec, ladder: { resamples: 100 } });
    await withPool(config, {}, (o) => runLadder(config, tests, o));

    const store = openStore(config.store);
    const data = buildReport(store, REPORTED, { now: NOW });
    store.close();
    expect(data.runs.map((r) => [r.suite?.name, r.role, r.status])).toEqual([
      ['ladder/tests', 'system under test', 'complete'],
      ['ladder/tests', 'system under test', 'complete'],
      ['ladder/kb-judge', 'judge', 'complete'],
    ]);
    expect(data.runs[1]?.judge).toBe(judge.spec);
    expect(data.coverage.find((c) => c.suite.name === 'ladder/tests')?.coverage).toMatchObject({
      total: 8,
      done: 8,
      failed: 0,
    });
    const section = data.sections[0];
    expect(section?.protocol).toBe('ladder');
    expect(section?.unavailable).toBeUndefined();
    // The stored run config carries the ladder settings: the report's bootstrap uses its 100 resamples.
    const loaded = section?.results as { results: { settings: { resamples: number } } } | undefined;
    expect(loaded?.results.settings.resamples).toBe(100);
    expect(data.cells).toHaveLength(8);
    const kb = data.cells.find((c) => c.family === 'KB');
    expect(kb).toMatchObject({
      response: HOSTILE_RESPONSE,
      score: 0,
      correct: false,
      reason: 'judge (scored): answers as if <i>nothing</i> were missing',
      level: 'L1',
    });
    expect(data.cells.filter((c) => c.correct === true)).toHaveLength(7);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the ladder section of a run without a judge', () => {
  it('names an unparsed response as such and draws no KB curve of its L0 point alone', async () => {
    const [A, B] = GRADE_SCHOOL_SEEDS as [Seed, Seed];
    const tests = [
      ladderTest(A, 'baseline', 0, A.question),
      ladderTest(B, 'baseline', 0, B.question),
      {
        ...ladderTest(A, 'CI', 2, `${A.question} Unrelated: the shop opens early.`),
        gates: [{ gate: 'nli', verdict: 'not-run' as const, reason: 'no judge configured' }],
      },
      ladderTest(B, 'KB', 1, B.question.replace(/\d+/, 'some'), { kbType: 'missing-information' }),
    ];
    const dir = scratchDir('waver-report-ladder-nojudge-');
    const sut = new Recording(dir, 'sut.jsonl');
    const config = testConfig(dir, { models: [sut.spec], ladder: { resamples: 50 } });
    const settings = ladderSettings(config);
    const answers = [
      `{"ground_truth": ${A.gold}}`,
      `{"ground_truth": ${B.gold}}`,
      'I cannot say.',
      'Not enough.',
    ];
    tests.forEach((t, i) => {
      sut.add(requestFor(ladderSuiteTest(t, settings, 1), config.params), answers[i] as string);
    });
    const run = await withPool(config, {}, (o) => runLadder(config, tests, o));
    const store = openStore(config.store);
    // The build's bookkeeping, as `waver ladder` stores it beside the suite it built.
    const row = (family: 'CI' | 'KB', candidates: number, rejected: Record<string, number>) => ({
      family,
      candidates,
      admitted: 1,
      rejectedByGate: rejected,
      admittedByLevel: { '1': family === 'KB' ? 1 : 0, '2': family === 'CI' ? 1 : 0, '3': 0, '4': 0, '5': 0 },
      offLevel: 0,
      superseded: 0,
    });
    saveAdmission(store, run.suite.hash, {
      rows: [row('CI', 7, { structural: 4, level: 2 }), row('KB', 3, { generator: 2 })],
      context: {
        seeds: 2,
        generator: 'rules',
        meaning: meaningCheck(tests),
        settings: ladderBuildSettings(settings),
      },
    });
    const data = buildReport(store, REPORTED, { now: NOW });
    store.close();
    expect(data.cells.find((c) => c.family === 'CI')?.reason).toBe(
      'no number found in the response (scored wrong)',
    );
    const html = renderReport(data, 'html', REPORTED);
    expect(html).toContain(
      '<strong>Knowledge Boundary (KB)</strong>Unavailable: no perturbed level has a score. Not drawn: L1 (not scored: no judge verdicts).',
    );
    expect(html).not.toContain('parsed via unparsed');
    // The CLI's admission table with its candidate and rejection counts.
    expect(html).toContain('Ladder suite admission (Table 3)');
    expect(html).toMatch(/<td[^>]*>Context Interference \(CI\)<\/td><td[^>]*>7<\/td><td[^>]*>1<\/td>/);
    expect(html).toContain('Rejected: structural');
    // The header says the meaning was never checked, naming the section.
    expect(html).toMatch(
      /<header>.*<p class="warn caveat"><a href="#ladder-[0-9a-f]{8}">builtin · replay:[^<]*sut\.jsonl<\/a>: meaning not verified: 1 of 2 perturbed tests .*<\/header>/s,
    );
    const json = JSON.parse(renderReport(data, 'json', REPORTED));
    expect(json.caveats).toEqual([
      { section: data.sections[0]?.id, caveat: expect.stringMatching(/^meaning not verified: 1 of 2/) },
    ]);
    expect(json.sections[0].results).toMatchObject({ meaningVerified: false });
    expect(json.sections[0].results.admission).toMatchObject({ table: 'ladder-admission', seeds: 2 });
    // The settings it was built with, read back from the store; the run's own, from its stored config.
    expect(json.sections[0].results.settings).toMatchObject({
      resamples: 50,
      kbScoring: 'paper',
      build: { attempts: 2, families: null, strictLoadBands: true },
    });
    expect(renderReport(data, 'md', REPORTED)).toMatch(
      /> \*\*builtin · replay:\S*sut\.jsonl\*\*: meaning not verified/,
    );
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('a ladder run from a licensed dataset', () => {
  it('states the dataset and its licence in the ladder summary, the Markdown, the JSON and the HTML index', async () => {
    const source = {
      name: 'gsm-symbolic',
      hub: { repo: 'apple/GSM-Symbolic', revision: 'main', commit: 'c0ffee'.repeat(6), split: 'test' },
      files: [{ path: 'main/test.jsonl', sha256: 'a'.repeat(64), bytes: 1234 }],
      licence: 'CC-BY-NC-ND-4.0',
      licenceNote: 'non-commercial use only',
    };
    const [A] = GRADE_SCHOOL_SEEDS as [Seed];
    const tests = [ladderTest(A, 'baseline', 0, A.question), ladderTest(A, 'SV', 1, A.question)].map((t) => ({
      ...t,
      dataset: source,
    }));
    const dir = scratchDir('waver-report-ladder-licence-');
    const sut = new Recording(dir, 'sut.jsonl');
    const config = testConfig(dir, { models: [sut.spec], ladder: { resamples: 50 } });
    const settings = ladderSettings(config);
    for (const t of tests)
      sut.add(requestFor(ladderSuiteTest(t, settings, 1), config.params), `{"ground_truth": ${A.gold}}`);
    await withPool(config, {}, (o) => runLadder(config, tests, o));
    const store = openStore(config.store);
    const data = buildReport(store, REPORTED, { now: NOW });
    store.close();
    const section = data.sections[0];
    expect(section?.name).toBe(`gsm-symbolic · ${sut.spec}`);
    expect(section?.summary?.datasets).toEqual([
      { name: 'gsm-symbolic', licence: 'CC-BY-NC-ND-4.0', licenceNote: 'non-commercial use only' },
    ]);
    // The headline is the paper's answer (issue 37.2): Stability and the Collapse Point, not accuracy by level.
    expect(section?.summary?.models[0]?.figures.map((f) => [f.name, f.value ?? f.shown])).toEqual([
      ['Stability (lowest of 1 family: SV)', 1],
      ['Collapse Point', 'never'],
    ]);
    // What `waver ladder` prints is this Markdown (formatLadderReport), under the report's heading here.
    const md = renderReport(data, 'md', REPORTED);
    expect(md).toContain(
      'Dataset: gsm-symbolic: hf:apple/GSM-Symbolic@c0ffeec0ffee/test, 1 file (licence: CC-BY-NC-ND-4.0) — non-commercial use only.',
    );
    expect(md).toMatch(/\| gsm-symbolic \(CC-BY-NC-ND-4\.0: non-commercial use only\) \|/);
    const json = JSON.parse(renderReport(data, 'json', REPORTED));
    expect(json.sections[0].results.datasets[0].licence).toBe('CC-BY-NC-ND-4.0');
    const html = renderReport(data, 'html', REPORTED);
    expect(html).toMatch(
      /<table class="stack" id="index">.*gsm-symbolic \(CC-BY-NC-ND-4\.0: non-commercial use only\)/s,
    );
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the transcript says how each answer was read', () => {
  it('where and in what form, and that a reply offering two answers was read as none', async () => {
    const [A] = GRADE_SCHOOL_SEEDS as [Seed];
    const replies = [String.raw`So \boxed{\frac{37}{2}}.`, `Either ${A.gold} or ${Number(A.gold) + 2}.`];
    const tests = replies.map((_, i) => ladderTest(A, 'SV', 1, `${A.question} (${i})`));
    const dir = scratchDir('waver-report-ladder-via-');
    const sut = new Recording(dir, 'sut.jsonl');
    const config = testConfig(dir, { models: [sut.spec], ladder: { resamples: 50 } });
    const settings = ladderSettings(config);
    tests.forEach((t, i) => {
      sut.add(requestFor(ladderSuiteTest(t, settings, 1), config.params), replies[i] as string);
    });
    await withPool(config, {}, (o) => runLadder(config, tests, o));
    const store = openStore(config.store);
    const data = buildReport(store, REPORTED, { now: NOW });
    store.close();
    const cell = (t: LadderTest) => data.cells.find((c) => c.test === t.id);
    expect(cell(tests[0] as LadderTest)).toMatchObject({
      parsed: '18.5',
      reason: 'parsed via boxed+latex-fraction',
    });
    expect(cell(tests[1] as LadderTest)?.parsed).toBeUndefined();
    expect(cell(tests[1] as LadderTest)?.reason).toBe(
      'two or more different answers given, none read (scored wrong)',
    );
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the Stability headline', () => {
  it('with no family that keeps an answer (KB alone) says what was asked, never "over 0 families"', () => {
    const kb = { family: 'KB', overall: { n: 40 } } as unknown as Parameters<
      typeof stabilityFigure
    >[0][number];
    const figure = stabilityFigure([kb]);
    expect(figure.unavailable).toBe('no family that keeps an answer was asked');
    expect(figure.over).toBe('1 family (KB)');
  });
});
