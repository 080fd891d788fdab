import { z } from 'zod';
import { DatasetSourceSchema } from '../../data/provenance.js';
import { suiteOf } from '../../run/suite.js';
import type { Suite } from '../../run/types.js';
import { type TypedTest, typedTests } from '../test-meta.js';
import type { CheckedItem } from './key-check.js';
import { renderTemplate, type Template, templateText } from './templates.js';

/**
 * The `spread/cells` suite: one test per (template, item) cell the plan asks. Each test's meta
 * holds what scoring and the estimate need (the grid's size, the cell's place in it, the labels
 * as shown, the key, the template quoted), so results are rebuilt from the store alone.
 */

export const SpreadTestMetaSchema = z.object({
  protocol: z.literal('spread'),
  grid: z.object({ templates: z.int(), items: z.int() }),
  template: z.object({
    index: z.int(),
    id: z.string(),
    kind: z.enum(['formatspread', 'user']),
    /** The template with its fields as placeholders, quoted by the report. */
    text: z.string(),
    /** FormatSpread's choices as indices into the grammar's lists (the estimators' covariates). */
    format: z.record(z.string(), z.int()).optional(),
  }),
  item: z.object({ index: z.int(), id: z.string() }),
  options: z.array(z.string()),
  labels: z.array(z.string()),
  bare: z.array(z.string()),
  key: z.int(),
  dataset: z.string(),
  datasetSource: DatasetSourceSchema.optional(),
  search: z.enum(['best', 'worst']).optional(),
});
export type SpreadTestMeta = z.infer<typeof SpreadTestMetaSchema>;
export type SpreadTest = TypedTest<SpreadTestMeta>;

export function spreadTests(suite: Suite): SpreadTest[] {
  return typedTests(suite, SpreadTestMetaSchema);
}

export const spreadTestId = (template: string, item: string) => `${template}/${item}`;

export interface GridSpec {
  templates: readonly Template[];
  items: readonly CheckedItem[];
  dataset: string;
  datasetSource?: SpreadTestMeta['datasetSource'];
  search?: 'best' | 'worst';
}

/** The test of one cell. */
export function cellTest(grid: GridSpec, template: number, item: number): SpreadTest {
  const t = grid.templates[template] as Template;
  const it = grid.items[item] as CheckedItem;
  const r = renderTemplate(t, it);
  const meta: SpreadTestMeta = {
    protocol: 'spread',
    grid: { templates: grid.templates.length, items: grid.items.length },
    template: {
      index: template,
      id: t.id,
      kind: t.kind,
      text: templateText(t, it.options.length),
      ...(t.kind === 'formatspread' && { format: { ...t.format } }),
    },
    item: { index: item, id: it.id },
    options: [...it.options],
    labels: r.labels,
    bare: r.bare,
    key: it.key,
    dataset: grid.dataset,
    ...(grid.datasetSource && { datasetSource: grid.datasetSource }),
    ...(grid.search && { search: grid.search }),
  };
  return { id: spreadTestId(t.id, it.id), prompt: r.prompt, meta };
}

/** The suite of the planned cells, in the plan's order. */
export function buildSpreadSuite(
  name: string,
  grid: GridSpec,
  cells: readonly { template: number; item: number }[],
): Suite<SpreadTest> {
  return suiteOf(
    name,
    cells.map((c) => cellTest(grid, c.template, c.item)),
  );
}
