import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../../cli/test-support/cli.js';
import { demoMissing, demoRunFolder } from './test-support/demo-run.js';

beforeAll(assertBuilt);

const withDemo = demoMissing === undefined ? describe : describe.skip;

withDemo(`waver import ladder-runs, then waver report ${demoMissing ?? ''}`, () => {
  it("imports the run, shows waver's accuracies beside the run's, and the report has its ladder section", async () => {
    const demo = demoRunFolder();
    const store = join(demo.root, 'store.db');
    const r = await runCli(['import', 'ladder-runs', demo.root, '--store', store], {
      cwd: demo.root,
      env: cleanEnv(),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /\| CI \| 1\.000 \[1\.000\] \| 0\.250 \[0\.250\] \| 1\.000 \[1\.000\] \| 0\.000 \[0\.000\] \|/,
    );
    expect(r.stdout).toMatch(/agree with the reference's aggregation of its rows/);
    const report = await runCli(['report', '--store', store, '--format', 'json'], {
      cwd: demo.root,
      env: cleanEnv(),
    });
    expect(report.code).toBe(0);
    const sections = JSON.parse(report.stdout).sections;
    expect(sections.map((s: { protocol: string }) => s.protocol)).toEqual(['ladder']);
    expect(sections[0].unavailable).toBeUndefined();
  });

  it('bad input: exit 2, one line naming the file, line and column, no store written', async () => {
    const demo = demoRunFolder();
    const file = join(demo.dir, 'eval.csv');
    writeFileSync(file, readFileSync(file, 'utf8').replace(',L0,L0,1,', ',L0,L9,1,'));
    const store = join(demo.root, 'store.db');
    const r = await runCli(['import', 'ladder-runs', demo.root, '--store', store], {
      cwd: demo.root,
      env: cleanEnv(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^waver: .*eval\.csv:2: Classified Level: expected a level L0\.\.L5, got 'L9'\n$/,
    );
    expect(existsSync(store)).toBe(false);
  });
});
