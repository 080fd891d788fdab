import { now } from './rows.js';
import type { Statements } from './statements.js';

/**
 * Labelling sets and people's labels (docs/judges.md#labelling): a set is a sample of judged items
 * copied whole into the store (what was shown, the rubric, the strata, every judge's verdict and
 * the item's sampling weight), so labels stay tied to what the labeller saw even when the judge
 * suites change later; a label is one rater's label of one item of a set, replaced when the rater
 * labels it again.
 */

export interface LabellingItemRecord {
  id: string;
  task: string;
  strata: Record<string, string>;
  item: string;
  response: string;
  /** The rubric as the judge layer describes it (src/judge/types.ts), kept as JSON. */
  rubric: Record<string, unknown>;
  verdicts: { judge: string; label?: string }[];
  group?: string;
  /** Judged items its stratum had over items sampled from it (docs/judges.md#sample). */
  weight: number;
}

/** How many judged items the sample was drawn from had each verdict, by task, group and judge. */
export interface PopulationCount {
  task: string;
  group?: string;
  judge: string;
  /** The judge's label; absent for items it gave no usable verdict. */
  label?: string;
  count: number;
}

export interface LabellingSetRecord {
  name: string;
  createdAt: string;
  seed: number;
  items: LabellingItemRecord[];
  population: PopulationCount[];
}

export interface LabellingSetSummary {
  name: string;
  createdAt: string;
  items: number;
  labels: number;
  raters: string[];
}

export interface LabelRecord {
  set: string;
  item: string;
  rater: string;
  label: string;
  notes?: string;
  /** Where it came from: `view` (the labelling page) or `import:FILE`. */
  source: string;
  updatedAt?: string;
}

/** Labelling sets and their labels (docs/judges.md#labelling). */
export class LabelQueries {
  constructor(private readonly st: Statements) {}

  /** Stores a labelling set and its items in one transaction; a set of that name already stored is an error. */
  saveSet(set: Omit<LabellingSetRecord, 'createdAt'>): void {
    const st = this.st;
    st.db.transaction(() => {
      st.prepared(
        'INSERT INTO labelling_sets (name, created_at, seed, population_json) VALUES (?, ?, ?, ?)',
      ).run(set.name, now(), set.seed, JSON.stringify(set.population));
      const insert = st.prepared(
        'INSERT INTO labelling_items (set_name, item_id, position, json) VALUES (?, ?, ?, ?)',
      );
      set.items.forEach((item, i) => {
        insert.run(set.name, item.id, i, JSON.stringify(item));
      });
    })();
  }

  /** Every labelling set, oldest first, with how many items and labels it has and its raters. */
  sets(): LabellingSetSummary[] {
    if (!this.hasTables()) return [];
    const rows = this.st
      .prepared(
        `SELECT s.name, s.created_at,
           (SELECT count(*) FROM labelling_items i WHERE i.set_name = s.name) AS items,
           (SELECT count(*) FROM labels l WHERE l.set_name = s.name) AS labels,
           (SELECT group_concat(rater, char(31)) FROM (SELECT DISTINCT rater FROM labels l WHERE l.set_name = s.name ORDER BY rater)) AS raters
         FROM labelling_sets s ORDER BY s.created_at, s.name`,
      )
      .all() as { name: string; created_at: string; items: number; labels: number; raters: string | null }[];
    return rows.map((r) => ({
      name: r.name,
      createdAt: r.created_at,
      items: r.items,
      labels: r.labels,
      raters: r.raters ? r.raters.split('\u001f') : [],
    }));
  }

  /** A labelling set with its items in sample order, or undefined. */
  set(name: string): LabellingSetRecord | undefined {
    if (!this.hasTables()) return undefined;
    const head = this.st
      .prepared('SELECT name, created_at, seed, population_json FROM labelling_sets WHERE name = ?')
      .get(name) as { name: string; created_at: string; seed: number; population_json: string } | undefined;
    if (!head) return undefined;
    const items = (
      this.st
        .prepared('SELECT json FROM labelling_items WHERE set_name = ? ORDER BY position')
        .pluck()
        .all(name) as string[]
    ).map((j) => JSON.parse(j) as LabellingItemRecord);
    const population = JSON.parse(head.population_json) as PopulationCount[];
    return { name: head.name, createdAt: head.created_at, seed: head.seed, items, population };
  }

  /** Stores labels in one transaction, each replacing the same rater's earlier label of the item. */
  save(labels: readonly LabelRecord[]): void {
    if (labels.length === 0) return;
    const put = this.st.prepared(
      `INSERT INTO labels (set_name, item_id, rater, label, notes, source, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (set_name, item_id, rater) DO UPDATE SET
         label = excluded.label, notes = excluded.notes, source = excluded.source, updated_at = excluded.updated_at`,
    );
    this.st.db.transaction(() => {
      for (const l of labels) put.run(l.set, l.item, l.rater, l.label, l.notes ?? null, l.source, now());
    })();
  }

  /** A set's labels, in item order then by rater. */
  of(set: string): LabelRecord[] {
    if (!this.hasTables()) return [];
    const rows = this.st
      .prepared(
        `SELECT l.set_name, l.item_id, l.rater, l.label, l.notes, l.source, l.updated_at FROM labels l
         JOIN labelling_items i ON i.set_name = l.set_name AND i.item_id = l.item_id
         WHERE l.set_name = ? ORDER BY i.position, l.rater`,
      )
      .all(set) as {
      set_name: string;
      item_id: string;
      rater: string;
      label: string;
      notes: string | null;
      source: string;
      updated_at: string;
    }[];
    return rows.map((r) => ({
      set: r.set_name,
      item: r.item_id,
      rater: r.rater,
      label: r.label,
      ...(r.notes !== null && { notes: r.notes }),
      source: r.source,
      updatedAt: r.updated_at,
    }));
  }

  /** Whether the labelling tables exist: a store opened read-only may predate them. */
  private hasTables(): boolean {
    return (
      this.st
        .prepared(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'labels'`)
        .pluck()
        .get() === 1
    );
  }
}
