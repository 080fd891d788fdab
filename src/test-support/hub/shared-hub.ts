import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../../data/csv.js';
import { sharedFile } from '../shared.js';
import { type FakeRepo, parquetOf } from './loopback-hub.js';

/**
 * The named datasets' Hub repositories as a loopback hub serves them, built from the local copies
 * in ../shared/data and converted to the Hub's layout and columns (Parquet where the Hub has
 * Parquet): so the Hub route of every named dataset is tested against the same rows the local
 * route reads. Undefined when ../shared/data is missing.
 */

const need = (relative: string) => sharedFile(`data/${relative}`);

const jsonl = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

export const SHARED_HUB_FILES = [
  'gsm8k/test.jsonl',
  'gsm-symbolic/templates/symbolic',
  'truthfulqa/TruthfulQA.csv',
  'truthfulqa/mc_task.json',
  'nq-open/NQ-open.dev.jsonl',
  'triviaqa/triviaqa_sm_sub.jsonl',
  'hotpotqa/hotpot_dev_v1_simplified.json',
  'simpleqa/simple_qa_test_set.csv',
  'arc-challenge/arc_challenge.jsonl',
  'commonsenseqa/dev_rand_split.jsonl',
  'alpaca/alpaca_eval_example_outputs.json',
] as const;

export const sharedHubMissing = SHARED_HUB_FILES.find((f) => !need(f));

/** The repositories named in `only` (default all). */
export async function sharedHubRepos(only?: readonly string[]): Promise<Record<string, FakeRepo>> {
  const path = (f: (typeof SHARED_HUB_FILES)[number]) => need(f) as string;
  const gsm8k = jsonl(path('gsm8k/test.jsonl'));
  const templatesDir = path('gsm-symbolic/templates/symbolic');
  // GSM-Symbolic's `main/test.jsonl`: instances of each template with the GSM8K original beside
  // them (`original_answer` without the calculator annotations, as the release has it).
  const symbolic = readdirSync(templatesDir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .flatMap((f) => {
      const t = JSON.parse(readFileSync(join(templatesDir, f), 'utf8')) as Record<string, unknown>;
      const orig = gsm8k[t.id_orig as number] as { question: string; answer: string };
      return [0, 1].map((instance) =>
        JSON.stringify({
          id: t.id_shuffled,
          instance,
          question: `${orig.question} (variant ${instance})`,
          answer: orig.answer,
          original_id: t.id_orig,
          original_question: orig.question,
          original_answer: orig.answer.replace(/<<[^>]*>>/g, ''),
          canary: 'canary GUID',
        }),
      );
    })
    .join('\n');
  const tqa = parseCsv(readFileSync(path('truthfulqa/TruthfulQA.csv'), 'utf8')).records.map((r) => ({
    question: r.fields.Question,
    best_answer: r.fields['Best Answer'],
    correct_answers: (r.fields['Correct Answers'] ?? '').split('; ').filter(Boolean),
  }));
  const mc = (
    JSON.parse(readFileSync(path('truthfulqa/mc_task.json'), 'utf8')) as Record<string, unknown>[]
  ).map((r) => {
    const targets = Object.entries(r.mc1_targets as Record<string, number>);
    return {
      question: r.question,
      mc1_targets: { choices: targets.map(([t]) => t), labels: targets.map(([, v]) => v) },
    };
  });
  const trivia = jsonl(path('triviaqa/triviaqa_sm_sub.jsonl')).map((r, i) => ({
    question: String(r.context)
      .replace(/^\s*Question:\s*/, '')
      .replace(/\s*Answer:\s*$/, ''),
    question_id: `tc_${i}`,
    answer: { value: r.answer, aliases: r.aliases },
  }));
  const hotpot = (
    JSON.parse(readFileSync(path('hotpotqa/hotpot_dev_v1_simplified.json'), 'utf8')) as Record<
      string,
      unknown
    >[]
  ).map((r, i) => ({ id: `hp${i}`, question: r.question, answer: r.answer, type: r.type }));
  const arc = jsonl(path('arc-challenge/arc_challenge.jsonl')).map((r, i) => ({
    id: `Mercury_${i}`,
    question: String(r.query).replace(/^Question:\s*/, ''),
    choices: { text: r.choices, label: (r.choices as string[]).map((_, k) => 'ABCD'[k]) },
    answerKey: 'ABCD'[r.gold as number],
  }));
  const csqa = jsonl(path('commonsenseqa/dev_rand_split.jsonl')).map((r) => {
    const q = r.question as {
      question_concept: string;
      stem: string;
      choices: { label: string; text: string }[];
    };
    return {
      id: r.id,
      question: q.stem,
      question_concept: q.question_concept,
      choices: { label: q.choices.map((c) => c.label), text: q.choices.map((c) => c.text) },
      answerKey: r.answerKey,
    };
  });
  const builders: Record<string, () => Promise<FakeRepo>> = {
    'openai/gsm8k': async () => ({
      files: { 'main/test-00000-of-00001.parquet': await parquetOf(gsm8k) },
      licence: 'mit',
    }),
    'apple/GSM-Symbolic': async () => ({
      files: { 'main/test.jsonl': `${symbolic}\n` },
      licence: 'cc-by-nc-nd-4.0',
    }),
    'truthfulqa/truthful_qa': async () => ({
      files: {
        'generation/validation-00000-of-00001.parquet': await parquetOf(tqa),
        'multiple_choice/validation-00000-of-00001.parquet': await parquetOf(mc),
      },
      licence: 'apache-2.0',
    }),
    'google-research-datasets/nq_open': async () => ({
      files: {
        'nq_open/validation-00000-of-00001.parquet': await parquetOf(
          jsonl(path('nq-open/NQ-open.dev.jsonl')),
        ),
      },
    }),
    'mandarjoshi/trivia_qa': async () => ({
      files: { 'rc.nocontext/validation-00000-of-00001.parquet': await parquetOf(trivia) },
    }),
    'hotpotqa/hotpot_qa': async () => ({
      files: { 'distractor/validation-00000-of-00001.parquet': await parquetOf(hotpot) },
    }),
    'basicv8vc/SimpleQA': async () => ({
      files: { 'simple_qa_test_set.csv': readFileSync(path('simpleqa/simple_qa_test_set.csv')) },
    }),
    'allenai/ai2_arc': async () => ({
      files: { 'ARC-Challenge/test-00000-of-00001.parquet': await parquetOf(arc) },
    }),
    'tau/commonsense_qa': async () => ({
      files: { 'data/validation-00000-of-00001.parquet': await parquetOf(csqa) },
    }),
    'tatsu-lab/alpaca_eval': async () => ({
      files: { 'alpaca_eval.json': readFileSync(path('alpaca/alpaca_eval_example_outputs.json')) },
    }),
  };
  const repos: Record<string, FakeRepo> = {};
  for (const [repo, build] of Object.entries(builders))
    if (only === undefined || only.includes(repo)) repos[repo] = await build();
  return repos;
}
