import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../config/load.js';
import { InputError } from '../../errors.js';
import { registerProvider } from '../../models/registry.js';
import { recordingLine } from '../../models/replay.js';
import { planCells, plannedModels, requestFor } from '../../run/plan.js';
import { openStore } from '../../store/store.js';
import { scratchDir, testConfig } from '../../test-support/protocols/ladder/fakes.js';
import { CHAT_ONLY_CAPABILITIES } from '../../test-support/scripted-provider.js';
import { withPool } from '../define.js';
import { LadderConfigSchema, ladderSettings } from './config.js';
import { GRADE_SCHOOL_SEEDS } from './data/grade-school.js';
import { ladderProtocol } from './index.js';
import { HASHES_ANSWER_PROMPT, JSON_ANSWER_PROMPT, KB_PROMPT } from './prompts.js';
import { loadLadderResults } from './results.js';
import { ladderAsks, ladderRunConfig, ladderSuite, ladderSuiteTest, runLadder } from './run.js';
import { ladderTestId } from './suite-file.js';
import { formatLadderReport } from './tables.js';
import type { Family, LadderTest, Seed } from './types.js';

const [A] = GRADE_SCHOOL_SEEDS as [Seed];

function test(family: Family | 'baseline', text: string): LadderTest {
  const base = { seedId: A.id, family, requestedLevel: family === 'baseline' ? 0 : 1, text } as const;
  return {
    id: ladderTestId(base),
    ...base,
    ...(family === 'KB' && { subtype: 'missing-information' }),
    measuredLevel: family === 'baseline' ? 0 : 1,
    ...(family !== 'baseline' && {
      severity: { sim: 0.9, magnitude: 0.1, score: 0.1, level: 1, via: 'band' as const },
    }),
    original: A.question,
    gold: family === 'KB' ? 'unanswerable' : A.gold,
    gates: [],
  };
}

const BASELINE = test('baseline', A.question);
const SV = test('SV', A.question.replace('bakes', 'makes'));
const KB = test('KB', A.question.replace(/ 5 trays/, ' some trays'));
const settings = (input: object = {}) => LadderConfigSchema.parse(input);

describe('how the ladder asks each model (output cap, answer format)', () => {
  it("caps SUT calls at the reference runners' 768 tokens (900 in the hashes format)", () => {
    expect(ladderAsks(settings()).default).toEqual({ answerFormat: 'json', maxTokens: 768 });
    expect(ladderAsks(settings({ answerFormat: 'hashes' })).default).toEqual({
      answerFormat: 'hashes',
      maxTokens: 900,
    });
    // The run-wide default cap (256, unset in the config) does not lower it.
    const config = validateConfig({});
    expect(ladderAsks(ladderSettings(config), [], config.params).default.maxTokens).toBe(768);
    const suite = ladderSuite([BASELINE, SV, KB], config);
    expect(suite.tests.map((t) => requestFor(t, config.params).maxTokens)).toEqual([768, 768, 768]);
    // The run is recorded with the cap its cells are sent.
    expect(ladderRunConfig(config).params.maxTokens).toBe(768);
  });

  it('lets an explicit cap win (docs/protocols.md#request): ladder.maxTokens (--max-tokens), then params.maxTokens', () => {
    expect(ladderAsks(settings({ answerFormat: 'hashes', maxTokens: 512 })).default.maxTokens).toBe(512);
    const params = validateConfig({ params: { maxTokens: 64 } });
    const suite = ladderSuite([BASELINE, SV, KB], params);
    expect(suite.tests.map((t) => requestFor(t, params.params).maxTokens)).toEqual([64, 64, 64]);
    const both = validateConfig({
      params: { maxTokens: 64 },
      ladder: { maxTokens: 128, answerFormat: 'hashes' },
    });
    expect(ladderSuite([SV], both).tests[0]?.maxTokens).toBe(128);
    expect(ladderRunConfig(both).params.maxTokens).toBe(128);
  });

  it('asks each model in its own answer format: its own prompt and cap, in the request and so the cache key', () => {
    const config = validateConfig({
      models: ['openai:gpt-4o-mini', { provider: 'openai', model: 'phi4-mini', label: 'phi' }],
      ladder: { answerFormat: { models: { phi: 'hashes' } } },
    });
    const suite = ladderSuite([SV, KB], config);
    const [sv, kb] = suite.tests;
    expect(sv).toMatchObject({
      system: JSON_ANSWER_PROMPT,
      maxTokens: 768,
      byModel: { phi: { system: HASHES_ANSWER_PROMPT, maxTokens: 900 } },
    });
    // KB has one prompt for every format: only the cap differs.
    expect(kb).toMatchObject({ system: KB_PROMPT, maxTokens: 768, byModel: { phi: { maxTokens: 900 } } });
    const cells = [...planCells(suite, plannedModels(config), config)];
    const of = (model: string, t = sv) => cells.find((c) => c.model === model && c.testId === t?.id)?.request;
    expect(of('openai:gpt-4o-mini')?.messages[0]?.content).toBe(JSON_ANSWER_PROMPT);
    expect(of('phi')?.messages[0]?.content).toBe(HASHES_ANSWER_PROMPT);
    expect(of('phi')?.maxTokens).toBe(900);
    expect(of('phi', kb)?.messages[0]?.content).toBe(KB_PROMPT);
    // A suite where every model has the default format carries no per-model entries.
    expect(ladderSuite([SV], validateConfig({ models: ['openai:x'] })).tests[0]?.byModel).toBeUndefined();
  });

  it('refuses a per-model format for a model the run does not have, naming the key', () => {
    const config = validateConfig({
      models: ['openai:gpt-4o-mini'],
      ladder: { answerFormat: { models: { phy: 'hashes' } } },
    });
    expect(() => ladderSuite([SV], config)).toThrow(InputError);
    expect(() => ladderSuite([SV], config)).toThrow(
      /'phy' is not a model of this run \(openai:gpt-4o-mini\)/,
    );
  });
});

describe('runLadder with two answer formats and a reply cut at the cap', () => {
  it('stores what each model was asked, counts the truncated replies per model and shows them', async () => {
    const dir = scratchDir('waver-ladder-asks-');
    const models = [
      { provider: 'replay' as const, model: `${dir}/json.jsonl`, label: 'api' },
      { provider: 'replay' as const, model: `${dir}/hashes.jsonl`, label: 'phi' },
    ];
    const config = testConfig(dir, { models, ladder: { answerFormat: { models: { phi: 'hashes' } } } });
    const asks = ladderAsks(ladderSettings(config), ['api', 'phi']);
    const record = (label: string, t: LadderTest, text: string, finishReason: 'stop' | 'length') => {
      const request = requestFor(ladderSuiteTest(t, ladderSettings(config), 1, asks), config.params, label);
      const response = { text, finishReason, usage: { inputTokens: 9, outputTokens: 9 } };
      appendFileSync(
        `${dir}/${label === 'api' ? 'json' : 'hashes'}.jsonl`,
        `${recordingLine(request, response)}\n`,
      );
    };
    record('api', BASELINE, `{"ground_truth": ${A.gold}}`, 'stop');
    record('api', SV, `{"ground_truth": ${A.gold}}`, 'stop');
    record('phi', BASELINE, `Step 1 ...\n#### ${A.gold}`, 'stop');
    // Cut before its #### line: the last number of the cut text is not the answer.
    record('phi', SV, 'Step 1: 5 trays of 12 is 60. Step 2: she sells 2', 'length');

    const run = await withPool(config, {}, (o) => runLadder(config, [BASELINE, SV], o));
    const store = openStore(config.store);
    const results = loadLadderResults(store, run.suite.hash, {
      settings: { ...ladderSettings(config), resamples: 50 },
      models: run.sut.models.map((m) => ({ label: m.label, identity: m.identity })),
    });
    store.close();
    const [api, phi] = results.models;
    expect(api).toMatchObject({
      label: 'api',
      asked: { answerFormats: ['json'], maxTokens: [768] },
      truncated: { n: 0, wrong: 0 },
    });
    expect(phi).toMatchObject({
      label: 'phi',
      asked: { answerFormats: ['hashes'], maxTokens: [900] },
      truncated: { n: 1, wrong: 1 },
    });
    expect(phi?.cells.find((c) => c.testId === SV.id)).toMatchObject({ truncated: true, score: 0 });

    const md = formatLadderReport({ results }, 'md');
    expect(md).toContain('Asked in the json answer format, output cap 768 tokens; no reply cut at the cap.');
    expect(md).toContain(
      'Asked in the hashes answer format, output cap 900 tokens; **1 response cut at the cap** (finish_reason length), 1 of them scored wrong.',
    );
    expect(md).toContain('Answer format: json (phi hashes)');
    const json = JSON.parse(formatLadderReport({ results }, 'json')) as {
      models: { label: string; truncated: { n: number }; asked: { maxTokens: number[] } }[];
    };
    expect(json.models.map((m) => [m.label, m.truncated.n, m.asked.maxTokens])).toEqual([
      ['api', 0, [768]],
      ['phi', 1, [900]],
    ]);
  });
});

describe('the models of a ladder run', () => {
  it('one model as system under test and KB judge is one instance: created once, closed once, one identity', async () => {
    const dir = scratchDir('waver-ladder-pool-');
    let created = 0;
    let closed = 0;
    const calls: string[] = [];
    // A registered provider, so the protocol runner's own pool is the one counted.
    const unregister = registerProvider('counted', async (spec) => {
      created++;
      return {
        provider: spec.provider,
        modelId: spec.model,
        identity: `counted:${spec.model}`,
        capabilities: CHAT_ONLY_CAPABILITIES,
        async generate(request) {
          calls.push(request.messages.at(-1)?.content ?? '');
          // One reply both readers take: the SUT's JSON answer and the judge's score.
          return {
            text: `{"ground_truth": ${A.gold}, "score": 1.0, "reason": "asks"}`,
            finishReason: 'stop',
            usage: { inputTokens: 3, outputTokens: 3 },
          };
        },
        async close() {
          closed++;
        },
      };
    });
    try {
      const config = testConfig(dir, { models: ['counted:m'], judge: 'counted:m' });
      const outcome = await ladderProtocol.run(config, { tests: [BASELINE, KB] });
      expect(outcome).toMatchObject({ aborted: false, complete: true });
      // The baseline 3 times, the KB test once, then the judge on the KB answer: all on the one instance.
      expect(calls).toHaveLength(5);
      expect(created).toBe(1);
      expect(closed).toBe(1);
      const results = outcome.results;
      expect(results?.models.map((m) => m.identity)).toEqual(['counted:m']);
      // The judge's cell is stored under the same model identity as the SUT's: one model, one cache.
      const store = openStore(config.store);
      try {
        const cells = [...store.cells.all({ modelIdentity: 'counted:m', status: 'done' })];
        expect(cells).toHaveLength(5);
      } finally {
        store.close();
      }
    } finally {
      unregister();
    }
  });
});
