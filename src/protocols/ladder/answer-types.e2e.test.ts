import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { type Loopback, sendJson, startLoopback } from '../../test-support/models/loopback.js';
import { sharedDir, sharedFile, tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { pyStrip } from '../../text-measures/python.js';
import { readLadderSuite } from './suite-file.js';
import type { LadderTest } from './types.js';

/**
 * `waver ladder` on multiple-choice (arc-challenge) and short-answer (triviaqa) seeds, offline,
 * through the built CLI: with the tiny local model (end to end, Tables 3-5 printed), and with a
 * loopback OpenAI-compatible endpoint that answers every question correctly and flags every
 * Knowledge Boundary question, judged by the same endpoint: Accuracy 1.0 on every
 * meaning-preserving family, and every KB response scored 1.
 */

beforeAll(assertBuilt);

const dataDir = join(sharedDir, 'data');
const DATASETS = [
  { name: 'arc-challenge', file: 'arc-challenge/arc_challenge.jsonl' },
  { name: 'triviaqa', file: 'triviaqa/triviaqa_sm_sub.jsonl' },
] as const;
const missing = DATASETS.filter((d) => !sharedFile(`data/${d.file}`)).map((d) => d.file);
const dataMissing = missing.length > 0 ? `(skipped: ../shared/data/${missing.join(', ')} not there)` : '';
const SEEDS = 3;

function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waver-ladder-types-'));
  writeFileSync(join(dir, 'waver.yaml'), `ladder:\n  seeds: ${SEEDS}\n  resamples: 200\n`);
  return dir;
}

function cli(args: string[], cwd: string): Promise<CliResult> {
  return runCli(args, { cwd, env: cleanEnv({ WAVER_DATA_DIR: dataDir, OPENAI_API_KEY: 'sk-loopback' }) });
}

const REFUSAL = 'This cannot be answered as asked: it rests on information that is missing or made up.';

/**
 * The endpoint: the system under test answers each test's gold (looked up by the question it is
 * sent) and refuses every KB question; as the judge it passes every gate and scores a refusal 1.
 */
function answering(tests: () => Map<string, LadderTest>) {
  return async (
    _req: unknown,
    res: Parameters<Parameters<typeof startLoopback>[0]>[1],
    seen: { method: string; url: string; body: string },
  ) => {
    if (seen.method === 'GET')
      return sendJson(res, 200, { object: 'list', data: [{ id: 'sut', object: 'model' }] });
    const body = JSON.parse(seen.body) as { model: string; messages: { role: string; content: string }[] };
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = body.messages.findLast((m) => m.role === 'user')?.content ?? '';
    let content: string;
    if (body.model === 'judge') {
      if (system.startsWith('You decide textual entailment')) content = 'entailment';
      else if (system.startsWith('You check questions written to be unanswerable'))
        content = '{"unanswerable": true, "coherent": true, "reason": "scripted"}';
      else if (system.startsWith('You grade how an AI model answered'))
        content = user.includes(REFUSAL)
          ? '{"score": 1.0, "reason": "flags it"}'
          : '{"score": 0, "reason": "answers"}';
      else if (system.startsWith('You grade whether a response to a short-answer'))
        content =
          '{"correct": false, "reason": "the scripted SUT answers exactly; nothing should reach here"}';
      else content = '{"pass": true, "reason": "scripted"}';
    } else {
      const test = tests().get(user);
      content =
        test === undefined
          ? '{"answer": "no such question in the suite"}'
          : test.family === 'KB'
            ? REFUSAL
            : JSON.stringify({ answer: String(test.gold) });
    }
    sendJson(res, 200, {
      id: 'chatcmpl-loopback',
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  };
}

interface ReportJson {
  suite: { seeds: number; answerTypes: string[] };
  models: {
    complete: boolean;
    kbJudge: { needed: number; scored: number };
    answerJudge: { needed: number };
    baseline: { accuracy: { value: number | null } };
    families: {
      family: string;
      overall: { n: number; scored: number; accuracy: { value: number | null } };
    }[];
    kbByType: { n: number; accuracy: { value: number | null }; recognise?: { value: number | null } }[];
  }[];
}

describe.skipIf(dataMissing !== '')(`waver ladder on choice and text seeds ${dataMissing}`, () => {
  let server: Loopback;
  let byQuestion = new Map<string, LadderTest>();
  beforeAll(async () => {
    server = await startLoopback(answering(() => byQuestion));
  });
  afterAll(() => server.close());

  for (const { name } of DATASETS)
    it(`${name}: an endpoint that answers correctly scores 1.0 on every family the rules write, and SV, CI, CL and KB are unavailable`, async () => {
      const dir = workdir();
      // The rules suite is deterministic: the one `waver ladder` builds is this one, so the
      // endpoint can look each question's gold up.
      const built = await cli(
        ['suite', 'build', '--protocol', 'ladder', '--dataset', name, '--out', 'suite.jsonl'],
        dir,
      );
      expect(built.code, built.stderr).toBe(0);
      const tests = readLadderSuite(join(dir, 'suite.jsonl'));
      byQuestion = new Map(tests.map((t) => [`QUESTION: ${pyStrip(t.text)}`, t]));
      expect(new Set(tests.map((t) => t.answerType))).toEqual(
        new Set([name === 'triviaqa' ? 'text' : 'choice']),
      );

      const url = `${server.origin}/v1`;
      const r = await cli(
        [
          'ladder',
          '--dataset',
          name,
          '--models',
          `openai:sut@${url}`,
          '--judge',
          `openai:judge@${url}`,
          '--format',
          'json',
          '--out',
          'report.json',
        ],
        dir,
      );
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ReportJson;
      expect(report.suite.seeds).toBe(SEEDS);
      expect(report.suite.answerTypes).toEqual([name === 'triviaqa' ? 'text' : 'choice']);
      const [m] = report.models;
      expect(m?.complete).toBe(true);
      expect(m?.baseline.accuracy.value).toBe(1);
      const preserving = m?.families.filter((f) => f.family !== 'KB' && f.overall.n > 0) ?? [];
      expect(preserving.length).toBeGreaterThan(0);
      for (const f of preserving) expect([f.family, f.overall.accuracy.value]).toEqual([f.family, 1]);
      // Nothing needed the answer judge: every answer was the gold itself.
      expect(m?.answerJudge.needed).toBe(0);
      // The rules write no SV, CI, CL or KB test on a choice or text seed: unavailable, not 0 (issue 36).
      for (const code of ['SV', 'CI', 'CL', 'KB'])
        expect(m?.families.find((f) => f.family === code)?.overall.n ?? 0, code).toBe(0);
      expect(tests.some((t) => ['SV', 'CI', 'CL', 'KB'].includes(t.family))).toBe(false);
      expect(built.stdout + built.stderr).toMatch(
        /Knowledge Boundary \(KB\) unavailable on \d+ seeds\*\* \(no test, not 0\): needs --generator/,
      );
      // `waver check` reads the same results: Stability 1 and no collapse in every family.
      const check = await cli(
        ['check', '--min-stability', '0.99', '--no-collapse-at-or-below', '5', '--format', 'json'],
        dir,
      );
      expect(check.code, check.stdout + check.stderr).toBe(0);
      const verdicts = JSON.parse(check.stdout) as {
        pass: boolean;
        thresholds: { rows: { metric: string; pass: boolean }[] };
      };
      expect(verdicts.pass).toBe(true);
      const metrics = verdicts.thresholds.rows.map((row) => [row.metric, row.pass]);
      for (const f of ['IQ', 'F', 'CIS']) expect(metrics).toContainEqual([`Stability ${f}`, true]);
      // A family with no test is no threshold row that passes (unavailable, not a pass).
      for (const f of ['SV', 'CI', 'CL', 'KB']) expect(metrics).not.toContainEqual([`Stability ${f}`, true]);
      // Format keeps a choice item's options in order and its key (format-only, issue 36).
      const baseGold = new Map(tests.filter((t) => t.family === 'baseline').map((t) => [t.seedId, t.gold]));
      for (const t of tests.filter((x) => x.family === 'F'))
        expect(t.gold, t.id).toBe(baseGold.get(t.seedId));
    }, 180_000);
});

const withModel = tinyModelPath && dataMissing === '' ? describe : describe.skip;

withModel(
  `waver ladder on choice and text seeds with the tiny GGUF ${tinyModelMissing ?? dataMissing}`,
  () => {
    for (const { name } of DATASETS)
      it(`${name}: builds the rules suite, runs it offline and prints Tables 3-5`, async () => {
        const dir = workdir();
        const r = await cli(
          [
            'ladder',
            '--dataset',
            name,
            '--models',
            `gguf:${tinyModelPath}`,
            '--max-tokens',
            '8',
            '--store',
            'store.db',
          ],
          dir,
        );
        expect(r.stderr).not.toMatch(/internal error/);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(
          new RegExp(`## Ladder suite admission \\(Table 3\\) — ${SEEDS} seeds, generator: rules`),
        );
        expect(r.stdout).toMatch(/### Stability per family \(Table 4\)/);
        expect(r.stdout).toMatch(/### Accuracy by measured level and Collapse Point \(Table 5\)/);
        expect(r.stdout).toContain(
          name === 'triviaqa'
            ? 'Answers: text (a short answer;'
            : 'Answers: choice (a stem with lettered options;',
        );
        expect(r.stdout).toContain(`Dataset: ${name}:`);
      }, 300_000);
  },
);
