import { type VarianceFigure, varianceFigure, varianceJson, varianceMarkdown } from '../variance-figure.js';
import type { ParaphraseResults } from './results.js';

/**
 * Where each model's variance comes from in a paraphrase store (items x phrasings x repeats):
 * item, phrasing, repeat (the spread of a cell's repeats) and the item x phrasing residual, over
 * the answered cells (docs/paraphrase.md#variance). The section's hook: Markdown and JSON.
 */
export function paraphraseVariance(r: ParaphraseResults): { label: string; variance: VarianceFigure }[] {
  return r.models.map((m) => ({
    label: m.label,
    variance: varianceFigure(
      m.cells
        .filter((c) => c.status === 'done')
        .map((c) => ({ item: c.item, factors: { phrasing: c.phrasing }, correct: c.correct ? 1 : 0 })),
      { factors: ['phrasing'], seed: r.settings.seed },
    ),
  }));
}

export function paraphraseVarianceMarkdown(r: ParaphraseResults): string {
  return [
    '## Where the variance comes from',
    '',
    ...paraphraseVariance(r).flatMap((m) => varianceMarkdown(m.label, m.variance)),
  ].join('\n');
}

export function paraphraseVarianceJson(r: ParaphraseResults) {
  return paraphraseVariance(r).map((m) => ({ label: m.label, variance: varianceJson(m.variance) }));
}
