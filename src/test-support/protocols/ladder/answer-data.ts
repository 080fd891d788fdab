import { resolveLadderSeeds } from '../../../protocols/ladder/data/datasets.js';
import type { ChoiceSeed, TextSeed } from '../../../protocols/ladder/types.js';
import { sharedDataEnv, sharedFile } from '../../shared.js';

/** Real choice and short-answer rows of ../shared/data for the answer-type tests, which skip visibly without them. */

export const CHOICE_FILES = ['arc-challenge/arc_challenge.jsonl', 'commonsenseqa/dev_rand_split.jsonl'];
export const TEXT_FILES = [
  'triviaqa/triviaqa_sm_sub.jsonl',
  'simpleqa/simple_qa_test_set.csv',
  'nq-open/NQ-open.dev.jsonl',
];

/** '' when every file is there, else the skip reason to append to a test's name. */
export function dataMissing(...files: string[]): string {
  const gone = files.filter((f) => !sharedFile(`data/${f}`));
  return gone.length === 0 ? '' : ` (skipped: ../shared/data/${gone.join(', ')} not there)`;
}

/** The first `each` seeds of ARC-Challenge and of CommonsenseQA. */
export async function choiceSeeds(each: number): Promise<ChoiceSeed[]> {
  const of = async (name: string) =>
    (await resolveLadderSeeds(name, { env: sharedDataEnv, limit: each })) as ChoiceSeed[];
  return [...(await of('arc-challenge')), ...(await of('commonsenseqa'))];
}

/** The first `each` seeds of TriviaQA, SimpleQA and NQ-open. */
export async function textSeeds(each: number): Promise<TextSeed[]> {
  const of = async (name: string) =>
    (await resolveLadderSeeds(name, { env: sharedDataEnv, limit: each })) as TextSeed[];
  return [...(await of('triviaqa')), ...(await of('simpleqa')), ...(await of('nq-open'))];
}
