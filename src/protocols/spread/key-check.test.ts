import { describe, expect, it } from 'vitest';
import { resolveChoiceDataset } from '../../data/mc/resolve.js';
import { sharedDataEnv } from '../../test-support/shared.js';
import { checkTemplates, promptProblem, TemplateKeyError } from './key-check.js';
import { checkedItem } from './plan-grid.js';
import { formatTemplates, type Template } from './templates.js';

const item = {
  id: 'q1',
  question: 'Which gas do plants take in?',
  options: ['oxygen', 'carbon dioxide', 'neon'],
  key: 1,
  topic: 'biology',
};

describe('every template keeps the item and its key', () => {
  it('passes 100 sampled formats on every ARC-Challenge item', async () => {
    const arc = await resolveChoiceDataset('arc-challenge', {
      env: sharedDataEnv,
      mapping: 'spread.fields',
      builtins: [],
    });
    expect(() => checkTemplates(formatTemplates(100, 3), arc.items.map(checkedItem))).not.toThrow();
  });

  it('refuses a format whose enumerators cannot number the options (Unicode numerals stop at 12)', () => {
    const numerals = formatTemplates(400, 0).find(
      (t) => t.kind === 'formatspread' && t.format.enumerator === 3,
    ) as Template;
    const many = { ...item, options: Array.from({ length: 13 }, (_, k) => `option ${k}`) };
    expect(promptProblem(numerals, many)).toMatch(/can number 12 options and the item has 13/);
    expect(() => checkTemplates([numerals], [many])).toThrow(TemplateKeyError);
  });

  it('refuses a template that drops the question, naming the template and the item', () => {
    const bad: Template = { index: 0, id: 'mine', kind: 'user', text: 'Pick one:\n{choices}', source: 'x' };
    expect(() => checkTemplates([bad], [item])).toThrow(
      /template 'mine' on item 'q1': the question is not in the prompt/,
    );
  });

  it('refuses a template that moves the key away from its label', () => {
    // A template that prints the options itself, in another order, as a hand-written one might.
    const moved: Template = {
      index: 0,
      id: 'moved',
      kind: 'user',
      text: '{question}\nA. carbon dioxide\nB. oxygen\nC. neon{choices}',
      source: 'x',
    };
    const shown = { ...item, options: ['oxygen', 'carbon dioxide', 'neon'] };
    expect(promptProblem(moved, shown)).toBeUndefined(); // the real choices still follow: kept
    const dropped: Template = { index: 0, id: 'dropped', kind: 'user', text: '{question}', source: 'x' };
    expect(promptProblem(dropped, shown)).toMatch(/option A\. \(oxygen\) is dropped or moved/);
  });
});
