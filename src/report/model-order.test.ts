import { describe, expect, it } from 'vitest';
import { loadLadderResults } from '../protocols/ladder/results.js';
import { formatLadderReport } from '../protocols/ladder/tables.js';
import { loadParaphraseResults } from '../protocols/paraphrase/results.js';
import { formatParaphraseReport } from '../protocols/paraphrase/tables.js';
import { loadSagoResults } from '../protocols/sago/results.js';
import { formatSagoResults } from '../protocols/sago/tables.js';
import {
  buildOrderStore,
  expectOrder,
  htmlParts,
  markdownParts,
  RANKED,
  SAGO_BY_LABEL,
  STORED,
} from '../test-support/report-order-store.js';
import { REPORTED } from '../test-support/report-store.js';
import { renderReport } from './formats.js';
import { shortLabels } from './labels.js';
import { buildReport } from './report-data.js';
import { loadCharting } from './vega-runtime.js';

// The charts draw with vega, loaded once as the CLI loads it (report/vega-runtime.ts); the pages
// below are rendered as the tests are collected.
await loadCharting();

/**
 * Issue 37: "one row per model, the same order (the comparison's ranking) everywhere in an eval".
 * A store whose ranking (mongoose, zebra, aardvark) is neither its stored order (zebra, aardvark,
 * mongoose) nor its labels' (aardvark, mongoose, zebra): every table, heading, chart and legend
 * of the ladder and paraphrase evals lists the models as the comparison ranks them, and SAGO's
 * (no comparison) by label, in the Markdown, the HTML and the JSON (docs/report.md#model-order).
 */

const store = buildOrderStore();
const data = buildReport(store, REPORTED, { now: '2025-06-01T12:00:00.000Z' });
const section = (protocol: string) => data.sections.find((s) => s.protocol === protocol);

/** Each model's label and its short form, as the HTML shows it. */
function names(labels: readonly string[]): Map<string, string[]> {
  const short = shortLabels(labels);
  return new Map(labels.map((l) => [l, [l, short.get(l) ?? l]]));
}

/**
 * The part of a report between one eval's heading and the next, without the heading itself
 * (the eval's name lists its models as the index does, which would hide the order of the rest).
 */
function evalPart(text: string, start: RegExp, end: RegExp, heading: RegExp): string {
  const from = text.search(start);
  expect(from, `${start}`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(from + 1);
  const to = rest.search(end);
  const part = to < 0 ? rest : rest.slice(0, to);
  return part.replace(heading, '');
}

const H2 = /^[\s\S]*?<\/h2>/;

const EVALS = [
  { protocol: 'ladder', order: [...RANKED], by: 'comparison' },
  { protocol: 'paraphrase', order: [...RANKED], by: 'comparison' },
  { protocol: 'sago', order: SAGO_BY_LABEL, by: 'label' },
] as const;

describe("one model order per eval: the comparison's ranking, else by label", () => {
  it('the store ranks its models neither as stored nor by label', () => {
    expect(section('ladder')?.comparison?.ranking.map((m) => m.label)).toEqual(RANKED);
    expect(section('paraphrase')?.comparison?.ranking.map((m) => m.label)).toEqual(RANKED);
    expect(RANKED).not.toEqual(STORED);
    expect(RANKED).not.toEqual([...STORED].sort());
    expect(section('sago')?.comparison).toBeUndefined();
    // Paraphrase's own ranking, by SAA, is a third order: its leaderboard's rank is a column.
    const p = section('paraphrase')?.results as { leaderboard: { ranked: string[] } };
    expect(p.leaderboard.ranked).toEqual([RANKED[0], RANKED[2], RANKED[1]].map((l) => `${l}@test`));
  });

  it.each(EVALS)(
    '$protocol: the section says its order and the index follows it',
    ({ protocol, order, by }) => {
      const s = section(protocol);
      expect(s?.modelOrder).toMatchObject({ by, models: order });
      expect(s?.summary?.models.map((m) => m.label)).toEqual(order);
    },
  );

  const markdown = renderReport(data, 'md', REPORTED);
  it.each(EVALS)('$protocol in Markdown: every table and heading in that order', ({ protocol, order }) => {
    const part = evalPart(markdown, new RegExp(`^## ${section(protocol)?.title}`, 'm'), /^## /m, /^.*\n/);
    const { tables, headings } = markdownParts(part);
    const n = names(order);
    const checked = expectOrder([...tables, headings], n, order, `${protocol} md`);
    // ladder: the comparison's two tables and the per-model headings (each table is one
    // model's); paraphrase: those, the leaderboard, per phrasing, parse rate, instability, flips;
    // sago: the tolerance table and the per-model headings.
    expect(checked).toBeGreaterThanOrEqual({ ladder: 3, paraphrase: 7, sago: 2 }[protocol]);
  });

  const html = renderReport(data, 'html', REPORTED);
  it.each(EVALS)(
    '$protocol in HTML: every table, chart, legend and heading in that order',
    ({ protocol, order }) => {
      const id = section(protocol)?.id as string;
      const part = evalPart(html, new RegExp(`<section id="${id}"`), /<section id="/, H2);
      const { tables, charts, headings } = htmlParts(part);
      const n = names(order);
      expectOrder([...tables, headings], n, order, `${protocol} html`);
      const drawn = expectOrder(charts, n, order, `${protocol} charts`);
      expect(drawn).toBeGreaterThanOrEqual(1);
    },
  );

  it('the HTML index lists each eval in its order', () => {
    const index = evalPart(html, /<section id="evals"/, /<section id="/, H2);
    for (const { protocol, order } of EVALS) {
      const id = section(protocol)?.id as string;
      const body = new RegExp(`<tbody data-eval="${id}">[\\s\\S]*?</tbody>`).exec(index)?.[0] ?? '';
      expect(expectOrder([body], names(order), order, `${protocol} index`)).toBe(1);
    }
  });

  it.each(EVALS)('$protocol in JSON: its models in that order', ({ protocol, order }) => {
    const json = JSON.parse(renderReport(data, 'json', REPORTED)) as {
      sections: { protocol: string; modelOrder: { models: string[] }; results: { models: unknown[] } }[];
    };
    const s = json.sections.find((x) => x.protocol === protocol);
    expect(s?.modelOrder.models).toEqual(order);
    const labels = (s?.results.models ?? []).map((m) => (m as { label: string }).label);
    expect(labels).toEqual(order);
  });
});

describe("a run's output: the models in the order of the comparison it ends on", () => {
  const suite = (protocol: string) => section(protocol)?.suite.hash as string;
  const headingsOf = (md: string) => markdownParts(md).headings;

  it('ladder: each model part in the ranking, as the report', () => {
    const results = loadLadderResults(store, suite('ladder'));
    expect(results.models.map((m) => m.label)).not.toEqual(RANKED);
    const md = formatLadderReport({ results }, 'md');
    expect(md).toContain('## Comparison');
    expect(expectOrder([headingsOf(md)], names(RANKED), RANKED, 'ladder run')).toBe(1);
    const json = JSON.parse(formatLadderReport({ results }, 'json')) as { models: { label: string }[] };
    expect(json.models.map((m) => m.label)).toEqual(RANKED);
  });

  it('paraphrase: every table in the ranking, as the report', () => {
    const results = loadParaphraseResults(store, suite('paraphrase'));
    const md = formatParaphraseReport(results, 'md');
    const { tables } = markdownParts(md);
    expect(expectOrder(tables, names(RANKED), RANKED, 'paraphrase run')).toBeGreaterThanOrEqual(6);
  });

  it('sago: by label, as the report', () => {
    const results = loadSagoResults(store, suite('sago'), { ablations: false });
    expect(results.models.map((m) => m.model.label)).not.toEqual(SAGO_BY_LABEL);
    const md = formatSagoResults(results, 'md');
    expect(expectOrder([headingsOf(md)], names(SAGO_BY_LABEL), SAGO_BY_LABEL, 'sago run')).toBe(1);
  });
});
