import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../../test-support/cli/cli.js';
import {
  independentMissing,
  independentSgs,
  sagoRunsDir,
} from '../../../test-support/protocols/sago/import/independent-sgs.js';

beforeAll(assertBuilt);

const fixtures = sagoRunsDir ?? '';
const waver = (args: string[], cwd: string) => runCli(args, { cwd, env: cleanEnv() });
const withFixtures = sagoRunsDir ? describe : describe.skip;

withFixtures(
  `waver import sago-runs, then waver report and waver check ${sagoRunsDir ? '' : '(skipped: no fixtures)'}`,
  () => {
    const withPython = independentMissing === undefined ? it : it.skip;

    withPython(
      `the JSON report's SGS per (model, dataset, axis) equals the independent computation ${independentMissing ?? ''}`,
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'waver-import-'));
        const store = join(dir, 'store.db');
        const imported = await waver(['import', 'sago-runs', fixtures, '--store', store], dir);
        expect(imported.stderr).toBe('');
        expect(imported.code).toBe(0);
        expect(imported.stdout).toMatch(/bleu = waver's corpus_bleu of the pair: 336 of 336 agree/);
        expect(imported.stdout).toMatch(/delta_\* = raw minus the style baseline row: \d+ of \d+ agree/);

        const report = await waver(['report', '--store', store, '--format', 'json'], dir);
        expect(report.code).toBe(0);
        const data = JSON.parse(report.stdout);
        const rows = data.sections
          .filter((s: { protocol: string }) => s.protocol === 'sago')
          .flatMap((s: { results: { sgs: Record<string, unknown>[] } }) => s.results.sgs)
          .filter((r: { dataset: string }) => r.dataset !== 'total');
        const dirs = readdirSync(fixtures)
          .filter((n) => n.startsWith('run_'))
          .map((n) => join(fixtures, n));
        const theirs = independentSgs(dirs, [0.01, 0.05, 0.1]);
        expect(rows).toHaveLength(theirs.length);
        for (const t of theirs) {
          const o = rows.find(
            (r: { model: string; dataset: string; axis: string }) =>
              r.model === t.model && r.dataset === t.dataset && r.axis === t.axis,
          );
          expect(Object.keys(o).sort()).toEqual([
            'axis',
            'dataset',
            'marker',
            'model',
            'n',
            'p',
            'pAdjusted',
            'sd',
            'sgs',
          ]);
          expect(o.n).toBe(t.n);
          expect(o.sgs).toBeCloseTo(t.sgs, 10);
          expect(o.sd).toBeCloseTo(t.sd, 10);
          expect(o.p['0.05']).toBeCloseTo(t.p['0.05'] as number, 10);
        }

        // waver check gates on the imported SGS like on a run's (the latest sago suite: gpt-5.4).
        const check = await waver(['check', '--store', store, '--max-sgs', 'bleu=0.4'], dir);
        expect(check.code).toBe(4);
        expect(check.stdout).toMatch(/gpt-5\.4 \| sago \| SGS bleu \| 0\.485/);
      },
    );

    it('bad input: one line naming file, line and column, exit 2, no store written', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-import-bad-'));
      const run = join(dir, 'run_x_trivia_qa_letter_case_1');
      mkdirSync(run);
      const source = readdirSync(fixtures).find((n) => n.includes('gpt_5_4_trivia_qa_letter_case')) ?? '';
      writeFileSync(join(run, 'metadata.json'), readFileSync(join(fixtures, source, 'metadata.json')));
      const csv = readFileSync(join(fixtures, source, 'full_results_all_models.csv'), 'utf8');
      writeFileSync(join(run, 'full_results_all_models.csv'), csv.replace(',global,0,', ',global,zero,'));
      const store = join(dir, 'store.db');
      const r = await waver(['import', 'sago-runs', dir, '--store', store], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^waver: .*full_results_all_models\.csv:2: strength: expected a number, got 'zero'\n$/,
      );
      expect(existsSync(store)).toBe(false);
    });

    it('a folder without runs is an input error', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-import-empty-'));
      const r = await waver(['import', 'sago-runs', dir, '--store', join(dir, 's.db')], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no SAGO run folder here/);
    });
  },
);
