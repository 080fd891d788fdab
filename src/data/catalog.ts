/**
 * The canonical Hugging Face Hub home of every named dataset, with the config, split and (where
 * the repository follows no split naming) file it is read from, and its licence as the dataset's
 * card states it. One table for all protocols, so docs/datasets.md#catalog, the loaders and the
 * suites' records agree. The card's own `license` field, when the Hub sends one, wins over the
 * licence written here (the record says what the data said when it was read).
 */

export interface HubDatasetRef {
  repo: string;
  config?: string;
  split: string;
  file?: string;
  licence: string;
  licenceNote?: string;
}

/** What CC BY-NC-ND 4.0 means for waver's outputs (docs/datasets.md#licences). */
export const NC_ND_NOTE =
  'non-commercial use only, and no adapted material may be shared: perturbed or reworded versions of its problems are adaptations, so keep suites built from it private';

const NC_NOTE = 'non-commercial use only';
const SA_NOTE = 'adapted material (perturbed prompts) may be shared only under the same licence';

export const HUB_DATASETS = {
  gsm8k: { repo: 'openai/gsm8k', config: 'main', split: 'test', licence: 'MIT' },
  'gsm-symbolic': {
    repo: 'apple/GSM-Symbolic',
    config: 'main',
    split: 'test',
    file: 'main/test.jsonl',
    licence: 'CC-BY-NC-ND-4.0',
    licenceNote: NC_ND_NOTE,
  },
  truthfulqa: {
    repo: 'truthfulqa/truthful_qa',
    config: 'generation',
    split: 'validation',
    licence: 'Apache-2.0',
  },
  'truthfulqa-mc': {
    repo: 'truthfulqa/truthful_qa',
    config: 'multiple_choice',
    split: 'validation',
    licence: 'Apache-2.0',
  },
  'nq-open': {
    repo: 'google-research-datasets/nq_open',
    config: 'nq_open',
    split: 'validation',
    licence: 'CC-BY-SA-3.0',
    licenceNote: SA_NOTE,
  },
  triviaqa: {
    repo: 'mandarjoshi/trivia_qa',
    config: 'rc.nocontext',
    split: 'validation',
    licence: 'unknown',
  },
  hotpotqa: {
    repo: 'hotpotqa/hotpot_qa',
    config: 'distractor',
    split: 'validation',
    licence: 'CC-BY-SA-4.0',
    licenceNote: SA_NOTE,
  },
  // OpenAI publishes SimpleQA as a CSV beside simple-evals, not on the Hub; this is the copy
  // evaluation tools load (the same 4,326 rows and columns).
  simpleqa: { repo: 'basicv8vc/SimpleQA', split: 'test', licence: 'MIT' },
  'arc-challenge': {
    repo: 'allenai/ai2_arc',
    config: 'ARC-Challenge',
    split: 'test',
    licence: 'CC-BY-SA-4.0',
    licenceNote: SA_NOTE,
  },
  commonsenseqa: { repo: 'tau/commonsense_qa', split: 'validation', licence: 'MIT' },
  // The 805 AlpacaEval instructions (the SAGO paper's "Alpaca"), not the 52K training set.
  alpaca: {
    repo: 'tatsu-lab/alpaca_eval',
    config: 'alpaca_eval',
    split: 'eval',
    file: 'alpaca_eval.json',
    licence: 'CC-BY-NC-4.0',
    licenceNote: NC_NOTE,
  },
} as const satisfies Record<string, HubDatasetRef>;

export type HubDatasetName = keyof typeof HUB_DATASETS;

/** Which of a protocol's named datasets a Hub repository (and config, when given) is, if any. */
export function catalogNameOf<N extends HubDatasetName>(
  repo: string,
  config: string | undefined,
  among: readonly N[],
): N | undefined {
  const matches = among
    .map((name) => [name, HUB_DATASETS[name] as HubDatasetRef] as const)
    .filter(([, ref]) => ref.repo.toLowerCase() === repo.toLowerCase());
  if (config !== undefined) return matches.find(([, ref]) => ref.config === config)?.[0];
  return matches.length === 1 ? matches[0]?.[0] : undefined;
}
