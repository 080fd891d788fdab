import { describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../test-support/cli/cli.js';

/**
 * Every command's help and parse errors through the built CLI (issue 37 item 7): wrapped to 80
 * columns when stdout is not a terminal, defaults as typed, an unquoted list split by a space named
 * with its fix, and one name per flag across commands, former names taken with a note.
 */

const env = cleanEnv();
const COMMANDS = [
  'demo',
  'ladder',
  'suite',
  'sago',
  'paraphrase',
  'run',
  'import',
  'report',
  'check',
  'view',
  'judge',
  'plan',
  'serve',
  'export',
  'merge',
  'schema',
];
/** A model no run reaches: a dry run calls nothing. */
const MODEL = 'openai:m@http://127.0.0.1:9/v1';

describe('help', () => {
  it('every command wraps to 80 columns when stdout is not a terminal (check was 187)', async () => {
    assertBuilt();
    for (const name of COMMANDS) {
      const r = await runCli([name, '--help'], { env });
      expect(r.code).toBe(0);
      const wide = r.stdout.split('\n').filter((l) => l.length > 80);
      expect({ name, wide }).toEqual({ name, wide: [] });
    }
  });

  it('prints defaults as typed, and no empty list', async () => {
    const serve = (await runCli(['serve', '--help'], { env })).stdout;
    expect(serve).toMatch(/port \(0 = any free port\) \(default: 8080\)/);
    expect(serve).not.toContain('"');
    const check = (await runCli(['check', '--help'], { env })).stdout;
    expect(check).not.toContain('(default: [])');
    expect(check).toMatch(/SQLite store \(default: \.waver\/store\.db\)/);
    // A flag longer than the column: on its own line, its description below.
    expect(check).toMatch(/\n {2}--no-collapse-at-or-below <\[FAMILY=\]LEVEL>\n {10,}fail on a ladder/);
  });
});

describe('parse errors and early checks', () => {
  it('`--models A, B` names the list split by a space and its fix, exit 2', async () => {
    const r = await runCli(['ladder', '--models', 'openai:a,', 'openai:b'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: --models 'openai:a,' ends with a comma and 'openai:b' came as another argument: a list is one argument, without spaces after its commas: --models "openai:a,openai:b" or --models openai:a,openai:b`,
    );
    expect(r.stderr).not.toContain('too many arguments');
  });

  it('a protocol without --models stops before building anything', async () => {
    const r = await runCli(['ladder'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no model to run: pass --models SPEC[,SPEC]');
    // The suite's build said "ladder: attempt 1: 1680 candidates to generate" first (3.5 s).
    expect(r.stderr).not.toMatch(/candidates|building the suite/);
  });
});

describe('one flag per concept', () => {
  it('the number of items is --limit everywhere; --seeds and --n still work, with a note', async () => {
    const help = (await runCli(['ladder', '--help'], { env })).stdout;
    expect(help).toContain('--limit <n>');
    expect(help).not.toContain('--seeds');
    const sagoHelp = (await runCli(['sago', '--help'], { env })).stdout;
    expect(sagoHelp).toMatch(/--limit <n>/);
    expect(sagoHelp).toMatch(/--dataset <name>\s+comma-separated: truthfulqa/);
    expect(sagoHelp).not.toMatch(/--n <n>|--datasets/);
    const dry = ['--models', MODEL, '--dry-run', '--format', 'json'];
    const ladder = await runCli(['ladder', ...dry, '--seeds', '2'], { env });
    expect(ladder.code).toBe(0);
    expect(ladder.stderr.split('\n')[0]).toBe(
      'waver: --seeds is deprecated: use --limit (one name in every command)',
    );
    const limit = await runCli(['ladder', ...dry, '--limit', '2'], { env });
    expect(limit.stderr).not.toContain('deprecated');
    // The same plan under either name.
    expect(JSON.parse(limit.stdout)).toEqual(JSON.parse(ladder.stdout));
    const sago = await runCli(['sago', ...dry, '--n', '2', '--datasets', 'builtin', '--families', 'noise'], {
      env,
    });
    expect(sago.code).toBe(0);
    expect(sago.stderr).toContain('waver: --n is deprecated: use --limit');
    expect(sago.stderr).toContain('waver: --datasets is deprecated: use --dataset');
    expect(sago.stderr).toContain('sago dry run: 2 prompts');
  });

  it('--format is md|json in every command; text is taken as md with a note', async () => {
    const plan = await runCli(['plan', '--design', 'two-proportions', '--p', '0.8,0.7', '--format', 'text'], {
      env,
    });
    expect(plan.code).toBe(0);
    expect(plan.stderr).toBe(
      'waver: --format text is deprecated: use --format md (one word in every command)\n',
    );
    expect(plan.stdout).toContain('n = 294 items per arm');
    const md = await runCli(['plan', '--design', 'two-proportions', '--p', '0.8,0.7', '--format', 'md'], {
      env,
    });
    expect(md.stdout).toBe(plan.stdout);
    const bad = await runCli(['plan', '--design', 'two-proportions', '--p', '0.8,0.7', '--format', 'csv'], {
      env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Allowed choices are md, json.');
  });
});
