import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../../test-support/cli/cli.js';
import {
  LM_EVAL_RUNS,
  PROMPTFOO_RESULTS,
} from '../../../test-support/protocols/paraphrase/import/fixtures.js';

beforeAll(assertBuilt);

const waver = (args: string[], cwd: string) => runCli(args, { cwd, env: cleanEnv() });
const STORIES = join(LM_EVAL_RUNS, 'stories260K');
const RANDOM = join(LM_EVAL_RUNS, 'llama-2-tiny-random');

describe('waver import lm-eval, then report and check (real lm_eval runs against waver serve)', () => {
  it('SAA with CI, run vs prompt instability, flips and the two-model comparison in the report; the gate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-import-lm-eval-'));
    const store = join(dir, 'store.db');
    // One model at a time: the second import finds the first's suite, so the two models pair up.
    const first = await waver(['import', 'lm-eval', STORIES, '--store', store], dir);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/agree with lm-eval's: 18 of 18/);
    const second = await waver(['import', 'lm-eval', RANDOM, '--store', store], dir);
    expect(second.code).toBe(0);

    const report = await waver(['report', '--store', store, '--format', 'md'], dir);
    expect(report.code).toBe(0);
    const md = report.stdout;
    expect(md).toMatch(
      /6 items \(json 6\) x 3 phrasings \(waver_mc_next, waver_mc_plain, waver_mc_story\) x 2 repeats = 36 cells per model/,
    );
    expect(md).toMatch(/imported from lm-eval/);
    expect(md).toMatch(/\| 1 \| stories260K\.gguf \| 83\.3% \[50\.0–100\.0\] \| 6\/6 \|/);
    expect(md).toMatch(/\| 2 \| llama-2-tiny-random\.gguf \| 16\.7% \[0\.0–50\.0\] \| 6\/6 \|/);
    expect(md).toMatch(
      /\| stories260K\.gguf \| 0\.0% \[0\.0–0\.0\] \| 18 \(item, phrasing\) pairs with all 2 repeats done \| 0\.0% \[0\.0–0\.0\] \| 12 \(item, repeat\) pairs with all 3 phrasings done \|/,
    );
    expect(md).toMatch(/### Flips \(0\)/);
    expect(md).toMatch(
      /Never answered correctly by stories260K\.gguf \(1 items, lost to SAA without a flip\): 1:ed3d0f0fc029/,
    );
    expect(md).toMatch(
      /stories260K\.gguf − llama-2-tiny-random\.gguf \| \+0\.667 \[95% CI \+0\.066, \+0\.864\] \| 36 \| 6 \| 0 \| 24 \| 1\.19e-7/,
    );

    const compare = await waver(
      ['check', '--store', store, '--compare', 'llama-2-tiny-random.gguf,stories260K.gguf'],
      dir,
    );
    expect(compare.code).toBe(0);
    expect(compare.stdout).toMatch(/\| base wrong \| 24 \| 6 \|/);
    expect(compare.stdout).toMatch(/verdict: new is significantly better at alpha 0\.05/);
    const worse = await waver(
      ['check', '--store', store, '--compare', 'stories260K.gguf,llama-2-tiny-random.gguf'],
      dir,
    );
    expect(worse.code).toBe(4);

    const gate = await waver(['check', '--store', store, '--min-saa', '0.5'], dir);
    expect(gate.code).toBe(4);
    expect(gate.stdout).toMatch(
      /\| llama-2-tiny-random\.gguf \| paraphrase \| SAA \| 0\.167 \[0\.000, 0\.500\] \|.*\| >= 0\.5 \| below threshold \|/,
    );
    expect((await waver(['check', '--store', store, '--min-saa', '0.1'], dir)).code).toBe(0);
  });

  it('a malformed sample: one line naming file, line and field, exit 2, no store written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-import-lm-eval-bad-'));
    const run = join(dir, 'run');
    cpSync(STORIES, run, { recursive: true });
    const samples = readdirSync(run).find((n) => n.startsWith('samples_waver_mc_story')) as string;
    const lines = readFileSync(join(run, samples), 'utf8').split('\n');
    lines[2] = (lines[2] as string).replace('"acc": 1.0', '"acc": "yes"');
    writeFileSync(join(run, samples), lines.join('\n'));
    const store = join(dir, 'store.db');
    const r = await waver(['import', 'lm-eval', run, '--store', store], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^waver: .*${samples.replace(/\./g, '\\.')}:3: acc: expected the per-sample metric \\(a number\\); this task logs .*\\n$`,
      ),
    );
    expect(existsSync(store)).toBe(false);
  });

  it('a folder without runs is an input error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-import-lm-eval-empty-'));
    const r = await waver(['import', 'lm-eval', dir, '--store', join(dir, 's.db')], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no lm-eval results_\*\.json here/);
  });
});

describe('waver import promptfoo, then report and check (a real promptfoo 0.123 eval against waver serve)', () => {
  it('2 prompts x 2 providers x 4 test cases x 3 repeats: the figures, the comparison, the gate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-import-promptfoo-'));
    const store = join(dir, 'store.db');
    const imported = await waver(['import', 'promptfoo', PROMPTFOO_RESULTS, '--store', store], dir);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/promptfoo 0\.123\.1, 48 results/);
    expect(imported.stdout).toMatch(
      /4 items x 2 variants \(plain, story\); stories260K 24 cells, tiny-random 24 cells/,
    );

    const report = await waver(['report', '--store', store, '--format', 'json'], dir);
    expect(report.code).toBe(0);
    const section = JSON.parse(report.stdout).sections.find(
      (s: { protocol: string }) => s.protocol === 'paraphrase',
    );
    const results = section.results;
    expect(results.suite.phrasings).toEqual(['plain', 'story']);
    expect(results.suite.repeats).toBe(3);
    // Verdicts are promptfoo's own `success`, counted from the fixture independently here.
    const raw = JSON.parse(readFileSync(PROMPTFOO_RESULTS, 'utf8')).results.results as {
      provider: { label: string };
      vars: unknown;
      success: boolean;
    }[];
    let flips = 0;
    for (const label of ['stories260K', 'tiny-random']) {
      const mine = raw.filter((r) => r.provider.label === label);
      const row = [...results.leaderboard, ...(results.incomplete ?? [])].find(
        (m: { label: string }) => m.label === label,
      );
      expect(row.rawAccuracy.value).toBeCloseTo(mine.filter((r) => r.success).length / mine.length, 12);
      // A flip: a wrong answer to a test case the model got right in another cell.
      const rightSomewhere = new Set(mine.filter((r) => r.success).map((r) => JSON.stringify(r.vars)));
      const theirs = mine.filter((r) => !r.success && rightSomewhere.has(JSON.stringify(r.vars))).length;
      const model = results.models.find((m: { label: string }) => m.label === label);
      expect(model.metrics.flips).toHaveLength(theirs);
      flips += theirs;
    }
    expect(flips).toBeGreaterThan(0);
    expect(imported.stdout).toContain(`### Flips (${flips})`);

    const gate = await waver(['check', '--store', store, '--min-saa', '0.01'], dir);
    expect(gate.code).toBe(4);
    expect(gate.stdout).toMatch(/\| stories260K \| paraphrase \| SAA \| 0\.000/);
    const compare = await waver(['check', '--store', store, '--compare', 'tiny-random,stories260K'], dir);
    expect([0, 4]).toContain(compare.code);
    expect(compare.stdout).toMatch(/24 pairs \(item x phrasing x repeat answered by both\) in 4 items/);
  });

  it('--answers verdict: the instabilities compare right and wrong, as counted here from the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-import-promptfoo-verdict-'));
    const store = join(dir, 'store.db');
    const imported = await waver(
      [
        'import',
        'promptfoo',
        PROMPTFOO_RESULTS,
        '--store',
        store,
        '--answers',
        'verdict',
        '--format',
        'json',
      ],
      dir,
    );
    expect(imported.code).toBe(0);
    const figures = JSON.parse(imported.stdout).figures[0];
    const raw = JSON.parse(readFileSync(PROMPTFOO_RESULTS, 'utf8')).results.results as {
      testIdx: number;
      provider: { label: string };
      prompt: { label: string };
      vars: unknown;
      success: boolean;
    }[];
    for (const label of ['stories260K', 'tiny-random']) {
      const verdicts = new Map<string, boolean[]>();
      for (const r of raw.filter((x) => x.provider.label === label).sort((a, b) => a.testIdx - b.testIdx)) {
        const k = `${JSON.stringify(r.vars)}|${r.prompt.label}`;
        verdicts.set(k, [...(verdicts.get(k) ?? []), r.success]);
      }
      const runUnstable = [...verdicts.values()].filter((v) => new Set(v).size > 1).length / verdicts.size;
      const items = [...new Set(raw.map((r) => JSON.stringify(r.vars)))];
      let promptUnstable = 0;
      for (const item of items)
        for (let rep = 0; rep < 3; rep++)
          if (new Set(['plain', 'story'].map((p) => verdicts.get(`${item}|${p}`)?.[rep])).size > 1)
            promptUnstable++;
      const { metrics } = figures.models.find((m: { label: string }) => m.label === label);
      expect(metrics.runInstability.value).toBeCloseTo(runUnstable, 12);
      expect(metrics.promptInstability.value).toBeCloseTo(promptUnstable / (items.length * 3), 12);
    }
  });

  it('a result promptfoo recorded as an error: a failed cell, counted in coverage and the errors, its item out of SAA', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-import-promptfoo-error-'));
    const doc = JSON.parse(readFileSync(PROMPTFOO_RESULTS, 'utf8'));
    const hit = doc.results.results.findIndex(
      (r: { provider: { label: string } }) => r.provider.label === 'stories260K',
    );
    Object.assign(doc.results.results[hit], {
      failureReason: 2,
      success: false,
      error: 'API error: 503 overloaded',
    });
    const file = join(dir, 'results.json');
    writeFileSync(file, JSON.stringify(doc));
    const store = join(dir, 'store.db');
    const imported = await waver(['import', 'promptfoo', file, '--store', store, '--format', 'json'], dir);
    expect(imported.code).toBe(0);
    const { metrics } = JSON.parse(imported.stdout).figures[0].models.find(
      (m: { label: string }) => m.label === 'stories260K',
    );
    expect(metrics.coverage).toMatchObject({
      expected: 24,
      done: 23,
      failed: 1,
      errorsByKind: { server: 1 },
    });
    expect(metrics.saa).toMatchObject({ itemsScored: 3, itemsExcluded: 1 });
    expect(metrics.errors[0].message).toBe('promptfoo recorded an error: API error: 503 overloaded');
  });

  it('a result without its provider: file and field, exit 2, no store written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-import-promptfoo-bad-'));
    const doc = JSON.parse(readFileSync(PROMPTFOO_RESULTS, 'utf8'));
    delete doc.results.results[7].provider;
    const file = join(dir, 'results.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const store = join(dir, 'store.db');
    const r = await waver(['import', 'promptfoo', file, '--store', store], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `waver: ${file}: results.results[7].provider: expected the provider that answered ({id, label})\n`,
    );
    expect(existsSync(store)).toBe(false);
  });
});
