import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../test-support/scratch.js';
import { applyMigrations, MIGRATIONS, openStore } from './store.js';

const dir = scratchDir('waver-labels-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const item = (id: string) => ({
  id,
  task: 'ladder/kb',
  strata: { family: 'KB' },
  item: 'q',
  response: 'r',
  rubric: { name: 'kb-4' },
  verdicts: [{ judge: 'j', label: '1' }],
  weight: 2,
});

describe('labelling sets and labels', () => {
  it('migrates a store made before them, and a reader of an older store sees none', () => {
    const file = join(dir, 'old.db');
    const db = new Database(file);
    applyMigrations(db, MIGRATIONS.slice(0, -1));
    db.close();
    const reader = openStore(file, { readonly: true });
    expect(reader.labels.sets()).toEqual([]);
    expect(reader.labels.of('default')).toEqual([]);
    reader.close();
    const store = openStore(file);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    store.labels.saveSet({ name: 'default', seed: 3, items: [item('a'), item('b')], population: [] });
    expect(store.labels.set('default')?.items.map((i) => i.id)).toEqual(['a', 'b']);
    store.close();
  });

  it('keeps one label per rater and item, replaced when labelled again, and refuses a second set of a name', () => {
    const store = openStore(':memory:');
    store.labels.saveSet({
      name: 's',
      seed: 0,
      items: [item('b'), item('a')],
      population: [{ task: 'ladder/kb', judge: 'j', label: '1', count: 4 }],
    });
    expect(() => store.labels.saveSet({ name: 's', seed: 0, items: [], population: [] })).toThrow(/UNIQUE/);
    store.labels.save([
      { set: 's', item: 'a', rater: 'ann', label: '1', source: 'view' },
      { set: 's', item: 'b', rater: 'ann', label: '0', notes: 'unsure', source: 'view' },
    ]);
    store.labels.save([{ set: 's', item: 'a', rater: 'ann', label: '0.75', source: 'import:x.csv' }]);
    expect(store.labels.of('s').map((l) => [l.item, l.rater, l.label, l.notes, l.source])).toEqual([
      ['b', 'ann', '0', 'unsure', 'view'],
      ['a', 'ann', '0.75', undefined, 'import:x.csv'],
    ]);
    expect(() =>
      store.labels.save([{ set: 's', item: 'zz', rater: 'ann', label: '1', source: 'view' }]),
    ).toThrow(/FOREIGN KEY/);
    expect(store.labels.sets()).toMatchObject([{ name: 's', items: 2, labels: 2, raters: ['ann'] }]);
    expect(store.labels.set('s')?.population).toEqual([
      { task: 'ladder/kb', judge: 'j', label: '1', count: 4 },
    ]);
    store.close();
  });
});
