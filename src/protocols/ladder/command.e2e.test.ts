import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordingLine } from '../../models/replay.js';
import { openStore } from '../../store/store.js';
import { assertBuilt, type CliResult, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { tinyModelMissing, tinyModelPath } from '../../test-support/shared.js';
import { typedTests } from '../test-meta.js';
import { kbJudgeRequest } from './kb-judge.js';
import { KB_JUDGE_MAX_TOKENS } from './kb-judge-defaults.js';
import { kbJudgeJobs } from './run.js';
import { writeLadderSuite } from './suite-file.js';
import { LadderTestMetaSchema, ladderTestOf } from './test-meta.js';

beforeAll(assertBuilt);

/** `waver ladder` through the built binary, with an environment that holds only what the tests set. */
function ladder(args: string[], opts: { cwd: string }): Promise<CliResult> {
  return runCli(['ladder', ...args], { cwd: opts.cwd, env: cleanEnv() });
}

describe('waver ladder, bad input', () => {
  it('names an unknown dataset, exits 2 and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-ladder-bad-'));
    const r = await ladder(['--models', 'replay:none.jsonl', '--dataset', 'no-such-set'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^waver: dataset: unknown dataset 'no-such-set'/m);
    expect(existsSync(join(dir, '.waver'))).toBe(false);
  });

  it('names the file and line of a seed without a parsable gold, exits 2 and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-ladder-bad-'));
    const seeds = join(dir, 'seeds.jsonl');
    writeFileSync(
      seeds,
      `${JSON.stringify({ question: 'A?', answer: '#### 4' })}\n${JSON.stringify({ question: 'B?', answer: 'so #### many' })}\n`,
    );
    const r = await ladder(['--models', 'replay:none.jsonl', '--dataset', seeds], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`waver: ${seeds}:2: answer: no parsable gold`);
    expect(existsSync(join(dir, '.waver'))).toBe(false);
  });

  it('refuses an unknown family', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-ladder-bad-'));
    const r = await ladder(['--models', 'replay:none.jsonl', '--families', 'SV,XX'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--families: unknown family 'XX'/);
  });
});

const withModel = tinyModelPath ? describe : describe.skip;

withModel(`waver ladder end to end with the tiny GGUF ${tinyModelMissing ?? ''}`, () => {
  it('builds the suite from the built-in seeds, runs it, prints Tables 3-5; then judges KB through a replay judge', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-ladder-e2e-'));
    // A 384-token context cannot hold the longest prompts (Context Load, the Format's longest).
    const model = `gguf:${tinyModelPath}?ctx=384`;
    // The rules suite (a plain run uses the reviewed default suite, default-suite.e2e.test.ts).
    const common = [
      '--models',
      model,
      '--seeds',
      '2',
      '--max-tokens',
      '8',
      '--store',
      'store.db',
      '--generate',
      'rules',
    ];

    // Run 1: no judge. The tiny model cannot do arithmetic: accuracy 0 everywhere, KB unavailable.
    // Its context cannot hold the longest prompts: those cells fail, so the run is incomplete
    // (exit 3) and says why.
    const r1 = await ladder([...common, '--out', 'report.md'], { cwd: dir });
    expect(r1.stderr).not.toMatch(/internal error/);
    expect(r1.code).toBe(3);
    expect(r1.stderr).toMatch(
      /^waver: ladder\/tests · gguf:\S+: \d+ of \d+ done, failed \d+: client \d+ — "the prompt/m,
    );
    expect(r1.stdout).toMatch(/## Ladder suite admission \(Table 3\) — 2 seeds, generator: rules/);
    expect(r1.stdout).toMatch(/### Stability per family \(Table 4\)/);
    expect(r1.stdout).toMatch(/### Accuracy by measured level and Collapse Point \(Table 5\)/);
    expect(r1.stdout).toMatch(/acc\(L0\) = 0\.000 over 6 baseline responses/);
    expect(r1.stdout).toMatch(/unavailable \(acc\(L0\) = 0: no level can fall below it\)/);
    expect(r1.stdout).toMatch(/KB scores are unavailable/);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toBe(r1.stdout);

    // Record a judge verdict for each stored KB response: the exact requests waver will send.
    const storePath = join(dir, 'store.db');
    const store = openStore(storePath);
    const run = store.runs
      .list()
      .find((x) => x.suiteHash && store.suites.get(x.suiteHash)?.name === 'ladder/tests');
    const suite = store.suites.get(run?.suiteHash as string);
    const identity = [...store.cells.all({ suiteHash: suite?.hash })][0]?.modelIdentity as string;
    store.close();
    expect(suite).toBeDefined();
    const stored = suite as NonNullable<typeof suite>;
    const jobs = kbJudgeJobs(storePath, { ...stored, tests: typedTests(stored, LadderTestMetaSchema) }, [
      identity,
    ]);
    expect(jobs.length).toBeGreaterThan(0);
    const recording = join(dir, 'judge.jsonl');
    writeFileSync(
      recording,
      jobs
        .map((job, i) =>
          recordingLine(
            kbJudgeRequest(job, KB_JUDGE_MAX_TOKENS),
            {
              text: JSON.stringify({
                score: i % 2 === 0 ? 0 : 0.25,
                reason: 'recorded verdict: a story, not a refusal',
              }),
              finishReason: 'stop',
              usage: { inputTokens: 50, outputTokens: 12 },
            },
            'recorded-judge',
          ),
        )
        .join('\n'),
    );

    // Run 2: the same suite, as a file rebuilt from the store (with a judge, building in memory would
    // also run the model gates, which this recording does not answer); SUT answers come from the
    // store, KB responses are judged by the replay judge.
    const suiteFile = join(dir, 'suite.jsonl');
    writeLadderSuite(
      suiteFile,
      stored.tests.map((t) => ladderTestOf(stored, t)),
    );
    const r2 = await ladder(
      [...common, '--suite', suiteFile, '--judge', `replay:${recording}`, '--format', 'json'],
      {
        cwd: dir,
      },
    );
    expect(r2.stderr).not.toMatch(/internal error/);
    expect(r2.code).toBe(3);
    const report = JSON.parse(r2.stdout) as {
      suite: { seeds: number; perturbed: number };
      admission: { table: string };
      models: {
        complete: boolean;
        coverage: { total: number; done: number; failed: number };
        kbJudge: { needed: number; scored: number };
        baseline: { n: number; accuracy: { value: number | null; low: number | null; high: number | null } };
        families: {
          family: string;
          overall: { accuracy: { value: number | null } };
          collapsePoint: { status: string; unavailable?: string };
        }[];
        kbByType: {
          kbType: string;
          n: number;
          accuracy: { value: number | null };
          recognise: { value: number | null };
        }[];
      }[];
    };
    expect(report.suite.seeds).toBe(2);
    // From a file: Table 3 shows what was admitted (candidates are known only to a build).
    expect(report.admission.table).toBe('ladder-admitted');
    const m = report.models[0];
    expect(m?.coverage.total).toBe(report.suite.perturbed + 2 * 3);
    expect((m?.coverage.done ?? 0) + (m?.coverage.failed ?? 0)).toBe(m?.coverage.total);
    expect(m?.baseline).toMatchObject({ n: 6, accuracy: { value: 0, low: 0, high: 0 } });
    expect(m?.kbJudge.needed).toBe(jobs.length);
    expect(m?.kbJudge.scored).toBe(jobs.length);
    const kb = m?.families.find((f) => f.family === 'KB');
    expect(kb?.overall.accuracy.value).toBeGreaterThanOrEqual(0);
    expect(kb?.overall.accuracy.value).toBeLessThanOrEqual(0.25);
    // The SUT was not asked again for what it had answered: its done cells were written by run 1.
    const after = openStore(storePath);
    const rewritten = [...after.cells.all({ suiteHash: suite?.hash, status: 'done' })].filter(
      (c) => c.runId !== run?.id,
    );
    const sutSuites = new Set(
      after.runs
        .list()
        .filter((x) => x.suiteHash && after.suites.get(x.suiteHash)?.name === 'ladder/tests')
        .map((x) => x.suiteHash),
    );
    after.close();
    expect([...sutSuites]).toEqual([suite?.hash]);
    expect(rewritten).toHaveLength(0);
    expect(kb?.collapsePoint).toMatchObject({
      status: 'unavailable',
      unavailable: expect.stringMatching(/acc\(L0\) = 0/),
    });
    for (const t of m?.kbByType ?? []) if (t.n > 0) expect(t.recognise.value).toBe(0);
  }, 240_000);
});
