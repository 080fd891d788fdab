import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';

beforeAll(assertBuilt);

/** Two seeds with no price, fee or wage and one with a fee: the rules write KB L3 on the last only. */
const SEEDS = [
  {
    question:
      'There are 6 girls and 8 boys in the park. 3 more girls come. How many children are in the park?',
    answer: '6+8+3=<<6+8+3=17>>17\n#### 17',
  },
  {
    question: 'Mia has 12 apples. She gives 5 apples to Tom. How many apples does Mia have now?',
    answer: '12-5=<<12-5=7>>7\n#### 7',
  },
  {
    question: 'The plumber charges $40 an hour. He works 3 hours on Monday. How much does he charge?',
    answer: '40*3=<<40*3=120>>120\n#### 120',
  },
];

function build(dir: string, extra: string[]) {
  return runCli(
    [
      'suite',
      'build',
      '--protocol',
      'ladder',
      '--dataset',
      'seeds.jsonl',
      '--families',
      'KB',
      '--out',
      'x.jsonl',
      '--store',
      's.db',
      ...extra,
    ],
    { cwd: dir, env: cleanEnv() },
  );
}

describe('waver suite build: where the rules write a level (docs/ladder-suite.md#rules-scope)', () => {
  it('says after the by-level table that KB L3 is on 1 of 3 seeds and why, the same bytes twice, and in JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-rules-scope-'));
    writeFileSync(join(dir, 'seeds.jsonl'), `${SEEDS.map((s) => JSON.stringify(s)).join('\n')}\n`);
    const md = await build(dir, []);
    expect(md.code, md.stderr).toBe(0);
    const after = md.stdout.slice(md.stdout.indexOf('Admitted tests by measured level'));
    expect(after).toContain('| Knowledge Boundary (KB) | 3 | 3 | 1 | 1 | 3 | 0 | 11 |');
    expect(after).toContain(
      '**KB L3 on 1 of 3 seeds**: the rules write it only on a problem with a price, fee or wage told in the present',
    );
    expect(after).toContain('(docs/ladder-families.md#kb-l3); `--generator SPEC` writes it on the others.');
    // L4 is on one seed since E75 (a public property of an invented thing), said too; L2 and L5
    // are on every seed: nothing to say.
    expect(after).toContain('**KB L4 on 1 of 3 seeds**');
    expect(after).not.toMatch(/KB L[125] on/);
    expect((await build(dir, [])).stdout).toBe(md.stdout);

    const json = JSON.parse((await build(dir, ['--format', 'json'])).stdout);
    expect(json.rulesScope).toEqual([
      expect.objectContaining({
        family: 'KB',
        level: 'L3',
        admitted: 1,
        seeds: 3,
        doc: 'docs/ladder-families.md#kb-l3',
      }),
      expect.objectContaining({
        family: 'KB',
        level: 'L4',
        admitted: 1,
        seeds: 3,
        doc: 'docs/ladder-families.md#kb-l4',
      }),
    ]);

    // A level not built is not one the rules left empty.
    const l12 = await build(dir, ['--levels', '1,2']);
    expect(l12.code, l12.stderr).toBe(0);
    expect(l12.stdout).not.toMatch(/rules write it only/);
  });
});
