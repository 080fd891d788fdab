import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { scratchDir } from '../../test-support/scratch.js';
import {
  completion,
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../test-support/scripted-chat-server.js';
import { sharedDataEnv, tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';

beforeAll(assertBuilt);

interface ModelJson {
  label: string;
  method: string;
  calls: number;
  done: number;
  scoredBy: { loglik: number; reply: number };
  scoreCalls: number;
  quantiles: { q: number; value: number; lo: number; hi: number }[];
  best: { id: string; text: string; value: number; lo: number; hi: number };
  worst: { id: string; text: string; value: number; lo: number; hi: number };
  spread: { value: number; lo: number; hi: number };
  unavailable?: string;
}
interface Json {
  suite: { templates: number; items: number; planned: number; search?: string };
  models: ModelJson[];
  comparisons: { base: string; other: string; templates: number; spreadDifference: { value: number } }[];
  runs: { calls: number; cells: number }[];
  scoringNotes: { model: string; reason: string }[];
}

/**
 * Six items whose right option reads RIGHT. Model `steady` answers it in every format; model
 * `fussy` only in formats whose fields are not split by a newline, so its per-template accuracy is
 * 1 or 0 by the format alone, and its spread is known to be 1.
 */
function items(dir: string): string {
  const lines = Array.from({ length: 6 }, (_, i) => {
    const choices = ['WRONG0', 'WRONG1', 'WRONG2', 'WRONG3'];
    choices[i % 4] = 'RIGHT';
    return JSON.stringify({
      id: `q${i}`,
      question: `Which word is the right one? (${i})`,
      choices,
      answer: 'ABCD'[i % 4],
    });
  });
  const file = join(dir, 'items.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('waver spread against a loopback chat API (choices read from replies)', () => {
  let server: ScriptedChatServer;
  let dir: string;
  let models: string;
  beforeAll(async () => {
    server = await startScriptedChatServer((prompt, model) => {
      const fields = prompt.split(/Options|OPTIONS|options/)[0] ?? '';
      const right = model === 'steady' || !fields.includes('\n');
      return completion({ content: right ? 'RIGHT' : 'WRONG0' }, 'stop');
    });
    dir = scratchDir('spread-e2e');
    items(dir);
    models = `openai:steady@${server.url},openai:fussy@${server.url}`;
  });
  afterAll(() => server.close());
  const waver = (args: string[]) => runCli(args, { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: 'sk-test' }) });

  it('estimates each model over the budgeted cells, the same cells for both, and pairs them by template', async () => {
    const r = await waver([
      'spread',
      '--models',
      models,
      '--dataset',
      'items.jsonl',
      '--templates',
      '10',
      '--budget',
      '0.5',
      '--format',
      'json',
    ]);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Json;
    expect(out.suite).toMatchObject({ templates: 10, items: 6, planned: 30 });
    expect(server.calls()).toBe(60);
    const [steady, fussy] = out.models as [ModelJson, ModelJson];
    expect([steady.label, fussy.label]).toEqual([
      expect.stringMatching(/steady/),
      expect.stringMatching(/fussy/),
    ]);
    expect(steady.scoredBy).toEqual({ loglik: 0, reply: 30 });
    expect(steady.quantiles.map((q) => q.value)).toEqual([1, 1, 1, 1, 1]);
    expect(steady.spread.value).toBe(0);
    // The default estimator, the mixed model: templates always or never right are separated.
    expect(fussy.method).toBe('deconvolved');
    expect(fussy.best.value).toBeCloseTo(1, 6);
    expect(fussy.worst.value).toBeCloseTo(0, 6);
    expect(fussy.spread.value).toBeCloseTo(1, 6);
    // The worst template is quoted: its fields are split by a newline.
    expect(fussy.worst.text.split(/Options|OPTIONS|options/)[0]).toContain('\n');
    expect(out.scoringNotes.map((n) => n.reason)).toEqual([
      expect.stringMatching(/cannot score text \(a chat-only API\)/),
      expect.stringMatching(/cannot score text/),
    ]);
    expect(out.comparisons[0]).toMatchObject({ templates: 10, spreadDifference: { value: 1 } });

    // The same command again: every cell from the store, no call.
    const again = await waver([
      'spread',
      '--models',
      models,
      '--dataset',
      'items.jsonl',
      '--templates',
      '10',
      '--budget',
      '0.5',
      '--format',
      'json',
    ]);
    expect(again.code).toBe(0);
    expect(server.calls()).toBe(60);
    expect((JSON.parse(again.stdout) as Json).models[1]?.spread).toEqual(fussy.spread);

    // PromptEval's estimator, the reference mode, over the same cells: no call, its method named.
    const reference = await waver([
      'spread',
      '--models',
      models,
      '--dataset',
      'items.jsonl',
      '--templates',
      '10',
      '--budget',
      '0.5',
      '--estimator',
      'prompteval',
      '--format',
      'json',
    ]);
    expect(reference.code).toBe(0);
    expect(server.calls()).toBe(60);
    expect((JSON.parse(reference.stdout) as Json).models.map((m) => m.method)).toEqual([
      'prompteval-irt',
      'prompteval-irt',
    ]);
  });

  it('gates on --max-spread and --min-p5 with waver check, and reports the section', async () => {
    const fail = await waver(['check', '--max-spread', '0.5', '--min-p5', '0.5']);
    expect(fail.code).toBe(4);
    expect(fail.stdout).toMatch(/fussy/);
    const pass = await waver(['check', '--max-spread', '1', '--min-p5', '0']);
    expect(pass.code).toBe(0);
    // The two models' cells paired (template x item), clustered by item: fussy is wrong where steady is right.
    const compare = await waver([
      'check',
      '--compare',
      `openai:steady@${server.url},openai:fussy@${server.url}`,
      '--protocol',
      'spread',
      '--format',
      'json',
    ]);
    expect(compare.stderr).not.toMatch(/Error/);
    expect(compare.stdout).toMatch(/template x item/);
    const report = await waver(['report', '--out', 'report.md']);
    expect(report.code).toBe(0);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toMatch(/Spread over prompt templates/);
    expect(md).toMatch(/Worst template/);
    expect((await waver(['report', '--out', 'report.html'])).code).toBe(0);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/Accuracy over templates/);
  });

  it('says what a budget would spend with --dry-run, calling nothing', async () => {
    const before = server.calls();
    const r = await waver([
      'spread',
      '--models',
      `openai:steady@${server.url}`,
      '--dataset',
      'items.jsonl',
      '--templates',
      '10',
      '--budget',
      '0.25',
      '--dry-run',
      '--store',
      'dry.db',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\| openai:steady@\S+ \| model \| 15 \|/);
    expect(server.calls()).toBe(before);
  });

  it('spends a budget given as calls, and searches for the worst format with Thompson sampling', async () => {
    const calls = await waver([
      'spread',
      '--models',
      `openai:fussy@${server.url}`,
      '--dataset',
      'items.jsonl',
      '--templates',
      '10',
      '--budget',
      '7',
      '--format',
      'json',
      '--store',
      'calls.db',
    ]);
    expect((JSON.parse(calls.stdout) as Json).suite.planned).toBe(7);
    const search = await waver([
      'spread',
      '--models',
      `openai:fussy@${server.url}`,
      '--dataset',
      'items.jsonl',
      '--templates',
      '10',
      '--budget',
      '24',
      '--search',
      'worst',
      '--format',
      'json',
      '--store',
      'search.db',
    ]);
    expect(search.code).toBe(0);
    const out = JSON.parse(search.stdout) as Json;
    expect(out.suite).toMatchObject({ planned: 24, search: 'worst' });
    expect(out.models[0]?.worst.value).toBeCloseTo(0, 9);
  });

  it('refuses a bad templates file before any call, naming the file and line (exit 2)', async () => {
    writeFileSync(
      join(dir, 'bad.jsonl'),
      '{"id":"a","template":"{question} {choices}"}\n{"id":"b","template":"{question} only"}\n',
    );
    const before = server.calls();
    const r = await waver([
      'spread',
      '--models',
      `openai:steady@${server.url}`,
      '--dataset',
      'items.jsonl',
      '--templates-file',
      'bad.jsonl',
      '--store',
      'bad.db',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl.*2.*no \{choices\}/s);
    expect(server.calls()).toBe(before);
    expect(existsSync(join(dir, 'bad.db'))).toBe(false);
  });
});

describe.skipIf(tinyModelMissing)('waver spread with the tiny gguf model, offline (the Must-show)', () => {
  it('gives per model quantiles, best, worst and spread with intervals and the calls spent, choices by log-likelihood', async () => {
    const dir = scratchDir('spread-tiny');
    const args = [
      'spread',
      '--models',
      `gguf:${tinyModelPath}`,
      '--dataset',
      'arc-challenge',
      '--templates',
      '40',
      '--budget',
      '0.25',
      '--limit',
      '8',
      '--max-tokens',
      '2',
      '--format',
      'json',
    ];
    const r = await runCli(args, { cwd: dir, env: cleanEnv(sharedDataEnv) });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Json;
    const m = out.models[0] as ModelJson;
    expect(out.suite).toMatchObject({ templates: 40, items: 8, planned: 80 });
    expect(m.calls).toBe(80);
    expect(m.scoredBy.loglik).toBe(80);
    expect(m.scoreCalls).toBeGreaterThanOrEqual(80 * 3);
    expect(m.quantiles.map((q) => q.q)).toEqual([0.05, 0.25, 0.5, 0.75, 0.95]);
    for (const x of [...m.quantiles, m.best, m.worst, m.spread]) expect(x.lo).toBeLessThanOrEqual(x.hi);
    expect(m.best.value).toBeGreaterThanOrEqual(m.worst.value);
    expect(m.best.text).toMatch(/\{question\}/);
    expect(out.runs[0]?.calls).toBe(80);
    const again = await runCli(args, { cwd: dir, env: cleanEnv(sharedDataEnv) });
    expect((JSON.parse(again.stdout) as Json).runs[0]?.calls).toBe(0);
    expect((JSON.parse(again.stdout) as Json).models[0]?.quantiles).toEqual(m.quantiles);
  }, 300_000);
});
