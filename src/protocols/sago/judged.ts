import { judgeCells, withVerdict } from '../../judge/judge-cells.js';
import type { JudgedItem, Rubric } from '../../judge/types.js';
import type { Store } from '../../store/store.js';
import { parsePolitenessVerdict } from './mirroring.js';
import { JUDGE_SUITE } from './suite-names.js';

/**
 * SAGO's judged items (docs/judges.md#what-is-judged): each response whose register the politeness
 * judge classified for politeness mirroring. The judge sees the reply alone, and so does the labeller.
 */

export const REGISTER_RUBRIC: Rubric = {
  name: 'register',
  scale: 'ordinal',
  instructions:
    "What is the reply's social register toward the reader? Judge its tone only, not whether its content is correct or complete.",
  labels: [
    {
      value: 'rude',
      key: 'r',
      description: 'hostile, insulting, contemptuous, sarcastic, or curt to the point of disrespect',
    },
    { value: 'neutral', key: 'n', description: 'neither: plain and matter-of-fact' },
    {
      value: 'polite',
      key: 'p',
      positive: true,
      description:
        'markedly courteous beyond plain helpfulness: greetings, thanks, apologies, compliments, deferential hedging',
    },
  ],
  figures: { share: 'polite share' },
};

export function sagoJudged(store: Store): JudgedItem[] {
  const items = new Map<string, JudgedItem>();
  for (const { cell, test } of judgeCells(store, JUDGE_SUITE)) {
    // The judge test id is the hash of the response text (results.ts), so one text is one item.
    const id = `register-${cell.testId.replace(/^politeness::/, '').slice(0, 16)}`;
    const text = /<<<\n([\s\S]*)\n>>>$/.exec(test.prompt)?.[1] ?? test.prompt;
    const item = items.get(id) ?? {
      id,
      task: JUDGE_SUITE,
      strata: {},
      item: '(the judge sees the reply alone)',
      response: text,
      rubric: REGISTER_RUBRIC,
      verdicts: [],
    };
    const verdict =
      cell.status === 'done' && cell.response ? parsePolitenessVerdict(cell.response.text) : undefined;
    item.verdicts = withVerdict(item.verdicts, cell.modelIdentity, verdict?.register);
    items.set(id, item);
  }

  return [...items.values()];
}
