import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * lm-evaluation-harness's `local-completions` model against `waver serve` over the tiny model: a
 * multiple-choice, a generation and a perplexity (loglikelihood_rolling) task, four requests at a
 * time (`--batch_size 4`: prompt lists), with prompts as text (`tokenized_requests=False`) and as
 * token ids; context lengths and the BOS a perplexity window starts with from the server's own
 * tokenizer routes (`tokenizer_backend=remote`). Each document's rolling log-likelihood equals the
 * text's own teacher-forced score by `echo`. Skips with the reason where `lm_eval` is not installed
 * (`pip install lm-eval`; WAVER_LM_EVAL names the binary).
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
const TEXTS = [
  'Once upon a time, there was a little girl named Lily. She loved to play outside in the sun.',
  'One day, a big dog saw a red ball in the park. He ran to get it and was very happy.',
  ' Tom had a toy car. He liked to play with it every day.',
  'The cat sat on the mat and looked at the bird.',
  'Sue and her mom went to the store to buy some food.',
];

function writeTasks(dir: string): string[] {
  const jsonl = (name: string, rows: object[]) => {
    const file = join(dir, `${name}.jsonl`);
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    return `dataset_path: json\ndataset_kwargs: {data_files: {test: ${JSON.stringify(file)}}}\ntest_split: test`;
  };
  const mc = QUESTIONS.map(([question, choices]) => ({ question, choices, answer: 0 }));
  const tasks: Record<string, string> = {
    waver_tiny_mc: [
      jsonl('mc', mc),
      'output_type: multiple_choice',
      'doc_to_text: "{{question}}"',
      'doc_to_choice: "{{choices}}"',
      'doc_to_target: "{{answer}}"',
      'metric_list: [{metric: acc, aggregation: mean, higher_is_better: true}]',
    ].join('\n'),
    waver_tiny_gen: [
      jsonl('gen', mc),
      'output_type: generate_until',
      'doc_to_text: "{{question}}"',
      'doc_to_target: "{{choices[0]}}"',
      'generation_kwargs: {until: ["."], max_gen_toks: 12}',
      'metric_list: [{metric: exact_match, aggregation: mean, higher_is_better: true}]',
    ].join('\n'),
    waver_tiny_ppl: [
      jsonl(
        'ppl',
        TEXTS.map((text) => ({ text })),
      ),
      'output_type: loglikelihood_rolling',
      'doc_to_text: ""',
      'doc_to_target: "{{text}}"',
      'metric_list: [{metric: word_perplexity}, {metric: byte_perplexity}, {metric: bits_per_byte}]',
    ].join('\n'),
  };
  for (const [task, body] of Object.entries(tasks))
    writeFileSync(join(dir, `${task}.yaml`), `task: ${task}\n${body}\n`);
  return Object.keys(tasks);
}

async function lmEval(args: string[]): Promise<string> {
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
  return output;
}

describe.skipIf(missing !== undefined)(`lm-evaluation-harness against waver serve ${missing ?? ''}`, () => {
  const tiny = servedTinyModel(512);
  const dir = mkdtempSync(join(tmpdir(), 'waver-lm-eval-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tasks = writeTasks(dir);

  it.each([false, true])(
    'tokenized_requests=%s: multiple choice, generation and perplexity, four requests at a time',
    async (tokenized) => {
      const out = join(dir, `out-${tokenized}`);
      const output = await lmEval([
        '--model',
        'local-completions',
        '--model_args',
        `base_url=${tiny.server.url}/completions,model=tiny,tokenized_requests=${tokenized},tokenizer_backend=remote`,
        '--tasks',
        tasks.join(','),
        '--include_path',
        dir,
        '--batch_size',
        '4',
        '--log_samples',
        '--output_path',
        out,
      ]);
      // The results are saved before the table is printed (which needs pytablewriter).
      const results = join(out, 'tiny');
      const files = (() => {
        try {
          return readdirSync(results);
        } catch {
          return [];
        }
      })();
      const file = files.find((f) => f.startsWith('results_'));
      expect(file, output.slice(-3000)).toBeDefined();
      const saved = JSON.parse(readFileSync(join(results, file as string), 'utf8'));
      expect(saved.results.waver_tiny_mc['acc,none']).toBeGreaterThanOrEqual(0);
      expect(saved.results.waver_tiny_gen['exact_match,none']).toBeGreaterThanOrEqual(0);
      const samples = files.find((f) => f.startsWith('samples_waver_tiny_ppl'));
      const logged = readFileSync(join(results, samples as string), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(logged.length).toBe(TEXTS.length);
      let total = 0;
      let words = 0;
      for (const sample of logged) {
        const text = sample.doc.text as string;
        const own = await tiny.client.completions.create({
          model: 'tiny',
          prompt: text,
          echo: true,
          logprobs: 0,
          max_tokens: 0,
        });
        const score =
          (own.choices[0]?.logprobs?.token_logprobs ?? []).reduce((a, b) => (a ?? 0) + (b ?? 0), 0) ?? 0;
        const rolled = Number(sample.filtered_resps[0]);
        expect(Math.abs(rolled - score), text).toBeLessThan(1e-6);
        total += score;
        // lm-evaluation-harness's word count: re.split(r"\s+", text), a leading space counting an empty word.
        words += text.split(/\s+/).length;
      }
      const ppl = saved.results.waver_tiny_ppl['word_perplexity,none'];
      expect(Math.abs(ppl - Math.exp(-total / words)) / ppl).toBeLessThan(1e-9);
    },
    600_000,
  );
});
