import { expect } from 'vitest';
import { openStore, type Store } from '../store/store.js';
import type { FakeModel } from './check/stores.js';
import { ladderStore } from './protocols/ladder/store.js';
import { paraphraseStore } from './protocols/paraphrase/store.js';
import { SAGO_MODELS, sagoStore } from './protocols/sago/store.js';

/**
 * A store whose models' ranking is neither their order in the store nor their labels' order
 * (docs/report.md#model-order): a ladder and a paraphrase eval of three models run as zebra,
 * aardvark, mongoose, which their comparison ranks mongoose (wrong on 1 test in 32), zebra (right
 * on 8 tests in 10, scattered over the items) and aardvark (right on whole items, 5 in 8); by
 * paraphrase's SAA (items right in every phrasing) aardvark ranks above zebra, a third order. And
 * a SAGO eval of `steady` then `fragile`, which has no comparison and is listed by label.
 */

function hash(s: string): number {
  let h = 7;
  for (const c of s) h = (h * 31 + (c.codePointAt(0) as number)) >>> 0;
  return h;
}

/** The item (paraphrase) or seed (ladder) a test asks. */
const unitOf = (test: { id: string; meta?: unknown }) => {
  const meta = (test.meta ?? {}) as { item?: string; seedId?: string };
  return meta.item ?? meta.seedId ?? test.id;
};

/** As stored: the models' order in the runs. */
export const STORED = ['replay:zebra-q4', 'replay:aardvark-q8', 'replay:mongoose-q2'] as const;
/** As the comparison ranks them: the one order of the ladder's and paraphrase's evals. */
export const RANKED = ['replay:mongoose-q2', 'replay:zebra-q4', 'replay:aardvark-q8'] as const;
/** SAGO's models by label: its eval has no comparison. */
export const SAGO_BY_LABEL = SAGO_MODELS.map((m) => m.label).sort();

const MODELS: FakeModel[] = [
  { label: STORED[0], identity: `${STORED[0]}@test`, answer: (t, r) => hash(`${t.id}/${r}`) % 10 < 8 },
  { label: STORED[1], identity: `${STORED[1]}@test`, answer: (t) => hash(unitOf(t)) % 8 < 5 },
  { label: STORED[2], identity: `${STORED[2]}@test`, answer: (t, r) => hash(`${t.id}/${r}`) % 32 !== 0 },
];

export function buildOrderStore(path = ':memory:'): Store {
  const store = openStore(path);
  ladderStore(store, MODELS, 12);
  paraphraseStore(store, MODELS, 8);
  sagoStore(store);
  return store;
}

/** The labels in the order a text first names them (each its full label or its short form). */
export function firstNamed(text: string, names: ReadonlyMap<string, readonly string[]>): string[] {
  const at = (forms: readonly string[]) =>
    Math.min(...forms.map((f) => text.indexOf(f)).filter((i) => i >= 0), Number.POSITIVE_INFINITY);
  return [...names]
    .map(([label, forms]) => ({ label, i: at(forms) }))
    .filter((x) => Number.isFinite(x.i))
    .sort((a, b) => a.i - b.i)
    .map((x) => x.label);
}

/**
 * Every part that names two or more of the models lists them in `order`: each part's first
 * mentions are a subsequence of it. Returns how many parts named two or more, so a test can check
 * it looked at the tables it means to.
 */
export function expectOrder(
  parts: readonly string[],
  names: ReadonlyMap<string, readonly string[]>,
  order: readonly string[],
  where: string,
): number {
  let checked = 0;
  for (const part of parts) {
    const seen = firstNamed(part, names);
    if (seen.length < 2) continue;
    checked++;
    expect(seen, `${where}: ${part.slice(0, 160)}`).toEqual(order.filter((m) => seen.includes(m)));
  }
  return checked;
}

/** A Markdown text's tables (runs of `|` lines) and its headings, each a part. */
export function markdownParts(markdown: string): { tables: string[]; headings: string } {
  const tables: string[] = [];
  let current: string[] = [];
  const headings: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) current.push(line);
    else {
      if (current.length > 0) tables.push(current.join('\n'));
      current = [];
    }
    if (line.startsWith('#')) headings.push(line);
  }
  if (current.length > 0) tables.push(current.join('\n'));
  return { tables, headings: headings.join('\n') };
}

/** An HTML text's tables, its charts' SVGs (legends, axes), and its headings and figure titles as one part. */
export function htmlParts(html: string): { tables: string[]; charts: string[]; headings: string } {
  const all = (re: RegExp) => [...html.matchAll(re)].map((m) => m[0]);
  return {
    tables: all(/<table[\s\S]*?<\/table>/g),
    charts: all(/<svg[\s\S]*?<\/svg>/g),
    headings: all(/<h[2-6][^>]*>[\s\S]*?<\/h[2-6]>|<figcaption><strong>[\s\S]*?<\/strong>/g).join('\n'),
  };
}
