import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * lm-evaluation-harness's `local-completions` model running a log-likelihood (multiple-choice)
 * task against `waver serve` over the tiny model: every request an `echo` + `logprobs` completion,
 * context lengths from the server's own `/tokenize` (`tokenizer_backend=remote`). Skips with the
 * reason where `lm_eval` is not installed (`pip install lm-eval`; WAVER_LM_EVAL names the binary).
 */
const LM_EVAL = process.env.WAVER_LM_EVAL ?? 'lm_eval';
const lmEvalMissing =
  spawnSync(LM_EVAL, ['--help'], { encoding: 'utf8' }).status === 0
    ? undefined
    : `skipped: ${LM_EVAL} is not installed (pip install lm-eval, or set WAVER_LM_EVAL)`;
const missing = tinyModelMissing ?? lmEvalMissing;

const QUESTIONS: [string, string[]][] = [
  ['Once upon a time, there was a little', ['girl', 'table', 'seven', 'ran']],
  ['The cat sat on the', ['mat', 'sky', 'run', 'blue']],
  ['Lily went to the park to play with her', ['friends', 'ocean', 'seven', 'quickly']],
  ['One day, a big dog saw a', ['ball', 'because', 'and', 'ran']],
];

describe.skipIf(missing !== undefined)(`lm-evaluation-harness against waver serve ${missing ?? ''}`, () => {
  const tiny = servedTinyModel(512);
  const dir = mkdtempSync(join(tmpdir(), 'waver-lm-eval-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a multiple-choice task to completion, every request answered', async () => {
    writeFileSync(
      join(dir, 'mc.jsonl'),
      QUESTIONS.map(([question, choices]) => JSON.stringify({ question, choices, answer: 0 })).join('\n'),
    );
    writeFileSync(
      join(dir, 'waver_tiny_mc.yaml'),
      [
        'task: waver_tiny_mc',
        'dataset_path: json',
        `dataset_kwargs: {data_files: {test: ${JSON.stringify(join(dir, 'mc.jsonl'))}}}`,
        'test_split: test',
        'output_type: multiple_choice',
        'doc_to_text: "{{question}}"',
        'doc_to_choice: "{{choices}}"',
        'doc_to_target: "{{answer}}"',
        'metric_list: [{metric: acc, aggregation: mean, higher_is_better: true}]',
      ].join('\n'),
    );
    const args = [
      '--model',
      'local-completions',
      '--model_args',
      `base_url=${tiny.server.url}/completions,model=tiny,tokenized_requests=False,tokenizer_backend=remote`,
      '--tasks',
      'waver_tiny_mc',
      '--include_path',
      dir,
      '--output_path',
      join(dir, 'out'),
    ];
    const run = spawn(LM_EVAL, args, {
      env: { ...process.env, HF_DATASETS_OFFLINE: '1', HF_HUB_OFFLINE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    run.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    run.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    await new Promise<void>((resolve) => run.on('close', () => resolve()));
    // The results are saved before the table is printed (which needs pytablewriter).
    const results = join(dir, 'out', 'tiny');
    const file = readdirSync(results).find((f) => f.startsWith('results_'));
    expect(file, output.slice(-2000)).toBeDefined();
    const saved = JSON.parse(readFileSync(join(results, file as string), 'utf8'));
    const acc = saved.results.waver_tiny_mc['acc,none'];
    expect(acc).toBeGreaterThanOrEqual(0);
    expect(acc).toBeLessThanOrEqual(1);
    expect(saved.n_samples?.waver_tiny_mc?.effective ?? QUESTIONS.length).toBe(QUESTIONS.length);
  }, 300_000);
});
