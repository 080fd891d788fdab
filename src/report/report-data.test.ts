import { describe, expect, it } from 'vitest';
import { suiteOf } from '../run/suite.js';
import { openStore } from '../store/store.js';
import { writeCells } from '../test-support/check/stores.js';
import {
  buildReportStore,
  HOSTILE_QUESTION,
  HOSTILE_RESPONSE,
  MODELS,
  REPORTED,
} from '../test-support/report-store.js';
import { renderReport } from './formats.js';
import { buildReport } from './report-data.js';
import { suiteRoles } from './suite-roles.js';

const NOW = '2025-06-01T12:00:00.000Z';

describe('buildReport on a store with one run of every protocol', () => {
  const store = buildReportStore();
  const data = buildReport(store, REPORTED, { now: NOW });

  it('says what was run: every run with its suite, role, models, roles configured and settings', () => {
    expect(data.generatedAt).toBe(NOW);
    expect(data.store).toEqual({ file: ':memory:', schemaVersion: store.schemaVersion });
    expect(data.runs.map((r) => [r.suite?.name, r.role])).toEqual([
      ['ladder/tests', 'system under test'],
      ['ladder/kb-judge', 'judge'],
      ['sago/responses', 'system under test'],
      ['sago/manifest', 'bookkeeping'],
      ['paraphrase/items', 'system under test'],
      ['smoke.jsonl', 'system under test'],
    ]);
    const ladder = data.runs[0];
    expect(ladder).toMatchObject({
      id: 'run-ladder',
      status: 'incomplete',
      waverVersion: 'test',
      models: MODELS.map((m) => m.label),
      judge: 'replay:judge',
      seed: 7,
      repeats: 1,
      temperature: 0,
    });
    expect(data.suites.find((s) => s.name === 'ladder/tests')).toMatchObject({
      protocol: 'ladder',
      stage: 'tests',
      tests: 8,
    });
    expect(data.suites.find((s) => s.name === 'smoke.jsonl')?.protocol).toBeUndefined();
  });

  it('counts coverage per suite and model as the store does, and lists errors by kind with a message', () => {
    const cov = (suite: string, model: string) =>
      data.coverage.find((c) => c.suite.name === suite && c.model === model);
    // 2 baselines x 3 repeats + 6 perturbed tests; alpha's IQ call on seed-a failed.
    expect(cov('ladder/tests', 'replay:alpha')?.coverage).toEqual({
      total: 12,
      done: 11,
      failed: 1,
      pending: 0,
      cached: 0,
      errorsByKind: { server: 1 },
    });
    expect(cov('ladder/tests', 'replay:alpha')?.complete).toBe(true);
    // beta lost 3 of 30 paraphrase cells: exactly 90% is the threshold, still complete.
    expect(cov('paraphrase/items', 'replay:beta <b>')).toMatchObject({
      share: 0.9,
      complete: true,
      repeats: 2,
    });
    expect(cov('ladder/kb-judge', 'replay:judge')).toMatchObject({
      role: 'judge',
      coverage: { total: 4, done: 4 },
    });
    // The same numbers store.coverage.of gives.
    for (const c of data.coverage)
      expect(c.coverage).toEqual(
        store.coverage.of(c.suite.hash, [{ identity: c.identity, repeats: c.repeats }]),
      );
    expect(data.errors.map((e) => [e.suite.name, e.model, e.kind, e.status, e.count, e.example])).toEqual([
      ['ladder/tests', 'replay:alpha', 'server', 503, 1, 'upstream overloaded'],
      ['paraphrase/items', 'replay:beta <b>', 'server', 503, 3, 'connection reset'],
    ]);
  });

  it('builds one section per protocol suite from the protocol loaders, in protocol order', () => {
    expect(data.sections.map((s) => [s.protocol, s.suite.name, s.unavailable])).toEqual([
      ['ladder', 'ladder/tests', undefined],
      ['sago', 'sago/responses', undefined],
      ['paraphrase', 'paraphrase/items', undefined],
    ]);
    expect(new Set(data.sections.map((s) => s.id)).size).toBe(3);
    const ladder = data.sections[0]?.results as {
      results: { models: { label: string; metrics: { baseline: { n: number } } }[] };
    };
    expect(ladder.results.models.map((m) => [m.label, m.metrics.baseline.n])).toEqual([
      ['replay:alpha', 6],
      ['replay:beta <b>', 6],
    ]);
  });

  it('lists every cell of the protocol and plain suites for the browser (judge suites are not cells of their own)', () => {
    const count = (p: string) => data.cells.filter((c) => c.protocol === p).length;
    expect([count('ladder'), count('sago'), count('paraphrase'), count('run')]).toEqual([24, 96, 60, 2]);
    expect(data.cells).toHaveLength(182);
  });

  it('gives a ladder cell its prompt, original, perturbed text, parse, score, flip and the judge reason', () => {
    const ladder = data.cells.filter((c) => c.protocol === 'ladder');
    const flipped = ladder.filter((c) => c.flipped);
    expect(flipped.map((c) => [c.model, c.item, c.family, c.level, c.parsed, c.gold])).toEqual([
      ['replay:beta <b>', 'seed-b', 'SV', 'L1', '13', '12'],
    ]);
    const sv = flipped[0];
    expect(sv?.original).toBe(HOSTILE_QUESTION);
    expect(sv?.perturbed).toBe(HOSTILE_QUESTION.replace('sells', 'offers'));
    expect(sv?.prompt).toBe(`QUESTION: ${sv?.perturbed}`);
    expect(sv?.system).toMatch(/math problem/);
    expect(sv).toMatchObject({ score: 0, correct: false, reason: 'parsed via hashes' });
    const failed = ladder.find((c) => c.status === 'failed');
    expect(failed).toMatchObject({
      model: 'replay:alpha',
      family: 'IQ',
      error: 'server (503): upstream overloaded',
      flipped: false,
    });
    expect(failed?.response).toBeUndefined();
    const hostile = ladder.find((c) => c.response === HOSTILE_RESPONSE && c.model === 'replay:alpha');
    expect(hostile).toMatchObject({
      family: 'KB',
      level: 'L5',
      variant: 'impossible-premise',
      gold: 'unanswerable',
      score: 0,
      correct: false,
      flipped: false,
      reason: 'judge (scored): answers <b>7</b> as if the premise held',
    });
    const baseline = ladder.filter((c) => c.family === 'baseline');
    expect(baseline).toHaveLength(12);
    expect(baseline.every((c) => c.level === 'L0' && c.correct === true && c.flipped === false)).toBe(true);
  });

  it('gives paraphrase cells their phrasing, shown key, parse and the flips the metric counts', () => {
    const para = data.cells.filter((c) => c.protocol === 'paraphrase');
    expect(
      para.filter((c) => c.flipped).map((c) => [c.model, c.family, c.repeat, c.parsed ?? c.reason]),
    ).toEqual([
      ['replay:alpha', 'options-shuffled', 0, 'unparsed: letter Z is not an option'],
      ['replay:alpha', 'options-shuffled', 1, 'unparsed: letter Z is not an option'],
      ['replay:beta <b>', 'verbose', 0, 'A'],
      ['replay:beta <b>', 'verbose', 1, 'B'],
    ]);
    const canonical = para.find((c) => c.family === 'canonical');
    expect(canonical?.original).toBe(canonical?.prompt);
    const shuffled = para.find((c) => c.family === 'options-shuffled');
    expect(shuffled?.original).not.toBe(shuffled?.prompt);
    expect(para.filter((c) => c.status === 'failed')).toHaveLength(3);
  });

  it('gives sago variants their baseline prompt as original and their deltas as the reason', () => {
    const sago = data.cells.filter((c) => c.protocol === 'sago');
    const variant = sago.find((c) => c.family === 'register');
    expect(variant?.original).toBe('Why is the sky blue?');
    expect(variant?.variant).toMatch(/^politeness s=-?10 @/);
    expect(variant?.reason).toMatch(/^deltas vs the baseline response: Δ-BLEU -?\d/);
    expect(variant?.correct).toBeUndefined();
    expect(sago.filter((c) => c.family === 'baseline')).toHaveLength(6);
  });

  it('keeps only the protocols it is handed', () => {
    const only = buildReport(
      store,
      REPORTED.filter((p) => p.name === 'paraphrase'),
      { now: NOW },
    );
    expect(only.sections.map((s) => s.protocol)).toEqual(['paraphrase']);
    expect(new Set(only.cells.map((c) => c.protocol))).toEqual(new Set(['paraphrase']));
    // The counts are the store's; a role is known only from a protocol handed in (its module declares it).
    const counts = (rows: typeof data.coverage) => rows.map(({ role: _, ...row }) => row);
    expect(counts(only.coverage)).toEqual(counts(data.coverage));
    expect(only.coverage.find((c) => c.suite.name === 'paraphrase/items')?.role).toBe('system under test');
  });
});

describe('buildReport when a protocol cannot be rebuilt', () => {
  it('marks that section unavailable with the reason and still reports the rest', () => {
    const store = openStore(':memory:');
    const orphan = suiteOf('sago/responses', [
      { id: 'q::base', prompt: 'Why?', meta: { dataset: 'd', promptId: 'q', role: 'baseline' } },
    ]);
    store.suites.save(orphan);
    const notLadder = suiteOf('ladder/tests', [{ id: 't1', prompt: 'hello', meta: { family: 'nope' } }]);
    store.suites.save(notLadder);
    const data = buildReport(store, REPORTED, { now: NOW });
    expect(data.sections.map((s) => [s.protocol, s.unavailable])).toEqual([
      [
        'ladder',
        expect.stringMatching(
          /ladder results could not be rebuilt: test t1 .* is not one the protocol wrote \(meta\./,
        ),
      ],
      ['sago', expect.stringMatching(/sago results could not be rebuilt: no sago manifest/)],
    ]);
    expect(data.runs).toEqual([]);
    expect(data.cells).toEqual([]);
    store.close();
  });

  it('says a SAGO eval whose run has not written its manifest is in progress, with what is known, not an error (issue 37.8)', () => {
    const store = openStore(':memory:');
    const suite = suiteOf('sago/responses', [
      { id: 'q::base', prompt: 'Why?', meta: { dataset: 'd', promptId: 'q', role: 'baseline' } },
    ]);
    writeCells(
      store,
      suite,
      [{ label: 'replay:a', identity: 'replay:a', answer: () => true }],
      () => 'Because.',
    );
    // The run going on: its responses stored, its later steps not done.
    const running = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
    const pending = () => buildReport(store, REPORTED, { now: NOW }).sections[0]?.unavailable;
    expect(pending()).toBe(
      'in progress: 1 model has responses stored so far; the SGS scores appear here when the run has stored every response, hidden state and embedding and written its manifest, its last step',
    );
    const html = renderReport(buildReport(store, REPORTED, { now: NOW }), 'html', REPORTED);
    expect(html).toContain('in progress: 1 model has responses stored so far');
    expect(html).not.toMatch(/could not be rebuilt|no sago manifest/);
    // A run that ended before its last step: no SGS yet, and how to finish it.
    store.runs.finish(running, 'stopped');
    expect(pending()).toMatch(
      /^no SGS yet: 1 model has responses stored, but no run has reached its last step \(the manifest\); .* Run the same waver sago command again to finish it/,
    );
    store.close();
  });

  it("counts a run's repeats for tests without their own, and no cell beyond them", () => {
    const store = openStore(':memory:');
    const suite = suiteOf('plain.jsonl', [
      { id: 'a', prompt: 'A?' },
      { id: 'b', prompt: 'B?', repeats: 1 },
    ]);
    store.suites.save(suite);
    const runId = store.runs.begin({
      suiteHash: suite.hash,
      config: { models: ['replay:x'], repeats: 3 },
      waverVersion: 'test',
    });
    const request = { messages: [{ role: 'user' as const, content: 'A?' }] };
    const cell = (testId: string, repeat: number) => ({
      kind: 'done' as const,
      cell: {
        suiteHash: suite.hash,
        testId,
        model: 'replay:x',
        modelIdentity: 'x',
        repeat,
        runId,
        key: `${testId}/${repeat}`,
        request,
        result: { text: 'ok', finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } },
        attempts: [],
      },
    });
    store.cells.write([cell('a', 0), cell('a', 1), cell('a', 5), cell('b', 0), cell('b', 1)]);
    const [row] = buildReport(store, REPORTED, { now: NOW }).coverage;
    expect(row?.coverage).toEqual({ total: 4, done: 3, failed: 0, pending: 1, cached: 3, errorsByKind: {} });
    expect(row?.coverage).toEqual(store.coverage.of(suite.hash, [{ identity: 'x', repeats: 3 }]));
    expect(row?.complete).toBe(false);
    store.close();
  });

  it("takes each suite's role from the protocol that declares it, and counts an undeclared one as the systems under test's", () => {
    const roles = suiteRoles([
      { suites: { primary: 'p/answers', others: { 'p/verdicts': 'judge', 'p/log': 'bookkeeping' } } },
    ]);
    expect(['p/answers', 'p/verdicts', 'p/log', 'p/unknown', 'smoke.jsonl'].map(roles)).toEqual([
      'system under test',
      'judge',
      'bookkeeping',
      'system under test',
      'system under test',
    ]);
    // The name says nothing: a judge suite named like an answer suite is still the judge's.
    expect(suiteRoles([{ suites: { primary: 'q/judge', others: { 'q/tests': 'judge' } } }])('q/tests')).toBe(
      'judge',
    );
  });
});
