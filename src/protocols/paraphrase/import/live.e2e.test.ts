import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../../../test-support/cli/cli.js';
import {
  LM_EVAL_RUNS,
  PROMPTFOO_RESULTS,
} from '../../../test-support/protocols/paraphrase/import/fixtures.js';
import { repoRoot, sharedFile, tinyModelMissing } from '../../../test-support/shared.js';

/**
 * The fixtures' tools run again, here, where they are installed: lm-evaluation-harness
 * (`WAVER_LM_EVAL` names the binary, default `lm_eval`) and promptfoo (`WAVER_PROMPTFOO` names the
 * command, e.g. `node22 .../promptfoo`, default `promptfoo`), each against `waver serve` over the two
 * tiny models, by the scripts that made the fixtures; their output imported as the fixtures are.
 * Each skips with its reason where its tool, or a model, is absent.
 */

beforeAll(assertBuilt);

const LM_EVAL = process.env.WAVER_LM_EVAL ?? 'lm_eval';
const PROMPTFOO = process.env.WAVER_PROMPTFOO ?? 'promptfoo';
const otherModelMissing = sharedFile('models/llama-2-tiny-random.gguf')
  ? undefined
  : 'skipped: ../shared/models/llama-2-tiny-random.gguf is not there';
const modelsMissing = tinyModelMissing ?? otherModelMissing;

// promptfoo refuses its default database under a test runner (VITEST is set): a folder of its own.
const PROMPTFOO_ENV = {
  ...process.env,
  PROMPTFOO_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'waver-promptfoo-config-')),
};

function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { encoding: 'utf8', env: PROMPTFOO_ENV, timeout: 180_000 }).status === 0;
}
const lmEvalMissing =
  modelsMissing ??
  (runs(LM_EVAL, ['--help'])
    ? undefined
    : `skipped: ${LM_EVAL} is not installed (pip install lm-eval, or set WAVER_LM_EVAL)`);
const [pfBin, ...pfArgs] = PROMPTFOO.split(' ');
const promptfooMissing =
  modelsMissing ??
  (runs(pfBin as string, [...pfArgs, '--version'])
    ? undefined
    : `skipped: ${PROMPTFOO} does not run (npm i promptfoo@0.123 with Node 22, or set WAVER_PROMPTFOO)`);

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Each model's SAA and raw accuracy from `waver import ... --format json`. */
async function figuresOf(kind: string, inputs: string[], dir: string, name: string) {
  const store = join(dir, `${name}.db`);
  const r = await runCli(['import', kind, ...inputs, '--store', store, '--format', 'json'], {
    cwd: dir,
    env: cleanEnv(),
  });
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout);
  const models = out.figures[0].models as {
    label: string;
    metrics: { saa: { value: number }; rawAccuracy: { value: number }; coverage: { share: number } };
  }[];
  return { out, byModel: Object.fromEntries(models.map((m) => [m.label, m.metrics])) };
}

describe.skipIf(lmEvalMissing !== undefined)(
  `lm_eval runs again, then waver import lm-eval ${lmEvalMissing ?? ''}`,
  () => {
    it('greedy log-likelihoods through waver serve: the same verdicts and figures as the committed fixture', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-live-lm-eval-'));
      const made = await run(
        'python3',
        ['bench/clients/lm-eval-import.py', join(dir, 'runs'), LM_EVAL],
        process.env,
      );
      expect(made.code, made.output.slice(-3000)).toBe(0);
      const fresh = await figuresOf(
        'lm-eval',
        [join(dir, 'runs', 'stories260K'), join(dir, 'runs', 'llama-2-tiny-random')],
        dir,
        'fresh',
      );
      const fixture = await figuresOf('lm-eval', [LM_EVAL_RUNS], dir, 'fixture');
      expect(fresh.out.check).toEqual({ checked: 36, agree: 36 });
      expect(fresh.byModel).toEqual(fixture.byModel);
    }, 600_000);
  },
);

describe.skipIf(promptfooMissing !== undefined)(
  `promptfoo eval again, then waver import promptfoo ${promptfooMissing ?? ''}`,
  () => {
    it("2 prompts x 2 providers x 4 test cases x --repeat 3: every cell imported, the fixture's shape", async () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-live-promptfoo-'));
      const out = join(dir, 'results.json');
      const env = {
        ...process.env,
        PROMPTFOO,
        PORT_A: String(await freePort()),
        PORT_B: String(await freePort()),
      };
      const made = await run('sh', ['bench/clients/promptfoo-import/make.sh', out], env);
      expect(made.code, made.output.slice(-3000)).toBe(0);
      const fresh = await figuresOf('promptfoo', [out], dir, 'fresh');
      const fixture = await figuresOf('promptfoo', [PROMPTFOO_RESULTS], dir, 'fixture');
      expect(fresh.out.evals[0].results).toBe(48);
      expect(Object.keys(fresh.byModel).sort()).toEqual(Object.keys(fixture.byModel).sort());
      for (const m of Object.values(fresh.byModel)) expect(m.coverage.share).toBe(1);
      expect(fresh.out.suites[0]).toMatchObject({ items: 4, variants: ['plain', 'story'] });
    }, 600_000);
  },
);
