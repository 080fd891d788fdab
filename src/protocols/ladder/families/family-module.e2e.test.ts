import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, cleanEnv, runCli } from '../../../cli/test-support/cli.js';
import { type Loopback, sendJson, startLoopback } from '../../../models/test-support/loopback.js';
import { repoRoot } from '../../../test-support/shared.js';
import { pyStrip } from '../../../text-measures/python.js';
import type { LadderTest } from '../types.js';

/**
 * A ladder family added from a test folder and nothing else (docs/architecture.md#adding-a-ladder-family):
 * its module (test-support/greeting-family.mjs, plain JavaScript), named in waver.yaml's
 * `ladder.familyModules`, is built, run, scored, reported, checked and read back through the CLI
 * like the seven, against an endpoint on loopback that answers each question's gold unless it
 * is greeted four times or more: Greeting's accuracy falls at L4, its Collapse Point.
 */

beforeAll(assertBuilt);

const MODULE = resolve(repoRoot, 'src/protocols/ladder/families/test-support/greeting-family.mjs');
const SEEDS = 3;
let server: Loopback;
let byQuestion = new Map<string, LadderTest>();

beforeAll(async () => {
  server = await startLoopback((_req, res, seen) => {
    if (seen.method === 'GET')
      return sendJson(res, 200, { object: 'list', data: [{ id: 'sut', object: 'model' }] });
    const body = JSON.parse(seen.body) as { model: string; messages: { role: string; content: string }[] };
    const test = byQuestion.get(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
    const greeted = test?.family === 'GR' && (test.measuredLevel ?? 0) >= 4;
    const content = JSON.stringify({ answer: test && !greeted ? String(test.gold) : '-1' });
    sendJson(res, 200, {
      id: 'chatcmpl-loopback',
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
});
afterAll(() => server?.close());

function workdir(ladder: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'waver-family-module-'));
  writeFileSync(join(dir, 'waver.yaml'), `ladder:\n${ladder}  seeds: ${SEEDS}\n  resamples: 200\n`);
  return dir;
}

const withModule = (dir: string) => `  familyModules:\n    - ${relative(dir, MODULE)}\n`;

function cli(args: string[], cwd: string): Promise<CliResult> {
  return runCli(args, { cwd, env: cleanEnv({ OPENAI_API_KEY: 'sk-loopback' }) });
}

interface FamilyJson {
  family: string;
  name: string;
  overall: { n: number; accuracy: { value: number | null } };
  levels: Record<string, { n: number; accuracy: { value: number | null } }>;
  collapsePoint: { status: string; value: string };
}

describe("a family from waver.yaml's ladder.familyModules", () => {
  it('is built, run, scored and read back in the summary, the report (md, json, csv, html) and the check', async () => {
    const dir = workdir('  families: [GR, SV]\n');
    writeFileSync(
      join(dir, 'waver.yaml'),
      `${readFileSync(join(dir, 'waver.yaml'), 'utf8')}${withModule(dir)}`,
    );
    // The rules suite is deterministic: the one `waver ladder` builds is this one, so the endpoint
    // can look each question up.
    const built = await cli(['suite', 'build', '--protocol', 'ladder', '--out', 'suite.jsonl'], dir);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/\| Greeting \(GR\) \|/);
    // Read as lines: this process has not registered the family, as the CLI's has.
    const tests = readFileSync(join(dir, 'suite.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LadderTest);
    byQuestion = new Map(tests.map((t) => [`QUESTION: ${pyStrip(t.text)}`, t]));
    const greetings = tests.filter((t) => t.family === 'GR');
    expect(greetings.map((t) => t.measuredLevel).sort()).toEqual(
      [1, 2, 3, 4, 5].flatMap((k) => Array(SEEDS).fill(k)),
    );

    const models = ['--models', `openai:sut@${server.origin}/v1`];
    const r = await cli(['ladder', ...models, '--format', 'json', '--out', 'summary.json'], dir);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
      models: { families: FamilyJson[] }[];
    };
    const gr = summary.models[0]?.families.find((f) => f.family === 'GR');
    expect(gr).toMatchObject({ name: 'Greeting', overall: { n: SEEDS * 5 } });
    expect([1, 2, 3, 4, 5].map((k) => gr?.levels[`L${k}`]?.accuracy.value)).toEqual([1, 1, 1, 0, 0]);
    expect(gr?.collapsePoint).toMatchObject({ status: 'collapsed', value: 'L4' });
    expect(summary.models[0]?.families.find((f) => f.family === 'SV')?.overall.accuracy.value).toBe(1);

    for (const out of ['report.md', 'report.json', 'report.csv', 'report.html']) {
      const rep = await cli(['report', '--out', out], dir);
      expect(rep.code, rep.stderr).toBe(0);
    }
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(/\| Greeting \(GR\) \| .*\| L4 \|/);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toContain('"name": "Greeting"');
    expect(readFileSync(join(dir, 'report.csv'), 'utf8')).toMatch(/,GR,L5,/);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('Greeting (GR)');

    // `waver check` gates on it by its code, and fails its collapse.
    const check = await cli(['check', '--no-collapse-at-or-below', 'GR=4', '--format', 'json'], dir);
    expect(check.code, check.stdout + check.stderr).toBe(4);
    expect(JSON.parse(check.stdout).thresholds.rows).toContainEqual(
      expect.objectContaining({ metric: 'Collapse Point GR', pass: false }),
    );

    // Without its module the stored suite is not read as one the ladder wrote: the report's ladder
    // section is unavailable, saying why (the report shell's way with a section it cannot rebuild).
    writeFileSync(join(dir, 'waver.yaml'), 'ladder:\n  seeds: 3\n');
    const without = await cli(['report', '--out', 'again.md'], dir);
    expect(without.code, without.stderr).toBe(0);
    expect(readFileSync(join(dir, 'again.md'), 'utf8')).toMatch(
      /could not be rebuilt: .*meta\.family: unknown family 'GR' \(expected some of SV, IQ, F, CI, CL, CIS, KB\)/,
    );
  }, 180_000);

  it('an unknown code in ladder.families: exit 2 naming the file, line and field, nothing written', async () => {
    const dir = workdir(`  families:\n    - SV\n    - GX\n`);
    writeFileSync(
      join(dir, 'waver.yaml'),
      `${readFileSync(join(dir, 'waver.yaml'), 'utf8')}${withModule(dir)}`,
    );
    const r = await cli(['ladder', '--models', `openai:sut@${server.origin}/v1`, '--store', 'store.db'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /waver: waver\.yaml:4: ladder\.families\.1: unknown family 'GX' \(expected some of SV, IQ, F, CI, CL, CIS, KB, GR\)/,
    );
    expect(readdirSync(dir)).toEqual(['waver.yaml']);
  });

  it('its code on the command line, before the module is named: exit 2 naming the flag', async () => {
    const dir = workdir('');
    const r = await cli(['ladder', '--models', `openai:sut@${server.origin}/v1`, '--families', 'GR'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--families: unknown family 'GR'/);
  });

  it('a module that is not a family: exit 2 naming the file, line and field', async () => {
    const dir = workdir('  familyModules:\n    - ./not-a-family.mjs\n');
    writeFileSync(join(dir, 'not-a-family.mjs'), "export default { code: 'NF' };\n");
    const r = await cli(['ladder', '--models', `openai:sut@${server.origin}/v1`], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /waver: waver\.yaml:3: ladder\.familyModules\.0: .*not-a-family\.mjs: its default export must be a ladder family .* it lacks name, preserves, severity/,
    );
  });
});
