import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shortLabels } from '../report/labels.js';
import {
  buildOrderStore,
  expectOrder,
  htmlParts,
  RANKED,
  SAGO_BY_LABEL,
} from '../test-support/report-order-store.js';
import { REPORTED } from '../test-support/report-store.js';
import { startViewer } from './server.js';

/**
 * The viewer's eval pages (a store's report, whose index the store page copies) list each eval's
 * models in its one order (docs/report.md#model-order): the comparison's ranking for the ladder
 * and paraphrase, by label for SAGO.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-view-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'order.db');
buildOrderStore(path).close();
const viewer = await startViewer({ protocols: REPORTED, stores: [path] });
afterAll(() => viewer.close());

const names = (labels: readonly string[]) => {
  const short = shortLabels(labels);
  return new Map(labels.map((l) => [l, [l, short.get(l) ?? l]]));
};

describe("the viewer's eval pages: one model order per eval", () => {
  it.each([
    ['ladder', [...RANKED]],
    ['paraphrase', [...RANKED]],
    ['sago', SAGO_BY_LABEL],
  ] as const)('%s: the index, every table, chart and heading', async (protocol, order) => {
    const res = await fetch(`${viewer.url}stores/0/report`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const id = new RegExp(`<section id="(${protocol}-[0-9a-f]{8})"`).exec(html)?.[1];
    const index = new RegExp(`<tbody data-eval="${id}">[\\s\\S]*?</tbody>`).exec(html)?.[0] ?? '';
    expect(expectOrder([index], names(order), order, `${protocol} index`)).toBe(1);
    const from = html.indexOf(`<section id="${id}"`);
    const part = html.slice(from, html.indexOf('<section id="', from + 1)).replace(/^[\s\S]*?<\/h2>/, '');
    const { tables, charts, headings } = htmlParts(part);
    expect(expectOrder([...tables, headings, ...charts], names(order), order, protocol)).toBeGreaterThan(2);
  });
});
