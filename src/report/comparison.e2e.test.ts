import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_MC_ITEMS } from '../protocols/paraphrase/data/builtin-items.js';
import { buildParaphraseSuite } from '../protocols/paraphrase/suite.js';
import { openStore } from '../store/store.js';
import { type FakeModel, writeCells } from '../test-support/check/stores.js';
import { assertBuilt, cleanEnv, runCli } from '../test-support/cli/cli.js';

/**
 * Issue 37 item 1, through the built CLI: on a 60-item store where A is right on 28 items and B on
 * 20, B only where A is (b = 8, c = 0), `check --compare` finds B significantly worse, and the
 * report said its SAA intervals overlap, "the data do not support ranking A above B". The report
 * now opens each eval on the paired test itself: A ranked above B with check's very figures
 * (McNemar's exact p, the difference and its interval), and no overlap warning anywhere.
 */

const env = cleanEnv();
const dir = mkdtempSync(join(tmpdir(), 'waver-comparison-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(assertBuilt);

/**
 * 60 items (the built-in ones, then again under new ids and reworded, so that no two prompts
 * share a cache key), asked once in one phrasing.
 */
function itemOneStore(): string {
  const again = BUILTIN_MC_ITEMS.map((i) => ({ ...i, id: `${i.id}-again`, stem: `Once more: ${i.stem}` }));
  const items = [...BUILTIN_MC_ITEMS, ...again].slice(0, 60);
  expect(items).toHaveLength(60);
  const index = new Map(items.map((item, k) => [item.id, k]));
  const suite = buildParaphraseSuite(items, {
    phrasings: ['canonical'],
    repeats: 1,
    runSeed: 0,
    dataset: 'builtin',
    verified: new Set(),
  });
  const rightOn = (label: string, count: number): FakeModel => ({
    label,
    identity: `replay:${label}`,
    answer: (t) => (index.get((t.meta as { item: string }).item) as number) < count,
  });
  const path = join(dir, 'item-one.db');
  const store = openStore(path);
  writeCells(store, suite, [rightOn('A', 28), rightOn('B', 20)], (test, right) => {
    const { meta } = test;
    const wrong = meta.options.find((o) => o.letter !== meta.key)?.letter as string;
    return `Answer: ${right ? meta.key : wrong}`;
  });
  store.close();
  return path;
}

interface Difference {
  estimate: number;
  low: number;
  high: number;
  confidence: number;
}

interface ComparisonJson {
  headline: string;
  comparisons: number;
  ranking: { rank: number; label: string; right: number; scored: number }[];
  tests: {
    higher: { label: string };
    lower: { label: string };
    comparison: { n: number; mcnemar: { b: number; c: number; p: number }; difference: Difference };
    pAdjusted: number;
    better: boolean;
    command: string;
  }[];
}

describe('the report opens on the paired test (issue 37.1)', () => {
  const store = itemOneStore();
  const run = (args: string[]) => runCli(args, { cwd: dir, env });

  it('ranks A above B with the figures check --compare prints, and warns of no overlap', async () => {
    const [report, markdown, check] = await Promise.all([
      run(['report', '--store', store, '--format', 'json', '--out', '-']),
      run(['report', '--store', store, '--out', join(dir, 'report.md')]),
      // The report's difference is higher - lower: check's with base B and new A.
      run(['check', '--store', store, '--compare', 'B,A', '--format', 'json']),
    ]);
    expect(report.code, report.stderr).toBe(0);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(check.code, check.stderr).toBe(0);
    const section = (JSON.parse(report.stdout) as { sections: { comparison: ComparisonJson }[] }).sections[0];
    const c = section?.comparison as ComparisonJson;
    expect(c.ranking.map((m) => [m.rank, m.label, m.right, m.scored])).toEqual([
      [1, 'A', 28, 60],
      [2, 'B', 20, 60],
    ]);
    const [test] = c.tests;
    expect(c.comparisons).toBe(1);
    expect(test?.higher.label).toBe('A');
    expect(test?.comparison.mcnemar).toMatchObject({ b: 0, c: 8 });
    expect(test?.better).toBe(true);
    expect(test?.command).toBe(`waver check --compare B,A --suite ${test?.command.split(' --suite ')[1]}`);

    const checked = JSON.parse(check.stdout) as {
      compare: { comparison: ComparisonJson['tests'][number]['comparison']; tests: { pAdjusted: number }[] };
    };
    // The very test check runs: the same p, difference and interval, to the last digit.
    expect(test?.comparison.mcnemar).toEqual(checked.compare.comparison.mcnemar);
    expect(test?.comparison.difference).toEqual(checked.compare.comparison.difference);
    expect(test?.pAdjusted).toBe(checked.compare.tests[0]?.pAdjusted);

    // Against scipy: binomtest(0, 8, 0.5).pvalue, and the python3 Newcombe of src/stats/paired.test.ts.
    const scipyP = Number(
      execFileSync(
        'python3',
        ['-c', 'from scipy.stats import binomtest; print(binomtest(0, 8, 0.5).pvalue)'],
        {
          encoding: 'utf8',
        },
      ),
    );
    expect(test?.comparison.mcnemar.p).toBeCloseTo(scipyP, 15);
    expect(test?.comparison.mcnemar.p).toBe(0.0078125);
    expect(test?.comparison.difference.estimate).toBeCloseTo(8 / 60, 15);
    expect(test?.comparison.difference.low).toBeCloseTo(0.041036296083529156, 9);
    expect(test?.comparison.difference.high).toBeCloseTo(0.22114643154202057, 9);
    expect(c.headline).toBe(
      'A ranks first: significantly more accurate than B (alpha 0.05), by +0.133 [95% CI +0.041, +0.221].',
    );

    // Markdown: the comparison opens the eval, before the protocol's own tables; no overlap warning.
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    const eval0 = md.slice(md.indexOf('## Paraphrase'));
    expect(eval0.indexOf('### Comparison')).toBeGreaterThan(0);
    expect(eval0.indexOf('### Comparison')).toBeLessThan(eval0.indexOf('Leaderboard'));
    expect(eval0).toContain(
      '- A is more accurate than B: A − B = +0.133 [95% CI +0.041, +0.221] over 60 pairs in 60 items; McNemar exact p = 0.0078 (b = 0, c = 8), one comparison: nothing to adjust. Reproduce: `waver check --compare B,A --suite ',
    );
    for (const text of [report.stdout, md]) expect(text).not.toMatch(/overlap:|do not support ranking/);
  });

  it('the HTML eval page opens on the same comparison', async () => {
    const html = await run(['report', '--store', store, '--out', join(dir, 'report.html')]);
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    const section = page.slice(page.indexOf('<section id="paraphrase-'));
    expect(section.indexOf('class="comparison"')).toBeGreaterThan(0);
    expect(section.indexOf('class="comparison"')).toBeLessThan(section.indexOf('<div class="charts">'));
    expect(section).toContain('A ranks first: significantly more accurate than B');
    expect(page).not.toMatch(/do not support ranking/);
  });
});
