import { CONFIG } from '../../protocols/index.js';
import { nliTest } from '../../protocols/ladder/gates/model-gates.js';
import { kbJudgeTest } from '../../protocols/ladder/kb-judge.js';
import { ladderSuite } from '../../protocols/ladder/run.js';
import { GATE_SUITES, KB_JUDGE_SUITE } from '../../protocols/ladder/suite-names.js';
import { KB_TYPES, type KbType, type Seed } from '../../protocols/ladder/types.js';
import { politenessJudgePrompt } from '../../protocols/sago/mirroring.js';
import { JUDGE_SUITE, judgeTestId } from '../../protocols/sago/results.js';
import { cacheKey } from '../../run/cache-key.js';
import { requestFor } from '../../run/plan.js';
import { suiteOf } from '../../run/suite.js';
import type { Suite } from '../../run/types.js';
import { type CellWrite, openStore, type Store } from '../../store/store.js';
import { ladderTest } from '../protocols/ladder/ladder-test.js';

/**
 * A store whose judges judged enough to sample from, written through the Store API with the
 * ladder's own suite builders: 24 Knowledge Boundary responses of two models (12 seeds), scored by
 * two KB judges on the four-point rubric, and 10 candidates through the NLI gate (and, with
 * `politeness`, four responses whose register SAGO's judge classified). The verdicts are
 * fixed by the item's number, so every test sees the same ones.
 */

export const SUT = [
  { label: 'replay:alpha', identity: 'replay:alpha@sha256:aaaa' },
  { label: 'replay:beta', identity: 'replay:beta@sha256:bbbb' },
] as const;
export const JUDGES = [
  { label: 'replay:judge-a', identity: 'replay:judge-a@sha256:cccc' },
  { label: 'replay:judge-b', identity: 'replay:judge-b@sha256:dddd' },
] as const;

const SCORES = [1, 0.75, 0.25, 0] as const;
const AT = '2025-01-01T00:00:00.000Z';

function write(
  store: Store,
  suite: Suite,
  runId: string,
  model: { label: string; identity: string },
  text: (testId: string, i: number) => string | undefined,
  params = { temperature: 0, maxTokens: 256, logprobs: false },
): void {
  const writes: CellWrite[] = [];
  suite.tests.forEach((t, i) => {
    const answer = text(t.id, i);
    if (answer === undefined) return;
    const request = requestFor(t, params);
    writes.push({
      kind: 'done',
      cell: {
        suiteHash: suite.hash,
        testId: t.id,
        model: model.label,
        modelIdentity: model.identity,
        repeat: 0,
        runId,
        key: cacheKey(model.identity, request, 0),
        request,
        result: { text: answer, finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 } },
        attempts: [{ attempt: 1, startedAt: AT, latencyMs: 5, outcome: 'ok' }],
      },
    });
  });
  store.cells.write(writes);
}

export function buildJudgedStore(path: string, opts: { politeness?: boolean } = {}): Store {
  const store = openStore(path);
  const config = CONFIG.schema.parse({
    store: path,
    models: SUT.map((m) => m.label),
    judge: JUDGES[0].label,
  });
  const seeds: Seed[] = Array.from({ length: 12 }, (_, i) => ({
    id: `seed-${i}`,
    question: `Ann has ${i + 3} apples and buys ${i + 2} more. How many apples does she have?`,
    gold: 2 * i + 5,
    source: 'test',
  }));
  const tests = seeds.map((s, i) => {
    const kbType = KB_TYPES[i % KB_TYPES.length] as KbType;
    return ladderTest(s, 'KB', 1, s.question.replace(`buys ${i + 2}`, 'buys some'), { kbType });
  });
  const suite = ladderSuite(tests, config);
  store.suites.save(suite);
  const run = store.runs.begin({ id: 'run-sut', suiteHash: suite.hash, config, waverVersion: 'test' });
  SUT.forEach((m, k) => {
    write(
      store,
      suite,
      run,
      m,
      (_, i) => `Response ${i} of ${m.label}: ${(i + k) % 3 === 0 ? 'I cannot tell how many.' : `${i + 7}`}`,
    );
  });
  store.runs.finish(run, 'complete');

  const jobs = SUT.flatMap((m) =>
    [...store.cells.all({ suiteHash: suite.hash, modelIdentity: m.identity })].map((cell) => {
      const t = tests.find((x) => x.id === cell.testId);
      return {
        key: `${m.identity.slice(-4)}/${cell.testId}/0`,
        question: t?.text ?? '',
        response: cell.response?.text ?? '',
        kbType: t?.subtype as KbType,
        meta: {
          sutSuite: suite.hash,
          modelIdentity: m.identity,
          testId: cell.testId,
          repeat: 0,
          responseKey: cell.responseKey,
        },
      };
    }),
  );
  const judgeSuite = suiteOf(
    KB_JUDGE_SUITE,
    jobs.map((j) => kbJudgeTest(j)),
  );
  store.suites.save(judgeSuite);
  JUDGES.forEach((judge, k) => {
    const r = store.runs.begin({
      id: `run-kb-${k}`,
      suiteHash: judgeSuite.hash,
      config,
      waverVersion: 'test',
    });
    // Judge b agrees with judge a but on every fifth item, where it scores one point lower.
    write(store, judgeSuite, r, judge, (_, i) => {
      if (k === 0 && i === 5) return 'no verdict here';
      const s = SCORES[(i * 7) % 4] as number;
      const score = k === 1 && i % 5 === 0 ? (SCORES[Math.min(3, SCORES.indexOf(s as 1) + 1)] as number) : s;
      return `{"score": ${score}, "reason": "item ${i}"}`;
    });
    store.runs.finish(r, 'complete');
  });

  const gateSuite = suiteOf(
    GATE_SUITES.nli,
    seeds.slice(0, 10).map((s, i) =>
      nliTest({
        key: `gen-${i}`,
        family: 'SV',
        original: s.question,
        candidate: s.question.replace('Ann', 'Anna'),
      }),
    ),
  );
  store.suites.save(gateSuite);
  const g = store.runs.begin({ id: 'run-nli', suiteHash: gateSuite.hash, config, waverVersion: 'test' });
  write(store, gateSuite, g, JUDGES[0], (_, i) => (i % 3 === 0 ? 'neutral' : 'entailment'), {
    temperature: 0,
    maxTokens: 16,
    logprobs: false,
  });
  store.runs.finish(g, 'complete');
  if (opts.politeness) addPolitenessJudge(store);
  return store;
}

function addPolitenessJudge(store: Store): void {
  const texts = [
    'Thank you so much for asking! Fog is a cloud at ground level.',
    'Fog is a cloud at ground level.',
    'Obviously, fog. Look it up.',
    '<b>Fog</b>',
  ];
  const suite = suiteOf(
    JUDGE_SUITE,
    texts.map((t) => ({ id: judgeTestId(t), prompt: politenessJudgePrompt(t) })),
  );
  store.suites.save(suite);
  const r = store.runs.begin({
    id: 'run-politeness',
    suiteHash: suite.hash,
    config: {},
    waverVersion: 'test',
  });
  const replies = [
    '{"register": "polite", "reason": "thanks"}',
    'neutral',
    '{"register": "rude"}',
    'no idea',
  ];
  write(store, suite, r, JUDGES[0], (_, i) => replies[i]);
  store.runs.finish(r, 'complete');
}
