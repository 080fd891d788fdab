import { describe, expect, it } from 'vitest';
import { comparingVerdicts, groupVariants, type PlannedItem } from './plan-suites.js';
import type { ImportedModelPlan } from './write.js';

const item = (item: string, variant: string): PlannedItem => ({
  item,
  variant,
  category: 'c',
  dataset: 'd',
  prompt: `${variant}: ${item}`,
  key: 'A',
  repeats: 1,
});

const model = (label: string, tests: string[]): ImportedModelPlan => ({
  label,
  identity: `x:${label}`,
  source: 'lm-eval',
  metric: 'acc',
  provenance: {},
  cells: tests.map((testId) => ({
    testId,
    repeat: 0,
    status: 'done',
    text: 'A',
    answer: 'A',
    correct: testId.startsWith('1'),
    file: 'f',
    line: 1,
  })),
});

describe('groupVariants', () => {
  it('variants sharing an item are one suite; a dataset of its own is another; each model keeps its cells there', () => {
    const items = [
      item('1', 'arc_a'),
      item('2', 'arc_b'),
      item('2', 'arc_a'),
      item('9', 'hs_x'),
      item('9', 'hs_y'),
    ];
    const m = model('m', ['1/arc_a', '2/arc_b', '9/hs_x']);
    const suites = groupVariants(items, [m], 'lm-eval');
    expect(suites.map((s) => s.suite.tests.map((t) => t.id))).toEqual([
      ['1/arc_a', '2/arc_a', '2/arc_b'],
      ['9/hs_x', '9/hs_y'],
    ]);
    expect(suites.map((s) => s.models[0]?.cells.map((c) => c.testId))).toEqual([
      ['1/arc_a', '2/arc_b'],
      ['9/hs_x'],
    ]);
  });

  it('the same tests whatever order or model they came in: one suite hash, so separate imports pair up', () => {
    const a = groupVariants(
      [item('10', 'v2'), item('2', 'v1'), item('2', 'v2'), item('10', 'v1')],
      [],
      'promptfoo',
    );
    const b = groupVariants(
      [item('2', 'v1'), item('10', 'v1'), item('10', 'v2'), item('2', 'v2')],
      [],
      'promptfoo',
    );
    expect(a[0]?.suite.hash).toBe(b[0]?.suite.hash);
    expect(a[0]?.suite.tests.map((t) => t.id)).toEqual(['2/v1', '10/v1', '2/v2', '10/v2']);
  });

  it('--answers verdict: every answer is right or wrong, the verdicts unchanged', () => {
    const [suite] = comparingVerdicts(
      groupVariants([item('1', 'v'), item('2', 'v')], [model('m', ['1/v', '2/v'])], 'lm-eval'),
    );
    expect(suite?.models[0]?.cells.map((c) => [c.answer, c.correct])).toEqual([
      ['right', true],
      ['wrong', false],
    ]);
  });
});
