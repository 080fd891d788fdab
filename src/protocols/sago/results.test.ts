import { describe, expect, it } from 'vitest';
import type { Capabilities, GenerateResult } from '../../models/types.js';
import { cacheKey } from '../../run/cache-key.js';
import { requestFor } from '../../run/plan.js';
import { openStore, type Store } from '../../store/store.js';
import { bleuPair } from '../../text-measures/bleu.js';
import type { SagoModelRecord } from './axes.js';
import { SagoConfig } from './config.js';
import { latestManifest, type SagoManifest, saveManifest } from './manifest.js';
import { judgeTestId, loadSagoResults } from './results.js';
import { responsesSuite } from './run.js';
import { formatSagoResults } from './tables.js';
import { ruleVariations } from './variants.js';

const OPENAI: Capabilities = {
  chat: true,
  tokenLogprobs: true,
  topLogprobs: 20,
  fullDistribution: false,
  scoreContinuation: false,
  embeddings: true,
};
const ANTHROPIC: Capabilities = {
  chat: true,
  tokenLogprobs: false,
  topLogprobs: 0,
  fullDistribution: false,
  scoreContinuation: false,
  embeddings: false,
};

const models: SagoModelRecord[] = [
  {
    label: 'openai:gpt-x',
    identity: 'openai:gpt-x@http://127.0.0.1:1/v1',
    provider: 'openai',
    capabilities: OPENAI,
  },
  {
    label: 'anthropic:claude-x',
    identity: 'anthropic:claude-x@http://127.0.0.1:2',
    provider: 'anthropic',
    capabilities: ANTHROPIC,
  },
];

/** A response whose tokens carry top-2 alternatives only (what an API gives): no exact entropy. */
function apiResponse(text: string, withTokens: boolean): GenerateResult {
  const words = text.split(' ');
  return {
    text,
    ...(withTokens
      ? {
          tokens: words.map((w, i) => ({
            token: w,
            logprob: -0.1 * (i + 1),
            top: [
              { token: w, logprob: -0.1 * (i + 1) },
              { token: 'x', logprob: -2.5 },
            ],
          })),
        }
      : {}),
    finishReason: 'stop',
    usage: { inputTokens: 5, outputTokens: words.length },
  };
}

function buildStore(): { store: Store; manifest: SagoManifest; suiteHash: string } {
  const settings = SagoConfig.parse({
    families: ['noise', 'register'],
    strengths: { politeness: [-10, 10], spacing: [5], punctuation: [3], casing: [50] },
  });
  const prompts = ['Why is the sky blue?', 'What is fog?', 'How do tides form?'].map((text, i) => ({
    key: `builtin::q${i}`,
    prompt: { id: `q${i}`, dataset: 'builtin', text, source: { file: 'test' } },
  }));
  const sets = ruleVariations(prompts, settings, 0);
  const suite = responsesSuite(sets);
  const store = openStore(':memory:');
  store.suites.save(suite);
  const runId = store.runs.begin({ suiteHash: suite.hash, config: {}, waverVersion: 'test' });
  for (const m of models) {
    store.cells.write(
      suite.tests.map((t, k) => {
        const request = requestFor(t, { temperature: 0, maxTokens: 64, logprobs: false });
        // Baselines answer "the answer is blue"; variants drift by one word on every other test.
        const text = k % 2 === 0 ? 'the answer is blue' : 'the answer is grey';
        return {
          kind: 'done' as const,
          cell: {
            suiteHash: suite.hash,
            testId: t.id,
            model: m.label,
            modelIdentity: m.identity,
            repeat: 0,
            runId,
            key: cacheKey(m.identity, request, 0),
            request,
            result: apiResponse(text, m.capabilities.tokenLogprobs),
            attempts: [],
          },
        };
      }),
    );
  }
  const manifest: SagoManifest = {
    version: 1,
    responsesSuite: suite.hash,
    models,
    seed: 0,
    minCoverage: 0.9,
    settings: { ...settings, structural: 'rules' },
    datasets: [{ name: 'builtin', available: 32, n: 3 }],
    rejected: [],
  };
  saveManifest(store, manifest);
  return { store, manifest, suiteHash: suite.hash };
}

describe('loadSagoResults from a store (API models)', () => {
  it('finds the manifest, and keeps unavailable axes unavailable with their reasons', () => {
    const { store, suiteHash } = buildStore();
    expect(latestManifest(store, suiteHash)?.responsesSuite).toBe(suiteHash);
    const r = loadSagoResults(store, suiteHash);
    const [gpt, claude] = r.models;
    // openai: no hidden states, no exact entropy (top-k approximation, flagged), no embedder configured.
    expect(gpt?.axes.activation).toMatchObject({
      available: false,
      reason: expect.stringMatching(/hidden states are not exposed/),
    });
    expect(gpt?.axes.entropy).toMatchObject({ available: true, approximate: true });
    expect(gpt?.axes.entropy.method).toMatch(/top-20 alternatives \(approximation/);
    expect(gpt?.axes.bertscore).toMatchObject({
      available: false,
      reason: 'no embedder configured (--embedder)',
    });
    expect(gpt?.table.deltas.activation).toBeUndefined();
    expect(Object.keys(gpt?.scores.at(-1)?.axes ?? {}).sort()).toEqual([
      'bleu',
      'entropy',
      'logprob',
      'mirroring',
    ]);
    // anthropic: no log-probs at all.
    expect(claude?.axes.logprob).toMatchObject({ available: false, reason: 'anthropic: no token log-probs' });
    expect(claude?.axes.entropy.available).toBe(false);
    expect(Object.keys(claude?.scores.at(-1)?.axes ?? {}).sort()).toEqual(['bleu', 'mirroring']);
    store.close();
  });

  it('computes the deltas from the stored responses: BLEU, log-prob, top-k entropy', () => {
    const { store, suiteHash } = buildStore();
    const r = loadSagoResults(store, suiteHash, { ablations: false });
    const gpt = r.models[0];
    expect(r.prompts).toBe(3);
    expect(r.variations).toHaveLength(15);
    const bleu = gpt?.table.deltas.bleu as Float64Array;
    const V = r.variations.length;
    // Prompt 0's baseline is test 0 ("blue"); its variants alternate grey (odd k) and blue (even k).
    const grey = bleuPair('the answer is grey', 'the answer is blue').score - 100;
    expect([...bleu.slice(0, V)]).toEqual(
      Array.from({ length: V }, (_, j) => expect.closeTo(j % 2 === 0 ? grey : 0, 9)),
    );
    // Identical texts: no change in log-prob or entropy.
    expect(gpt?.table.deltas.logprob?.[1]).toBe(0);
    expect(gpt?.table.deltas.entropy?.[1]).toBe(0);
    // Politeness needs a judge: none configured, so those mirroring values are missing, with why.
    expect(gpt?.missing.mirroring?.['no judge for politeness']).toBeGreaterThan(0);
    store.close();
  });

  it('prints unavailable axes as — with the reason, never as 0', () => {
    const { store, suiteHash } = buildStore();
    const r = loadSagoResults(store, suiteHash);
    const md = formatSagoResults(r, 'md');
    const claudeTable = md.slice(md.indexOf('## anthropic:claude-x'));
    const totalRow = claudeTable.split('\n').find((l) => l.startsWith('| **Total SGS**')) as string;
    // Columns: dataset, prompts, Δ-Cos, Δ-BLEU, Δ-BERT, Δ-Prob, Δ-Ent, Δ-MR (no Δ-EmbCos: no model has it).
    const cells = totalRow.split('|').map((c) => c.trim());
    expect(cells[3]).toBe('—');
    expect(cells[6]).toBe('—');
    expect(cells[7]).toBe('—');
    expect(claudeTable).toMatch(/- Δ-Prob: unavailable — anthropic: no token log-probs/);
    expect(md).toMatch(/Δ-Ent \(approx\.\)/);
    const json = JSON.parse(formatSagoResults(r, 'json'));
    // By label (docs/report.md#model-order): anthropic's before openai's.
    expect(json.models.map((m: { label: string }) => m.label)).toEqual([
      'anthropic:claude-x',
      'openai:gpt-x',
    ]);
    expect(json.models[0].axes.logprob).toMatchObject({ available: false, computed: false });
    expect(json.models[0].scores[0].axes.logprob).toBeUndefined();
    store.close();
  });

  it('judge verdicts from the store turn into politeness mirroring', () => {
    const { store, suiteHash, manifest } = buildStore();
    const judgeSuite = {
      name: 'sago/politeness-judge',
      hash: 'j'.repeat(64),
      tests: [] as { id: string; prompt: string }[],
    };
    const texts = ['the answer is blue', 'the answer is grey'];
    judgeSuite.tests = texts.map((t) => ({ id: judgeTestId(t), prompt: t }));
    store.suites.save(judgeSuite);
    const runId = store.runs.begin({ suiteHash: judgeSuite.hash, config: {}, waverVersion: 'test' });
    const judge = { label: 'replay:j.jsonl', identity: 'replay:abc' };
    store.cells.write(
      texts.map((t, i) => {
        const request = { messages: [{ role: 'user' as const, content: t }] };
        return {
          kind: 'done' as const,
          cell: {
            suiteHash: judgeSuite.hash,
            testId: judgeTestId(t),
            model: judge.label,
            modelIdentity: judge.identity,
            repeat: 0,
            runId,
            key: `k${i}`,
            request,
            // "grey" replies are judged rude, "blue" ones neutral.
            result: {
              text: `{"register": "${i === 1 ? 'rude' : 'neutral'}"}`,
              finishReason: 'stop' as const,
              usage: { inputTokens: 1, outputTokens: 1 },
            },
            attempts: [],
          },
        };
      }),
    );
    saveManifest(store, { ...manifest, judgeSuite: judgeSuite.hash, judge });
    const r = loadSagoResults(store, suiteHash, { ablations: false });
    expect(r.manifest.judge).toEqual(judge);
    const gpt = r.models[0];
    expect(gpt?.missing.mirroring?.['no judge for politeness']).toBeUndefined();
    const mr = gpt?.table.deltas.mirroring as Float64Array;
    const cols = r.variations.map((v, i) => ({ v, i })).filter(({ v }) => v.subtype === 'politeness');
    expect(cols.length).toBeGreaterThan(0);
    for (let p = 0; p < r.prompts; p++)
      for (const { v, i } of cols) {
        const value = mr[p * r.variations.length + i];
        // Only "rude" verdicts exist, so only rude variants (s < 0) can differ: +1 when the variant's
        // reply is judged rude and the baseline's is not, -1 the other way round.
        expect([-1, 0, 1]).toContain(value);
        if (value !== 0) expect(v.strength as number).toBeLessThan(0);
      }
    store.close();
  });
});
