import type { WaverConfig } from '../../config/schema.js';
import type { McItem } from '../../data/mc/mc-item.js';
import { type McDataset, resolveChoiceDataset } from '../../data/mc/resolve.js';
import { InputError } from '../../errors.js';
import { plannedModels } from '../../run/plan.js';
import { budgetCells, type SpreadSettings } from './config.js';
import { planCells } from './estimators/index.js';
import { type CheckedItem, checkTemplates } from './key-check.js';
import type { GridSpec } from './suite.js';
import { readTemplateFile } from './template-file.js';
import { formatTemplates, type Template } from './templates.js';

/**
 * What a spread run asks, read and checked before any call (docs/spread.md): the items, the
 * templates (sampled formats or the user's file), each template checked on each item, and the
 * cells the budget buys. Writes nothing but the dataset cache.
 */

export interface SpreadPlan {
  dataset: McDataset;
  grid: GridSpec;
  /** The planned cells of each model (the same for every model, so their templates pair). */
  cells: { template: number; item: number }[];
  /** Where the templates came from: `formatspread` (seed N) or the file. */
  templatesFrom: string;
}

export function checkedItem(item: McItem): CheckedItem {
  return {
    id: item.id,
    question: item.stem,
    options: item.options.map((o) => o.text),
    key: item.options.findIndex((o) => o.letter === item.key),
    topic: item.category,
  };
}

export async function loadSpreadPlan(
  config: WaverConfig,
  settings: SpreadSettings,
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<SpreadPlan> {
  plannedModels(config);
  if (config.dataset === undefined)
    throw new InputError(
      'no dataset: pass --dataset NAME|FILE (a multiple-choice dataset, e.g. arc-challenge)',
      {
        field: 'dataset',
      },
    );
  const dataset = await resolveChoiceDataset(config.dataset, {
    ...(opts.env && { env: opts.env }),
    ...(opts.cwd && { cwd: opts.cwd }),
    ...(settings.fields && { fields: settings.fields }),
    mapping: 'spread.fields',
    builtins: [],
  });
  const items = (settings.limit !== undefined ? dataset.items.slice(0, settings.limit) : dataset.items).map(
    checkedItem,
  );
  const templates: Template[] = settings.templatesFile
    ? readTemplateFile(settings.templatesFile)
    : formatTemplates(settings.templates, config.seed);
  checkTemplates(templates, items, settings.templatesFile);
  const grid: GridSpec = {
    templates,
    items,
    dataset: dataset.name,
    ...(dataset.source && { datasetSource: dataset.source }),
    ...(settings.search && { search: settings.search }),
  };
  const n = budgetCells(settings.budget, templates.length, items.length);
  // A search picks its cells as answers come; the grid's plan is fixed by the seed.
  const cells = settings.search ? [] : planCells(templates.length, items.length, n, config.seed);
  const templatesFrom = settings.templatesFile ?? `formatspread grammar, seed ${config.seed}`;
  return { dataset, grid, cells, templatesFrom };
}
