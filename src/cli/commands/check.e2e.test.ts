import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/store.js';
import { type FakeModel, writeCells } from '../../test-support/check/stores.js';
import { assertBuilt, type CliResult, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { ladderMeta, ladderStore } from '../../test-support/protocols/ladder/store.js';
import { paraphraseStore } from '../../test-support/protocols/paraphrase/store.js';

/**
 * `waver check` through the built CLI (real process, real store file): exit 0 when every
 * threshold passes, 4 with a table of what failed, 2 on bad input; and the paired comparison.
 */

const env = cleanEnv();
const dir = mkdtempSync(join(tmpdir(), 'waver-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(assertBuilt);

const check = (args: string[]): Promise<CliResult> => runCli(['check', ...args], { cwd: dir, env });

const steady: FakeModel = { label: 'steady', identity: 'replay:steady', answer: () => true };
/** Collapses at L2 on the ladder (wrong on half the seeds at L2, all at L3). */
const fragile: FakeModel = {
  label: 'fragile',
  identity: 'replay:fragile',
  answer: (t) => {
    const m = ladderMeta(t);
    const level = m.family === 'baseline' ? 0 : (m.measuredLevel as number);
    return level <= 1 || (level === 2 && Number(m.seedId.slice(5)) % 2 === 1);
  },
};

function makeStore(name: string, models: FakeModel[], paraphrase = true): string {
  const path = join(dir, name);
  const store = openStore(path);
  ladderStore(store, models);
  if (paraphrase)
    paraphraseStore(
      store,
      models.map((m) => ({ ...m, answer: (_t, repeat) => m.label === 'steady' || repeat === 0 })),
    );
  store.close();
  return path;
}

const passing = makeStore('passing.db', [steady]);
const failing = makeStore('failing.db', [steady, fragile]);
const gates = [
  '--min-stability',
  '0.8',
  '--no-collapse-at-or-below',
  '2',
  '--min-saa',
  '0.9',
  '--min-coverage',
  '0.9',
];

describe('waver check thresholds', () => {
  it('exit 0 when every threshold passes', async () => {
    const r = await check(['--store', passing, ...gates]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Stability SV and CL, Collapse SV and CL, SAA, coverage of ladder and paraphrase: 7 rows, one model.
    expect(r.stdout).toMatch(
      /^## Thresholds: 7\/7 passed \(suites: ladder [0-9a-f]{12}, paraphrase [0-9a-f]{12}\)/,
    );
    expect(r.stdout.trim().endsWith('waver check: PASS')).toBe(true);
    // On a pass the table still shows every figure checked, not just the count.
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| model '));
    expect(rows).toHaveLength(7);
    expect(rows.some((l) => /\| paraphrase \| [^|]*saa[^|]* \| \d/i.test(l))).toBe(true);
  });

  it('exit 4 with a table of what failed: model, metric, value [CI], n, threshold, why', async () => {
    const r = await check(['--store', failing, ...gates]);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/## Thresholds: 9\/14 passed/);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('| fragile'));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(
      /^\| fragile \| ladder \| Stability SV \| 0\.333 \[0\.\d{3}, 0\.\d{3}\] \| 90 responses \| >= 0\.8 \| below threshold \|$/,
    );
    expect(rows).toContain(
      '| fragile | ladder | Collapse Point SV | L2 (collapses at <= L2 in 100% of 2000 resamples) | 90 responses | no collapse at <= L2 | collapses at L2 |',
    );
    expect(
      rows.some((l) =>
        /^\| fragile \| paraphrase \| SAA \| 0\.000 \[0\.000, 0\.000\] \| 12 items with all 8 cells done \(0 incomplete items excluded\) \| >= 0\.9 \| below threshold \|$/.test(
          l,
        ),
      ),
      r.stdout,
    ).toBe(true);
    expect(r.stdout.trim().endsWith('waver check: FAIL (exit 4)')).toBe(true);
  });

  it('--format json lists every row with value, CI and n (unavailable as null)', async () => {
    const r = await check(['--store', failing, '--min-stability', 'SV=0.8,KB=0.5', '--format', 'json']);
    expect(r.code).toBe(4);
    const out = JSON.parse(r.stdout) as { pass: boolean; thresholds: { rows: Record<string, unknown>[] } };
    expect(out.pass).toBe(false);
    const sv = out.thresholds.rows.find((x) => x.model === 'steady' && x.metric === 'Stability SV');
    expect(sv).toMatchObject({ value: 1, n: 90, pass: true, low: 1, high: 1 });
    const kb = out.thresholds.rows.find((x) => x.model === 'steady' && x.metric === 'Stability KB');
    expect(kb).toMatchObject({ value: null, pass: false, reason: expect.stringMatching(/^unavailable: /) });
  });

  it('thresholds from waver.yaml; a flag replaces that metric of the config', async () => {
    const config = join(dir, 'gate.yaml');
    writeFileSync(config, 'check:\n  minStability:\n    SV: 0.8\n  minCoverage: 0.5\n');
    const fromConfig = await check(['--store', failing, '--config', config]);
    expect(fromConfig.code).toBe(4);
    expect(fromConfig.stdout).toMatch(/\| fragile \| ladder \| Stability SV \|/);
    const overridden = await check(['--store', failing, '--config', config, '--min-stability', '0.2']);
    expect(overridden.code).toBe(0);
    expect(overridden.stdout).toMatch(/Thresholds: 8\/8 passed/);
  });

  it('an unavailable metric fails unless --allow-unavailable', async () => {
    const r = await check(['--store', passing, '--max-sgs', 'bleu=0.1']);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain(
      '| — | sago | SGS bleu | — | — | <= 0.1 | unavailable: no sago run in the store |',
    );
    const allowed = await check(['--store', passing, '--max-sgs', 'bleu=0.1', '--allow-unavailable']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/1 unavailable metric\(s\) passed with --allow-unavailable/);
  });
});

describe('waver check --min-coverage on plain suites', () => {
  it('covers a plain suite: every cell failed is exit 4, not "0/0 passed"', async () => {
    const path = join(dir, 'plain.db');
    const store = openStore(path);
    const suite = { name: 'prompts.jsonl', hash: 'a'.repeat(64), tests: [{ id: 'p1', prompt: 'hello' }] };
    writeCells(store, suite, [{ label: 'down', identity: 'replay:down', answer: () => 'fail' }], () => '');
    store.close();
    const r = await check(['--store', path, '--min-coverage', '0.9']);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/## Thresholds: 0\/1 passed \(suites: plain a{12}\)/);
    expect(r.stdout).toContain(
      '| down | plain | coverage prompts.jsonl | 0.000 | 1 cells (0 done, 1 failed, 0 pending) | >= 0.9 | below threshold |',
    );
  });

  it('passes a plain suite whose every cell is done', async () => {
    const path = join(dir, 'plain-done.db');
    const store = openStore(path);
    const tests = [
      { id: 'p1', prompt: 'hello' },
      { id: 'p2', prompt: 'bye' },
    ];
    writeCells(store, { name: 'prompts.jsonl', hash: 'c'.repeat(64), tests }, [steady], () => 'hi');
    store.close();
    const r = await check(['--store', path, '--min-coverage', '0.9']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^## Thresholds: 1\/1 passed \(suites: plain c{12}\)/);
    const json = await check(['--store', path, '--min-coverage', '0.9', '--format', 'json']);
    expect(JSON.parse(json.stdout).thresholds.rows).toEqual([
      expect.objectContaining({ protocol: 'plain', model: 'steady', value: 1, n: 2, pass: true }),
    ]);
  });

  it('a store with nothing to cover fails unless --allow-unavailable', async () => {
    const path = join(dir, 'empty.db');
    openStore(path).close();
    const r = await check(['--store', path, '--min-coverage', '0.9']);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('unavailable: no suite with cells in the store');
    expect((await check(['--store', path, '--min-coverage', '0.9', '--allow-unavailable'])).code).toBe(0);
  });
});

describe('waver check --compare', () => {
  it('exit 4 when the new model is significantly worse, with b, c and the McNemar p', async () => {
    const r = await check(['--store', failing, '--compare', 'steady,fragile', '--protocol', 'ladder']);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/## Paired comparison \(ladder, suite [0-9a-f]{12}\): steady -> fragile/);
    expect(r.stdout).toContain('270 pairs (test x repeat answered by both) in 30 seeds');
    expect(r.stdout).toContain('| base right | 180 | 90 |');
    expect(r.stdout).toMatch(/McNemar exact \(two-sided\): b = 90, c = 0, p = 1\.62e-27/);
    // All pairs and each family are tested together: Holm-adjusted p, CIs at 1 - alpha / k.
    const k = Number(/over (\d+) tests/.exec(r.stdout)?.[1]);
    expect(k).toBeGreaterThan(2);
    const conf = Number(((1 - 0.05 / k) * 100).toFixed(2));
    expect(r.stdout).toContain(`difference (new - base) -0.333 [${conf}% CI -0.`);
    expect(r.stdout).toMatch(/holm-adjusted p = \S+ over \d+ tests/);
    expect(r.stdout).toContain('verdict: new is significantly worse at alpha 0.05');
  });

  it('--margin: the non-inferiority gate reads the CI lower end against -margin', async () => {
    const args = ['--store', failing, '--compare', 'steady,fragile', '--protocol', 'ladder'];
    const r = await check([...args, '--margin', '0.5', '--adjust', 'none', '--format', 'json']);
    const out = JSON.parse(r.stdout) as {
      compare: { tests: { scope: string; worse: boolean; comparison: { difference: { low: number } } }[] };
    };
    const all = out.compare.tests[0] as (typeof out.compare.tests)[number];
    expect(all.scope).toBe('all');
    // The decision rule, applied by hand to every test the output lists.
    expect(r.code).toBe(out.compare.tests.some((t) => !(t.comparison.difference.low > -0.5)) ? 4 : 0);
    expect(all.worse).toBe(!(all.comparison.difference.low > -0.5));
    expect((await check([...args, '--margin', '2'])).code).toBe(2);
  });

  it('exit 0 the other way round, and JSON carries the test', async () => {
    const r = await check([
      '--store',
      failing,
      '--compare',
      'fragile,steady',
      '--protocol',
      'ladder',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      compare: { better: boolean; comparison: { mcnemar: { b: number; c: number } } };
    };
    expect(out.compare.better).toBe(true);
    expect(out.compare.comparison.mcnemar).toMatchObject({ b: 0, c: 90 });
  });

  it('two protocols with both models need --protocol', async () => {
    const r = await check(['--store', failing, '--compare', 'steady,fragile']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'waver: --protocol: both a ladder and a paraphrase suite have both models: pass --protocol ladder|paraphrase',
    );
  });
});

describe('waver check: bad input is exit 2 with one line, and reads nothing', () => {
  it('an unknown family', async () => {
    const r = await check(['--store', failing, '--min-stability', 'XX=0.8']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "waver: --min-stability: unknown family 'XX' (one of SV, IQ, F, CI, CL, CIS, KB, or all)",
    );
  });

  it('a missing store is not created', async () => {
    const missing = join(dir, 'nope.db');
    const r = await check(['--store', missing, '--min-saa', '0.5']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `waver: ${missing}: --store: store not found: a run writes one (waver run, ladder, sago or paraphrase); --store names another`,
    );
    expect(existsSync(missing)).toBe(false);
  });

  it('nothing to check', async () => {
    const r = await check(['--store', passing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nothing to check/);
  });
});
