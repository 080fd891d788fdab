import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../../test-support/cli/cli.js';
import { tinyModelMissing, tinyModelPath } from '../../../test-support/shared.js';

beforeAll(assertBuilt);

const withModel = tinyModelPath ? describe : describe.skip;

// An offline suite can be gated by a local GGUF judge, not only labelled unverified. The
// tiny model cannot judge (its replies are not JSON): what is checked is the pipeline, every
// model gate asked of the local judge and its unreadable verdicts failing closed, with the reason.
withModel(`suite build --judge gguf: with the real tiny model ${tinyModelMissing ?? ''}`, () => {
  it('runs the epistemic and meaning gates through the local model and fails closed on what it cannot read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-gguf-judge-'));
    const seeds = join(dir, 'seeds.csv');
    writeFileSync(
      seeds,
      [
        'original_id,local_row,question,answer,ground_truth',
        '1,1,"Ben has 4 tubes of blue paint and 3 tubes of yellow paint. How many tubes does he have?","He has 4+3=<<4+3=7>>7 tubes.\n#### 7",7',
        '2,2,"Ann works 8 hours a day. She earns $10 an hour. How much does she earn in a day?","She earns 8*10=<<8*10=80>>80 dollars.\n#### 80",80',
      ].join('\n'),
    );
    const out = join(dir, 'suite.jsonl');
    const args = ['suite', 'build', '--protocol', 'ladder', '--dataset', seeds, '--families', 'KB,CIS'];
    const r = await runCli(
      [
        ...args,
        '--levels',
        '5',
        '--judge',
        `gguf:${tinyModelPath}`,
        '--store',
        join(dir, 'store.db'),
        '--out',
        out,
        '--format',
        'json',
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(r.code, r.stderr).toBe(0);
    const table = JSON.parse(r.stdout) as {
      meaningVerified: boolean;
      gates: string[];
      total: { candidates: number; admitted: number; rejectedByGate: Record<string, number> };
    };
    // Gated, not labelled unverified: the meaning and epistemic gates were the local model's.
    expect(table.meaningVerified).toBe(true);
    expect(table.gates).toEqual(expect.arrayContaining(['meaning', 'epistemic']));
    // Nothing was admitted on the offline gates alone: the judge was asked of every candidate.
    const tests = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { family: string; gates: { gate: string; verdict: string; reason: string }[] },
      );
    for (const t of tests.filter((x) => x.family !== 'baseline'))
      for (const g of t.gates.filter((x) => ['epistemic', 'meaning', 'nli'].includes(x.gate)))
        expect(g.verdict).not.toBe('not-run');
    // The tiny model writes no verdict a gate can read: every candidate is refused (fail closed).
    expect(table.total.candidates).toBeGreaterThan(0);
    expect(table.total.admitted).toBe(0);
    const rejected = Object.values(table.total.rejectedByGate).reduce((a, b) => a + b, 0);
    expect(rejected).toBe(table.total.candidates);
  }, 300_000);
});
