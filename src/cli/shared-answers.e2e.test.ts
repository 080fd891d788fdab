import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, cleanEnv, queryStore, runCli } from '../test-support/cli/cli.js';
import { writeRecordFile } from '../test-support/data/record-files.js';
import { type FaultServer, startFaultServer } from '../test-support/fault-server.js';

/**
 * A stored answer counts as done for every suite that asks its request (issue 34 item 3): the
 * cell of another suite is linked to it, written and counted, with no call, whatever the command.
 */

beforeAll(assertBuilt);

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer({ faultRate: 0, seed: 3 });
});
afterAll(() => server.close());

const model = () => `openai:echo@${server.url}`;

/** Each test runs the CLI two or three times: minutes on a loaded machine. */
const CLI_RUNS_MS = 180_000;

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'waver-shared-answers-'));
}

/** Runs the command: complete (exit 0), nothing pending, and no request to the model. */
async function expectCompleteWithNoCall(run: () => Promise<CliResult>): Promise<CliResult> {
  const calls = server.requests();
  const r = await run();
  expect(r.stderr).not.toMatch(/internal error|pending|incomplete/);
  expect(r.stdout).not.toMatch(/INCOMPLETE/);
  expect(r.code, r.stderr).toBe(0);
  expect(server.requests()).toBe(calls);
  return r;
}

describe('a stored answer counts as done for every suite that asks it', () => {
  it(
    'waver run: a second suite of the same requests is complete with no call, and stays so',
    async () => {
      const cwd = workdir();
      const line = (i: number) => `${JSON.stringify({ id: `t${i}`, prompt: `cached question ${i}` })}\n`;
      writeFileSync(join(cwd, 'a.jsonl'), [0, 1, 2, 3].map(line).join(''));
      // Another suite (another order, so another hash) of the same requests.
      writeFileSync(join(cwd, 'b.jsonl'), [3, 2, 1, 0].map(line).join(''));
      const run = (suite: string) =>
        runCli(['run', '--suite', suite, '--models', model(), '--repeats', '2', '--store', 'store.db'], {
          cwd,
          env: cleanEnv(),
        });
      expect((await run('a.jsonl')).code).toBe(0);
      await expectCompleteWithNoCall(() => run('b.jsonl'));
      const done = queryStore<{ n: number; called: number }>(
        join(cwd, 'store.db'),
        `SELECT count(*) AS n, sum(attempts > 0) AS called FROM cells WHERE status = 'done'
       GROUP BY suite_hash ORDER BY min(id)`,
      );
      expect(done).toEqual([
        { n: 8, called: 8 },
        { n: 8, called: 0 },
      ]);
      await expectCompleteWithNoCall(() => run('b.jsonl'));
    },
    CLI_RUNS_MS,
  );

  it(
    'paraphrase: a file holding some of the items another file held',
    async () => {
      const cwd = workdir();
      const item = (id: string, key: string) => ({
        id,
        question: `Which letter is ${key} (${id})?`,
        A: 'A',
        B: 'B',
        C: 'C',
        D: 'D',
        answer: key,
      });
      const all = [item('q1', 'A'), item('q2', 'B'), item('q3', 'C'), item('q4', 'D')];
      await writeRecordFile(join(cwd, 'all.jsonl'), all, 'jsonl');
      await writeRecordFile(join(cwd, 'some.csv'), all.slice(1, 3), 'csv');
      const run = (dataset: string) =>
        runCli(['paraphrase', '--models', model(), '--dataset', dataset, '--store', 'store.db'], {
          cwd,
          env: cleanEnv(),
        });
      expect((await run('all.jsonl')).code).toBe(0);
      await expectCompleteWithNoCall(() => run('some.csv'));
    },
    CLI_RUNS_MS,
  );

  it(
    'ladder: --seeds 1 after --seeds 2 (the first seed is asked the same in both suites)',
    async () => {
      const cwd = workdir();
      const run = (seeds: string) =>
        runCli(
          ['ladder', '--models', model(), '--seeds', seeds, '--max-tokens', '16', '--store', 'store.db'],
          {
            cwd,
            env: cleanEnv(),
          },
        );
      expect((await run('2')).code).toBe(0);
      const r = await expectCompleteWithNoCall(() => run('1'));
      expect(r.stdout).toMatch(/Coverage (\d+)\/\1 responses \(100\.0%\)/);
    },
    CLI_RUNS_MS,
  );
});
