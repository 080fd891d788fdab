import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../test-support/cli/cli.js';
import { ENDPOINT_ROLES, type RoleEndpoints, startRoleEndpoints } from '../test-support/role-endpoints.js';

/**
 * A dry run calls no model of any role and writes no file, and what it estimates is what the run
 * then sends: every role's calls and output caps, equal where the estimate is exact and never
 * passed where it is a bound (docs/decisions.md#e39-a-dry-run-calls-nothing-and-bounds-what-it-cannot-count).
 * Each role is an OpenAI-compatible endpoint on loopback that counts what it is sent.
 */

beforeAll(assertBuilt);

interface Row {
  label: string;
  role: string;
  stage?: string;
  calls: number;
  maxOutputTokens: number;
  bound?: boolean;
}

let endpoints: RoleEndpoints;
beforeEach(async () => {
  endpoints = await startRoleEndpoints();
});
afterEach(() => endpoints.close());

const env = cleanEnv({ OPENAI_API_KEY: 'sk-test' });

/** The dry run of `args` (0 requests, no file), its rows, then the run itself (exit 0). */
async function dryThenRun(args: string[], dir: string): Promise<Row[]> {
  const listed = readdirSync(dir);
  const dry = await runCli([...args, '--dry-run', '--format', 'json'], { cwd: dir, env });
  expect(dry.code, dry.stderr).toBe(0);
  expect(endpoints.total()).toBe(0);
  expect(readdirSync(dir)).toEqual(listed);
  const rows = (JSON.parse(dry.stdout) as { models: Row[] }).models;
  const run = await runCli([...args, '--format', 'json'], { cwd: dir, env });
  expect(run.code, run.stderr).toBe(0);
  return rows;
}

/** Per role: the estimate's calls and output caps, and whether any of its rows is a bound. */
function byRole(rows: readonly Row[]) {
  return Object.fromEntries(
    ENDPOINT_ROLES.map((role) => {
      const own = rows.filter((r) => r.role === role);
      return [
        role,
        {
          calls: own.reduce((n, r) => n + r.calls, 0),
          maxTokens: own.reduce((n, r) => n + r.maxOutputTokens, 0),
          bound: own.some((r) => r.bound === true),
        },
      ];
    }),
  );
}

/** What each role was sent in the run equals the estimate (`exact`), or stays within it. */
function expectSent(rows: readonly Row[], exact: boolean): void {
  const estimated = byRole(rows);
  for (const role of ENDPOINT_ROLES) {
    const sent = endpoints.count(role);
    const calls = sent.chats + sent.embeddings;
    const e = estimated[role] as { calls: number; maxTokens: number; bound: boolean };
    if (exact || !e.bound) {
      expect({ role, calls, maxTokens: sent.maxTokens }).toEqual({
        role,
        calls: e.calls,
        maxTokens: e.maxTokens,
      });
    } else {
      expect(calls, role).toBeLessThanOrEqual(e.calls);
      expect(sent.maxTokens, role).toBeLessThanOrEqual(e.maxTokens);
    }
  }
}

function workdir(name: string): string {
  return mkdtempSync(join(tmpdir(), `waver-dry-${name}-`));
}

describe('--dry-run calls no model and writes nothing; its estimate is what the run sends', () => {
  it('ladder with a judge (the issue): no gate call, the caps the run sends (768 a call), every role bounded', async () => {
    const dir = workdir('ladder');
    const rows = await dryThenRun(
      // The rules suite, whose gates ask the judge (a plain run reads the reviewed default suite).
      [
        'ladder',
        '--generate',
        'rules',
        '--models',
        endpoints.spec('model'),
        '--judge',
        endpoints.spec('judge'),
        '--seeds',
        '2',
      ],
      dir,
    );
    // The suite's tests depend on the gates' verdicts: the systems under test's calls are a bound too.
    expect(rows.map((r) => [r.role, r.stage, r.bound])).toEqual([
      ['judge', 'ladder/gate-nli', true],
      ['judge', 'ladder/gate-meaning', true],
      ['judge', 'ladder/gate-epistemic', true],
      ['model', 'ladder/tests', true],
      ['judge', 'ladder/kb-judge', true],
    ]);
    const sut = rows[3] as Row;
    expect(sut.maxOutputTokens).toBe(768 * sut.calls);
    const sent = endpoints.count('model');
    expect(sent.maxTokens).toBe(768 * sent.chats);
    expectSent(rows, false);
  }, 120_000);

  it('ladder with a generator and a judge, one attempt: every role exactly as estimated', async () => {
    const dir = workdir('ladder-gen');
    writeFileSync(join(dir, 'waver.yaml'), 'ladder: {attempts: 1}\n');
    const rows = await dryThenRun(
      [
        'ladder',
        ...['--models', endpoints.spec('model'), '--judge', endpoints.spec('judge')],
        ...['--generator', endpoints.spec('generator'), '--seeds', '2', '--families', 'KB'],
      ],
      dir,
    );
    // Every candidate passes every gate here, so each bound is reached.
    expect(byRole(rows)).toMatchObject({
      generator: { calls: 10, bound: false },
      judge: { calls: 20, bound: true },
      model: { calls: 16, bound: true },
    });
    expectSent(rows, true);
  }, 120_000);

  it('says which stage a budget stops the run in, and the run stops there', async () => {
    const dir = workdir('ladder-budget');
    writeFileSync(join(dir, 'waver.yaml'), 'ladder: {attempts: 1}\n');
    const args = [
      'ladder',
      ...['--models', endpoints.spec('model'), '--judge', endpoints.spec('judge')],
      ...['--generator', endpoints.spec('generator'), '--seeds', '2', '--families', 'KB'],
      ...['--max-calls', '11'],
    ];
    const dry = await runCli([...args, '--dry-run', '--format', 'json'], { cwd: dir, env });
    expect(dry.code, dry.stderr).toBe(0);
    const { models, budget } = JSON.parse(dry.stdout) as { models: Row[]; budget: Record<string, unknown> };
    // The generator's 10 calls fit; the first gate's judge calls pass the 11th.
    const first = models.find((r) => r.role === 'judge') as Row;
    expect(budget).toMatchObject({
      limit: 'maxCalls',
      value: 11,
      stage: `judge (${first.stage})`,
      before: 10,
    });
    const text = await runCli([...args, '--dry-run'], { cwd: dir, env });
    expect(text.stdout).toContain(
      `The budget (--max-calls 11) stops the run at stage 'judge (${first.stage})'`,
    );
    expect(endpoints.total()).toBe(0);
    // The run: every generator call, then the judge's first, then nothing.
    const run = await runCli(args, { cwd: dir, env });
    expect(run.code, run.stderr).toBe(5);
    expect(endpoints.count('generator').chats).toBe(10);
    expect(endpoints.count('judge').chats).toBe(1);
    expect(endpoints.count('model').chats).toBe(0);
    // The stages past the stop opened no run of their own.
    const store = new Database(join(dir, '.waver', 'store.db'), { readonly: true });
    const ran = store
      .prepare('SELECT DISTINCT s.name FROM runs r JOIN suites s ON s.hash = r.suite_hash')
      .pluck()
      .all();
    store.close();
    expect(ran.sort()).toEqual(['ladder/generator', first.stage].sort());
  }, 120_000);

  it('sago with a generator, a judge and an embedder', async () => {
    const dir = workdir('sago');
    const rows = await dryThenRun(
      [
        'sago',
        ...['--models', endpoints.spec('model'), '--judge', endpoints.spec('judge')],
        ...['--generator', endpoints.spec('generator'), '--embedder', endpoints.spec('embedder')],
        ...['--n', '2', '--families', 'register,structural', '--variations', '4', '--positions', 'global'],
      ],
      dir,
    );
    expect(new Set(rows.map((r) => r.role))).toEqual(new Set(ENDPOINT_ROLES));
    expectSent(rows, true);
  }, 120_000);

  it('paraphrase with a generator rewording the items', async () => {
    const dir = workdir('paraphrase');
    const dataset = join(dir, 'items.csv');
    writeFileSync(dataset, 'uid,q,A,B,C,gold\nk5,Which is largest?,2,9,4,B\nk6,Which is smallest?,7,3,8,B\n');
    const rows = await dryThenRun(
      [
        'paraphrase',
        ...['--models', endpoints.spec('model'), '--generator', endpoints.spec('generator')],
        ...['--dataset', dataset, '--fields', 'id=uid,stem=q,key=gold'],
      ],
      dir,
    );
    expect(byRole(rows)).toMatchObject({ generator: { calls: 2 }, model: { calls: 20 } });
    expectSent(rows, true);
  }, 120_000);

  it('a plain suite, at the cap params.maxTokens in waver.yaml sets', async () => {
    const dir = workdir('plain');
    const suite = join(dir, 'suite.jsonl');
    writeFileSync(suite, '{"id":"a","prompt":"hi"}\n{"id":"b","prompt":"hello","repeats":2}\n');
    writeFileSync(join(dir, 'waver.yaml'), 'params: {maxTokens: 40}\n');
    const rows = await dryThenRun(['run', '--suite', suite, '--models', endpoints.spec('model')], dir);
    expect(rows).toMatchObject([{ role: 'model', calls: 3, maxOutputTokens: 3 * 40 }]);
    expectSent(rows, true);
  }, 120_000);
});
