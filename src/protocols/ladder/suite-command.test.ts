import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InputError } from '../../errors.js';
import { CLI_CONTEXT } from '../../test-support/cli/cli.js';
import { Recording, SEED_A, scratchDir } from '../../test-support/protocols/ladder/fakes.js';
import type { ProtocolModule } from '../adapters.js';
import type { RunOutcome } from '../types.js';
import { parseLevels } from './config.js';
import { resolveLadderSeeds } from './data/datasets.js';
import { generatorRequest } from './families/model-generator.js';
import { ladderFamily } from './families/registry.js';
import type { LadderPlan } from './protocol.js';
import type { LadderSectionData } from './report-section.js';
import type { LadderResults } from './results.js';
import { suiteCommand } from './suite-command.js';
import { readLadderSuite } from './suite-file.js';
import { answerTypeOf } from './types.js';

/** The ladder with its adapters, as the CLI hands it to its commands. */
const ladderProtocol = CLI_CONTEXT.protocols.find((p) => p.name === 'ladder') as ProtocolModule<
  LadderPlan,
  LadderSectionData,
  RunOutcome<LadderResults>
>;

/**
 * `waver suite build` in process: what it writes, what
 * it prints, and that bad input writes nothing.
 */

const dir = scratchDir('waver-suite-cli-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

async function suiteBuild(args: string[]): Promise<void> {
  await suiteCommand(ladderProtocol, CLI_CONTEXT).parseAsync(
    ['build', '--store', join(dir, 'store.db'), ...args],
    { from: 'user' },
  );
}

async function inputError(args: string[], field: string, message: RegExp): Promise<void> {
  const e = await suiteBuild(args).catch((x: unknown) => x);
  expect(e, String(e)).toBeInstanceOf(InputError);
  expect((e as InputError).field).toBe(field);
  expect((e as InputError).message).toMatch(message);
}

describe('waver suite build --protocol ladder', () => {
  it('builds the built-in rules suite byte-identically twice, with the admission table on stdout and in a file', async () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    const rules = ['--generate', 'rules', '--seed', '3'];
    await suiteBuild(['--protocol', 'ladder', '--out', a, '--admission', join(dir, 'a.md'), ...rules]);
    const firstOut = stdout;
    stdout = '';
    await suiteBuild(['--protocol', 'ladder', '--out', b, '--admission', join(dir, 'b.md'), ...rules]);
    expect(process.exitCode).toBe(0);
    expect(readFileSync(a)).toEqual(readFileSync(b));
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toBe(firstOut);
    expect(stdout).toBe(firstOut);
    expect(firstOut).toMatch(/## Ladder suite admission \(Table 3\) — \d+ seeds, generator: rules/);
    expect(firstOut).toMatch(/\| Knowledge Boundary \(KB\) \| \d+ \| \d+ \|/);
    // No judge: the table and the summary line say that the meaning was never checked.
    expect(firstOut).toMatch(/\*\*Meaning not verified: \d+ of \d+ perturbed tests were admitted without/);
    expect(stderr).toMatch(
      /^meaning not verified: \d+ of \d+ perturbed tests .*; pass --judge SPEC to check it$/m,
    );
    const tests = readLadderSuite(a);
    expect(tests.filter((t) => t.family === 'baseline').length).toBeGreaterThanOrEqual(40);
    // No temporary file left beside the outputs.
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    // Two CLI builds of the built-in suite; rejecting out-of-band candidates means more attempts.
  }, 180_000);

  it('with no dataset and no generator builds the default suite, the reviewed dataset, the same bytes every time', async () => {
    const a = join(dir, 'default-a.jsonl');
    const b = join(dir, 'default-b.jsonl');
    await suiteBuild(['--protocol', 'ladder', '--out', a, '--seeds', '4']);
    const firstOut = stdout;
    stdout = '';
    await suiteBuild(['--protocol', 'ladder', '--out', b, '--seeds', '4', '--seed', '9']);
    expect(readFileSync(a)).toEqual(readFileSync(b));
    expect(firstOut).toMatch(
      /## Ladder suite admission \(Table 3\) — 4 seeds, generator: reviewed dataset ladder-default v2 \(criteria ladder-default-review\/2\)/,
    );
    expect(firstOut).not.toMatch(/Meaning not verified/);
    const tests = readLadderSuite(a).filter((t) => t.family !== 'baseline');
    expect(tests.length).toBeGreaterThan(0);
    for (const t of tests) {
      expect(t.generator).toMatchObject({ kind: 'reviewed', dataset: 'ladder-default', version: 2 });
      expect(t.gates.map((g) => g.gate)).toContain('review');
    }
  });

  it('writes the admission table as JSON with --format json, for the families and levels asked', async () => {
    const out = join(dir, 'some.jsonl');
    await suiteBuild([
      '--protocol',
      'ladder',
      '--out',
      out,
      '--families',
      'CIS,KB',
      '--levels',
      '1,5',
      '--format',
      'json',
    ]);
    const table = JSON.parse(stdout);
    expect(table.table).toBe('ladder-admission');
    expect(table.families.map((r: { family: string }) => r.family)).toEqual(['CIS', 'KB']);
    const levels = new Set(
      readLadderSuite(out)
        .filter((t) => t.family !== 'baseline')
        .map((t) => t.requestedLevel),
    );
    expect(levels).toEqual(new Set([1, 5]));
  });

  it('its help lists only the flags that apply: no system under test, no dry run', async () => {
    const build = (await suiteCommand(ladderProtocol, CLI_CONTEXT)).commands.find(
      (c) => c.name() === 'build',
    );
    const flags = build?.options.map((o) => o.long) ?? [];
    expect(flags).toEqual(expect.arrayContaining(['--generator', '--judge', '--dataset', '--seed', '--out']));
    for (const ignored of [
      '--models',
      '--temperature',
      '--max-tokens',
      '--repeats',
      '--embedder',
      '--dry-run',
    ])
      expect(flags).not.toContain(ignored);
  });

  it('rejects bad input with one error naming the key, and writes nothing', async () => {
    const out = join(dir, 'bad.jsonl');
    await inputError(
      ['--protocol', 'ladder', '--out', out, '--families', 'SV,XY'],
      '--families',
      /unknown family 'XY'/,
    );
    await inputError(
      ['--protocol', 'ladder', '--out', out, '--levels', '1,9'],
      '--levels',
      /unknown level '9'/,
    );
    await inputError(
      ['--protocol', 'ladder', '--out', out, '--levels', 'two'],
      '--levels',
      /unknown level 'two'/,
    );
    await inputError(['--protocol', 'sago', '--out', out], '--protocol', /unknown protocol 'sago'/);
    await inputError(['--out', out], '--protocol', /no protocol/);
    await inputError(['--protocol', 'ladder'], '--out', /no output file/);
    const config = join(dir, 'waver.yaml');
    writeFileSync(
      config,
      [
        'ladder:',
        '  bands:',
        '    IQ:',
        '      - [0, 0.05]',
        '      - [0.03, 0.10]',
        '      - [0.02, 0.18]',
        '      - [0.15, 0.30]',
        '      - [0.25, 0.50]',
        '',
      ].join('\n'),
    );
    const e = await suiteBuild(['--protocol', 'ladder', '--out', out, '--config', config]).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).format()).toMatch(/waver\.yaml:\d+: ladder\.bands\.IQ\.2: .*not increasing/);
    expect(existsSync(out)).toBe(false);
  });

  it('builds with a generator model named by --generator (a replay recording), the same bytes twice', async () => {
    const data = join(dir, 'seeds.jsonl');
    writeFileSync(
      data,
      `${JSON.stringify({ question: SEED_A.question, answer: 'Mia has 36 - 5 = 31.\n#### 31' })}\n`,
    );
    const [seed] = await resolveLadderSeeds(data);
    if (!seed) throw new Error('no seed loaded');
    const rec = new Recording(dir, 'cli-gen.jsonl');
    const paraphrase = SEED_A.question.replace('Mia buys', 'Mia gets').replace('gives', 'hands');
    for (const attempt of [1, 2])
      rec.add(generatorRequest(ladderFamily('SV'), { seed, family: 'SV', level: 1, attempt }), paraphrase);
    const args = (out: string) => [
      '--protocol',
      'ladder',
      '--out',
      out,
      '--dataset',
      data,
      '--generator',
      rec.spec,
      '--families',
      'SV',
      '--levels',
      '1',
    ];
    await suiteBuild(args(join(dir, 'm1.jsonl')));
    expect(stdout).toContain(`generator: ${rec.spec}`);
    await suiteBuild(args(join(dir, 'm2.jsonl')));
    expect(readFileSync(join(dir, 'm1.jsonl'))).toEqual(readFileSync(join(dir, 'm2.jsonl')));
    const [, sv] = readLadderSuite(join(dir, 'm1.jsonl'));
    expect(sv).toMatchObject({ family: 'SV', text: paraphrase, generator: { kind: 'model' } });
    expect(sv?.gates.filter((g) => g.verdict === 'not-run').map((g) => g.gate)).toEqual(['nli', 'meaning']);
  });

  it('takes families, levels, seeds and attempts from the ladder section of waver.yaml when no flag says otherwise', async () => {
    const config = join(dir, 'ladder.yaml');
    writeFileSync(config, ['ladder:', '  families: [KB]', '  levels: [2]', '  seeds: 3', ''].join('\n'));
    const out = join(dir, 'from-config.jsonl');
    await suiteBuild(['--protocol', 'ladder', '--out', out, '--config', config]);
    const tests = readLadderSuite(out);
    expect(tests.map((t) => `${t.family}${t.requestedLevel}`)).toEqual([
      'baseline0',
      'KB2',
      'baseline0',
      'KB2',
      'baseline0',
      'KB2',
    ]);
  });

  it('takes --seeds and --answer-type as flags: a JSONL of stems and keys read as choice seeds', async () => {
    const data = join(dir, 'choice.jsonl');
    const rows = [0, 1, 2].map((i) => ({
      question: `Which of these is item ${i}?`,
      options: ['red', 'green', 'blue', 'grey'],
      key: 'B',
    }));
    writeFileSync(data, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const out = join(dir, 'choice-suite.jsonl');
    await suiteBuild([
      '--protocol',
      'ladder',
      '--dataset',
      data,
      '--fields',
      'question=question,options=options,key=key',
      '--answer-type',
      'choice',
      '--seeds',
      '2',
      '--families',
      'F',
      '--levels',
      '1',
      '--out',
      out,
    ]);
    const tests = readLadderSuite(out);
    expect(tests.filter((t) => t.family === 'baseline')).toHaveLength(2);
    expect(new Set(tests.map((t) => answerTypeOf(t)))).toEqual(new Set(['choice']));
  });

  it('parses the family and level lists', async () => {
    expect(parseLevels('1,5')).toEqual([1, 5]);
    expect(() => parseLevels('0')).toThrow(/unknown level '0'/);
    await inputError(
      ['--protocol', 'ladder', '--out', join(dir, 'none.jsonl'), '--families', ','],
      '--families',
      /no family given/,
    );
  });
});
