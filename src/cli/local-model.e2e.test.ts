import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG } from '../protocols/index.js';
import {
  assertBuilt,
  cleanEnv,
  exportedCells,
  runCli,
  servedUrl,
  startCli,
} from '../test-support/cli/cli.js';
import { tinyModelMissing, tinyModelPath } from '../test-support/shared.js';

beforeAll(assertBuilt);

const withModel = tinyModelPath ? describe : describe.skip;

withModel(`the CLI with the real tiny model ${tinyModelMissing ?? ''}`, () => {
  const model = `gguf:${tinyModelPath}`;

  it('waver demo runs end to end from WAVER_MODEL, reads its verdicts from the store and writes the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-demo-'));
    const r = await runCli(['demo'], { cwd: dir, env: cleanEnv({ WAVER_MODEL: model }) });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\| 12 \| 12 \| 0 \| 0 \| 0 \| 100\.0% \| complete \|/);
    expect(r.stdout).toMatch(
      /accuracy \d+\.\d% \[95% Wilson CI .*\] over n=12 cells \(4 items x 3 phrasings\)/,
    );
    expect(r.stdout).toMatch(/Stability-Adjusted Accuracy/);
    const report = readFileSync(join(dir, '.waver/report.html'), 'utf8');
    expect(report).toMatch(/^<!doctype html>/i);
    // Again: everything comes from the store, nothing is generated twice.
    const again = await runCli(['demo', '--format', 'json'], {
      cwd: dir,
      env: cleanEnv({ WAVER_MODEL: model }),
    });
    expect(again.code).toBe(0);
    const out = JSON.parse(again.stdout) as { run: { summary: { calls: number } }; report: string };
    expect(out.run.summary.calls).toBe(0);
    expect(out.report).toBe('.waver/report.html');
  }, 180_000);

  it('a ladder run with cells over the context exits 3 and says why, each kind with its count and first message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-ladder-ctx-'));
    // A 384-token context: the two longest Context Load prompts (over 384 tokens) do not fit, the rest do.
    // The rules suite, whose CL L5 prompts these are (a plain run reads the reviewed default suite).
    const args = [
      'ladder',
      '--models',
      `${model}?ctx=384`,
      '--limit',
      '3',
      '--families',
      'CL',
      '--levels',
      '5',
      '--max-tokens',
      '8',
    ];
    // The default suite's CL L5 (the rules write no CL, E62): 9 of 12 cells fit, and the metrics
    // stand at this coverage.
    writeFileSync(join(dir, 'waver.yaml'), 'minCoverage: 0.7\n');
    const r = await runCli(args, { cwd: dir });
    expect(r.code, r.stderr).toBe(3);
    const lines = r.stderr.trim().split('\n').slice(-2);
    expect(lines[0]).toMatch(
      /^waver: ladder\/tests · gguf:\S+stories260K\.gguf\?ctx=384: 9 of 12 done, failed 3: client 3 — "the prompt \(\d+ tokens\) plus one generated token needs \d+ tokens but the context holds 384; raise the context with \?ctx=512 on the model spec/,
    );
    expect(lines[1]).toBe(
      'waver: incomplete: re-run the same command to retry the failed and pending cells (9 cells done, 3 failed, 0 pending; stored cells are not called again)',
    );
    expect(r.stdout).toContain(
      '3 failed (scored incorrect) (client 3), 0 pending — incomplete (re-run to retry them); the metrics stand, coverage being above minCoverage.',
    );
  }, 120_000);

  it('waver serve answers a waver run through the openai: provider, and stops on SIGTERM', async () => {
    const server = startCli(['serve', '--model', model, '--port', '0']);
    const url = await servedUrl(server);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'waver-serve-'));
      const suite = join(dir, 'suite.jsonl');
      writeFileSync(
        suite,
        `${['Once upon a time', 'The cat sat', 'Lily went to'].map((p, i) => JSON.stringify({ id: `s${i}`, prompt: p })).join('\n')}\n`,
      );
      const store = join(dir, 'store.db');
      const r = await runCli([
        'run',
        '--suite',
        suite,
        '--models',
        `openai:stories260K.gguf@${url}`,
        '--store',
        store,
        '--max-tokens',
        '16',
      ]);
      expect(r.code).toBe(0);
      const cells = await exportedCells(store);
      expect(cells).toHaveLength(3);
      for (const c of cells) {
        expect(c.status).toBe('done');
        expect(c.response.text.length).toBeGreaterThan(0);
        expect(c.response.usage.outputTokens).toBe(16);
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    const end = await server.done;
    expect(end.code).toBe(0);
  }, 120_000);

  it('waver serve refuses a non-loopback address unless told', async () => {
    const r = await runCli(['serve', '--model', model, '--host', '0.0.0.0', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/allow-remote|loopback/i);
  });
});

describe('waver schema', () => {
  // The schema is written by the build (`npm run build`), never committed: a protocol's section
  // joins it from the registry, so a new protocol changes no file outside its folder.
  it('prints the config schema, and writes it to --out', async () => {
    const r = await runCli(['schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(CONFIG.jsonSchema());
    const out = join(mkdtempSync(join(tmpdir(), 'waver-schema-')), 'waver.schema.json');
    expect((await runCli(['schema', '--out', out])).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(CONFIG.jsonSchema());
  });
});
