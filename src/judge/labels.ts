import { basename } from 'node:path';
import { readCsv, requireColumns } from '../data/csv.js';
import { InputError } from '../errors.js';
import type { LabellingItemRecord, LabellingSetRecord, LabelRecord } from '../store/store.js';
import type { Rubric } from './types.js';

/**
 * People's labels as `waver judge` reads them: from the store's labelling set, or from a CSV with
 * the columns `item`, `rater`, `label` (and optionally `notes`, `stratum`), checked whole before
 * anything is used or written (docs/judges.md#labels-csv). A bad row is one InputError naming the
 * file, the line and the field.
 */

export interface LabelRow {
  item: string;
  rater: string;
  label: string;
  notes?: string;
  stratum?: string;
  line: number;
}

/** The rubric of a stored item (kept as JSON by the store). */
export function rubricOf(item: LabellingItemRecord): Rubric {
  return item.rubric as unknown as Rubric;
}

/** The rubric's value a label names (`1.0` is the rubric's `1`), or undefined when it is off the rubric. */
export function onRubric(rubric: Rubric, label: string): string | undefined {
  const t = label.trim();
  const exact = rubric.labels.find((l) => l.value === t || l.value.toLowerCase() === t.toLowerCase());
  if (exact) return exact.value;
  const x = Number(t);
  if (t === '' || !Number.isFinite(x)) return undefined;
  return rubric.labels.find((l) => l.value.trim() !== '' && Number(l.value) === x)?.value;
}

/**
 * Reads a labels CSV. With a labelling set, every item must be one of its items and every label on
 * its item's rubric (stored as the rubric spells it); without one, any label goes (a rubric is
 * inferred). Each (item, rater) once; each rater with two labels or more, since agreement pairs a
 * rater's labels with another's over items.
 */
export function readLabelsCsv(file: string, set?: LabellingSetRecord): LabelRow[] {
  const table = readCsv(file);
  requireColumns(table, ['item', 'rater', 'label'], file);
  const items = set ? new Map(set.items.map((i) => [i.id, i])) : undefined;
  const rows: LabelRow[] = [];
  const seen = new Map<string, number>();
  for (const r of table.records) {
    const where = (field: string) => ({ file, line: r.line, field });
    const value = (field: string) => {
      const v = (r.fields[field] ?? '').trim();
      if (v === '') throw new InputError(`empty ${field}`, where(field));
      return v;
    };
    const item = value('item');
    const rater = value('rater');
    let label = value('label');
    if (items) {
      const stored = items.get(item);
      if (!stored)
        throw new InputError(
          `unknown item '${item}': not in the labelling set '${set?.name}'`,
          where('item'),
        );
      const rubric = rubricOf(stored);
      const named = onRubric(rubric, label);
      if (named === undefined)
        throw new InputError(
          `label '${label}' is not on the rubric ${rubric.name} (${rubric.labels.map((l) => l.value).join(', ')})`,
          where('label'),
        );
      label = named;
    }
    const key = `${item}\u0000${rater}`;
    const first = seen.get(key);
    if (first !== undefined)
      throw new InputError(
        `item '${item}' is labelled twice by rater '${rater}' (first on line ${first})`,
        where('rater'),
      );
    seen.set(key, r.line);
    const notes = (r.fields.notes ?? '').trim();
    const stratum = (r.fields.stratum ?? '').trim();
    rows.push({ item, rater, label, line: r.line, ...(notes && { notes }), ...(stratum && { stratum }) });
  }
  if (rows.length === 0)
    throw new InputError('no labels: the file has a header and no rows', { file, line: 1 });
  const byRater = new Map<string, LabelRow[]>();
  for (const row of rows) byRater.set(row.rater, [...(byRater.get(row.rater) ?? []), row]);
  for (const [rater, given] of byRater)
    if (given.length < 2)
      throw new InputError(
        `rater '${rater}' gave only one label: agreement needs each rater's labels of two items or more`,
        { file, line: (given[0] as LabelRow).line, field: 'rater' },
      );
  return rows;
}

/** Label rows as the store keeps them, marked as imported from the file. */
export function importedLabels(rows: readonly LabelRow[], set: string, file: string): LabelRecord[] {
  return rows.map((r) => ({
    set,
    item: r.item,
    rater: r.rater,
    label: r.label,
    ...(r.notes !== undefined && { notes: r.notes }),
    source: `import:${basename(file)}`,
  }));
}

/**
 * The scale of labels made elsewhere: all numbers, an ordinal scale in numeric order; two values,
 * binary; else nominal, in sorted order (docs/judges.md#labels-csv).
 */
export function inferredRubric(labels: readonly string[]): Rubric {
  const values = [...new Set(labels)];
  const numeric = values.every((v) => v.trim() !== '' && Number.isFinite(Number(v)));
  values.sort(numeric ? (a, b) => Number(a) - Number(b) : (a, b) => a.localeCompare(b));
  return {
    name: numeric ? 'numeric' : values.length === 2 ? 'two-valued' : 'categories',
    scale: numeric && values.length > 2 ? 'ordinal' : values.length === 2 ? 'binary' : 'nominal',
    instructions: '',
    labels: values.map((value) => ({ value, description: '', ...(numeric && { score: Number(value) }) })),
  };
}
