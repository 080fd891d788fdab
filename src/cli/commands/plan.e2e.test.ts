import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ladderSuiteJsonl, ladderTestId } from '../../protocols/ladder/suite-file.js';
import type { LadderTest } from '../../protocols/ladder/types.js';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';

/**
 * `waver plan --suite` through the built CLI: the ladder designs read a suite file's fill (the
 * seeds with a test at each family and level) and the repeats from waver.yaml, which
 * `--repeats` and `--baseline-repeats` override.
 */

const env = cleanEnv();
const dir = mkdtempSync(join(tmpdir(), 'waver-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(assertBuilt);

function test(seed: number, family: LadderTest['family'], level: 0 | 1 | 2 | 3): LadderTest {
  const original = `Seed ${seed} has 3 apples and buys 4 more. How many apples?`;
  const t: LadderTest = {
    id: '',
    seedId: `seed${seed}`,
    family,
    requestedLevel: level,
    measuredLevel: level,
    original,
    text: level === 0 ? original : `${original} (${family} L${level})`,
    gold: 7,
    gates: [],
  };
  t.id = ladderTestId(t);
  return t;
}

// 4 seeds: a baseline each; SV at L1 (all 4), L2 (3), L3 (1); IQ at L1 (2).
const tests: LadderTest[] = [];
for (let s = 0; s < 4; s++) {
  tests.push(test(s, 'baseline', 0), test(s, 'SV', 1));
  if (s < 3) tests.push(test(s, 'SV', 2));
  if (s < 1) tests.push(test(s, 'SV', 3));
  if (s < 2) tests.push(test(s, 'IQ', 1));
}
const suite = join(dir, 'suite.jsonl');
writeFileSync(suite, ladderSuiteJsonl(tests));
const config = join(dir, 'waver.yaml');
writeFileSync(config, 'repeats: 2\nladder:\n  baselineRepeats: 5\n');

const curves = ['--curve', '0.9,0.85,0.7,0.6', '--curve-b', '0.9,0.88,0.85,0.8'];
// 0.8 vs 0.8 with discordance 0.1 at margin 0.02: an upgrade that should lose nothing.
const NON_INFERIORITY = [
  '--design',
  'non-inferiority',
  '--p',
  '0.8,0.8',
  '--discordance',
  '0.1',
  '--margin',
  '0.02',
];
const plan = (args: string[]) => runCli(['plan', ...args], { cwd: dir, env });
const json = async (args: string[]) => {
  const r = await plan([...args, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { n: number; details: Record<string, string | number> };
};

describe('waver plan --suite', () => {
  it("collapse-shift reads the family's fill and waver.yaml's repeats: the baseline asked baselineRepeats times", async () => {
    const r = await json([
      '--design',
      'collapse-shift',
      '--suite',
      suite,
      '--family',
      'SV',
      '-c',
      config,
      ...curves,
    ]);
    expect(r.details.fill).toBe('L1 4/4, L2 3/4, L3 1/4');
    expect(r.details.baselineRepeats).toBe(5);
    expect(r.details.repeats).toBe(2);
    // The cells at n as the suite scales: every seed's baseline 5 times; SV at a level for its share of seeds, twice.
    const n = r.n;
    const cells = [5 * n, 2 * n, 2 * Math.floor((3 * n) / 4), 2 * Math.floor(n / 4)];
    expect(r.details.cellsAtN).toBe(cells.map((c, l) => `L${l} ${c}`).join(', '));
  });

  it('--repeats and --baseline-repeats override the config', async () => {
    const r = await json([
      '--design',
      'collapse-shift',
      '--suite',
      suite,
      '--family',
      'SV',
      '-c',
      config,
      '--repeats',
      '1',
      '--baseline-repeats',
      '2',
      ...curves,
    ]);
    expect([r.details.baselineRepeats, r.details.repeats]).toEqual([2, 1]);
    expect((r.details.cellsAtN as string).startsWith(`L0 ${2 * r.n}, L1 ${r.n},`)).toBe(true);
  });

  it("without a suite the baseline's repeats still come from the config", async () => {
    const r = await json(['--design', 'collapse-shift', '-c', config, ...curves]);
    expect([r.details.baselineRepeats, r.details.repeats]).toEqual([5, 2]);
  });

  it('ladder-family sizes the test check --compare runs: alpha over 1 + its scopes (baseline, SV, IQ)', async () => {
    const r = await json(['--design', 'ladder-family', '--suite', suite, '--family', 'SV', '--p', '0.8,0.7']);
    expect(r.details.checkTests).toBe(4);
    expect(r.details.testAlpha).toBeCloseTo(0.05 / 4, 12);
    // ./waver.yaml is read without -c: 8 SV tests x 2 repeats over 4 seeds.
    expect(r.details.pairsPerSeed).toBe(4);
  });

  it('exit 2 on a suite without the family named, a missing file, or a design that reads no suite', async () => {
    const unnamed = await plan(['--design', 'collapse-shift', '--suite', suite, ...curves]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/2 families \(SV, IQ\): choose one with --family/);
    const missing = await plan(['--design', 'collapse-shift', '--suite', join(dir, 'none.jsonl'), ...curves]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('none.jsonl');
    const other = await plan(['--design', 'two-proportions', '--p', '0.8,0.7', '--suite', suite]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--suite sizes collapse-shift, ladder-level, ladder-family/);
  });
  it('an input a design cannot take names its own flag, exit 2', async () => {
    for (const [args, flag] of [
      [['--design', 'two-proportions', '--p', '0.9,0.9'], '--p'],
      [['--design', 'paired-proportions', '--p', '0.8,0.7', '--discordance', '0.05'], '--discordance'],
      [['--design', 'mdd', '--n', '294', '--p', '0.8', '--discordance', '0.9'], '--discordance'],
      [['--design', 'mdd', '--p', '0.8'], '--n'],
      [['--design', 'ladder-level', '--p', '0.8,0.7', '--discordance', '0.05'], '--discordance'],
      [['--design', 'non-inferiority', '--p', '0.8,0.8', '--discordance', '0.1'], '--margin'],
      [
        ['--design', 'non-inferiority', '--p', '0.8,0.77', '--discordance', '0.1', '--margin', '0.02'],
        '--margin',
      ],
      [[...NON_INFERIORITY, '--sides', '1'], '--sides'],
      [['--design', 'collapse-shift', '--curve', '0.9,0.8'], '--curve-b'],
      [['--design', 'collapse-shift', '--suite', suite, '--family', 'KB', ...curves], '--family'],
    ] as const) {
      const r = await plan([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^waver: ${flag}: `));
    }
  });

  it("non-inferiority sizes check's margin rule: 0.8 vs 0.8, discordance 0.1, margin 0.02", async () => {
    const r = await json(NON_INFERIORITY);
    // (1.95996 + 0.84162)^2 * 0.1 / 0.02^2 = 1962.2
    expect(r.n).toBe(1963);
    expect(r.details.powerAtN).toBeGreaterThanOrEqual(0.8);
  });
});
