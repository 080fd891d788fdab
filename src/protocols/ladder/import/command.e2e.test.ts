import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../../cli/test-support/cli.js';
import { familyName } from '../families/roster.js';
import { demoMissing, demoRunFolder } from './test-support/demo-run.js';
import { fullRunFolder, fullRunMissing } from './test-support/full-run.js';
import {
  PUBLISHED_MODELS,
  type PublishedModel,
  publishedMissing,
  publishedRunsFolder,
} from './test-support/published-runs.js';

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

(fullRunMissing === undefined ? describe : describe.skip)(
  `waver import ladder-runs on a folder holding only eval.csv and manifest.json ${fullRunMissing ?? ''}`,
  () => {
    it('prints Table 4, Table 5 and the aggregate L0..L5 curve, as the reference computes them', async () => {
      const run = fullRunFolder();
      const store = join(run.root, 'store.db');
      const r = await runCli(['import', 'ladder-runs', run.root, '--store', store], {
        cwd: run.root,
        env: cleanEnv(),
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const ref = run.reference;
      const three = (x: number | null) => (x === null ? '—' : x.toFixed(3));
      expect(r.stdout).toContain('### Table 4: Stability per family');
      expect(r.stdout).toContain(
        `| Baseline (mean Sim of the answered baseline rows) | ${three(ref.stability.Baseline ?? null)} [`,
      );
      for (const [name, value] of Object.entries(ref.stability))
        if (name !== 'Baseline') expect(r.stdout).toContain(`| ${name} | ${three(value)} [`);
      expect(r.stdout).toContain('### Table 5: Collapse Point per family');
      for (const [tag, cp] of Object.entries(ref.collapse))
        expect(r.stdout).toMatch(new RegExp(`\\| ${familyName(tag).replace('/', '\\/')} \\| ${cp} \\| `));
      expect(r.stdout).toContain('### Aggregate accuracy by level (Section 5.1, Figure 1)');
      const curve = ref.aggregate.map((x) => `${three(x)} \\[[^\\]]*\\] \\(n=\\d+\\)`).join(' \\| ');
      expect(r.stdout).toMatch(new RegExp(`\\| ${curve} \\|`));
      expect(r.stdout).toContain('(no metrics_acc.csv in the folder)');
    });
  },
);

(publishedMissing === undefined && demoMissing === undefined ? describe : describe.skip)(
  `waver import ladder-runs on the reference repository's layout: the demo run with its eval.csv, the four full runs with their metrics files only ${publishedMissing ?? demoMissing ?? ''}`,
  () => {
    it('stores the demo run, and prints each full run from its aggregates with what needs eval.csv unavailable', async () => {
      const demo = demoRunFolder();
      const runs = join(demo.root, 'experiment', 'output', 'runs');
      mkdirSync(runs, { recursive: true });
      renameSync(demo.dir, join(runs, 'gpt-4o-mini__demo'));
      const published = publishedRunsFolder(demo.root);
      const store = join(demo.root, 'store.db');
      const r = await runCli(['import', 'ladder-runs', demo.root, '--store', store, '--format', 'json'], {
        cwd: demo.root,
        env: cleanEnv(),
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.runs.map((x: { run: string }) => x.run)).toEqual(['gpt-4o-mini__demo']);
      expect(out.aggregatesOnly.map((x: { model: string }) => x.model).sort()).toEqual(
        [...PUBLISHED_MODELS].sort(),
      );
      for (const s of out.aggregatesOnly) {
        const ref = published.reference[s.model as PublishedModel];
        expect(
          Object.fromEntries(
            s.collapse.families.map((f: { family: string; collapse: string }) => [
              f.family,
              f.collapse === 'never' ? '—' : f.collapse,
            ]),
          ),
        ).toEqual(ref.collapse);
        expect(s.aggregate.L0.value).toBe(ref.acc0);
        expect(s.aggregate.L5).toEqual({
          value: null,
          unavailable: expect.stringMatching(/^needs eval\.csv/),
        });
        expect(s.stability.unavailable).toMatch(/^needs eval\.csv/);
      }
      const md = await runCli(['import', 'ladder-runs', ...Object.values(published.dirs)], {
        cwd: demo.root,
        env: cleanEnv(),
      });
      expect(md.code).toBe(0);
      expect(md.stdout).toContain(
        '## gpt-4o-mini__gsm8k_symbolic100: gpt-4o-mini, from metrics_acc.csv only (no eval.csv: nothing stored)',
      );
      expect(md.stdout).toMatch(/\| Context Interference \| L1 \| L1 \|/);
      expect(md.stdout).toMatch(/- L5: unavailable: needs eval\.csv/);
      expect(md.stdout).toContain('| Knowledge Boundary | unavailable: needs eval.csv |');
      // Nothing to store from the metrics files alone: no store made.
      expect(existsSync(join(demo.root, '.waver', 'store.db'))).toBe(false);
    });
  },
);
