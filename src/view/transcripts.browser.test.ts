import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../report/formats.js';
import { buildReport } from '../report/report-data.js';
import { buildReportStore, REPORTED } from '../test-support/report-store.js';
import { startViewer, type Viewer } from './server.js';

/**
 * The viewer's transcripts page in headless Chromium: the report's own browser over every cell of
 * a store, a page at a time. At a desktop and a narrow width no element is wider than the page and
 * the rows show their outcomes; each filter shows as many cells as the report's browser shows for
 * it over the same store; the pager, the comparison and a cell's detail work. WAVER_VIEW_SHOTS=DIR
 * saves its first screen per width there.
 */

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM)
  ? undefined
  : `skipped: ${CHROMIUM} is missing (apt-get install chromium)`;
const SHOTS = process.env.WAVER_VIEW_SHOTS;

describe.skipIf(missing !== undefined)(
  `the viewer's transcripts in Chromium${missing ? ` (${missing})` : ''}`,
  () => {
    let browser: Browser;
    let dir: string;
    let report: string;
    let viewer: Viewer;
    let url: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'waver-view-transcripts-'));
      const file = join(dir, 'store.db');
      const store = buildReportStore(file);
      report = join(dir, 'report.html');
      writeFileSync(report, renderReport(buildReport(store, REPORTED), 'html', REPORTED));
      store.close();
      viewer = await startViewer({ protocols: REPORTED, stores: [file] });
      url = `${viewer.url}stores/0/transcripts`;
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
      if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    });

    afterAll(async () => {
      await browser?.close();
      await viewer?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function open(address: string, width = 1400): Promise<{ page: Page; errors: string[] }> {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      await page.goto(address);
      await page.waitForSelector('body[data-ready="1"]');
      return { page, errors };
    }

    /** Elements wider than the page, and how far the page scrolls sideways. */
    const tooWide = (page: Page) =>
      page.evaluate(`(() => {
      const width = document.documentElement.clientWidth;
      const out = [];
      if (document.documentElement.scrollWidth > width) out.push('page: ' + document.documentElement.scrollWidth);
      for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && (r.right > width + 0.5 || r.left < -0.5))
          out.push(e.tagName + (e.id ? '#' + e.id : '') + ': ' + Math.round(r.left) + '..' + Math.round(r.right));
        if (out.length > 10) break;
      }
      return out;
    })()`) as Promise<string[]>;

    const outcomes = (page: Page) => page.locator('#rows td[data-label="outcome"]').allTextContents();

    for (const width of [1400, 800])
      it(`at ${width} px: nothing wider than the page, and every row with its outcome`, async () => {
        const { page, errors } = await open(url, width);
        expect(await tooWide(page)).toEqual([]);
        const shown = await outcomes(page);
        expect(shown).toHaveLength(50);
        expect(new Set(shown)).toEqual(new Set(['✓ correct', '✗ incorrect', '! failed', '– unscored']));
        // Readable ids: the item (a seed id), the model's label; no hash in a row.
        expect(await page.locator('#rows tr >> nth=0').locator('td[data-label="item"]').textContent()).toBe(
          'seed-a',
        );
        expect(await page.locator('#rows td[data-label="model"]').allTextContents()).toContain(
          'replay:beta <b>',
        );
        expect((await page.locator('#rows').textContent()) ?? '').not.toMatch(/[0-9a-f]{16}/);
        expect(await page.textContent('#count')).toBe('showing 1–50 of 182 cells (182 cells in the store)');
        // The evals by name, as the report's index names them, not by suite hash.
        const evals = await page.locator('#f-suite option').allTextContents();
        expect(evals[0]).toBe('every eval');
        expect(evals.slice(1).map((e) => e.replace(/ · \d{4}-\d\d-\d\d/, ''))).toEqual([
          'ladder · builtin · replay:alpha, replay:beta <b> (24 cells)',
          'sago · builtin, other · replay:alpha, replay:beta <b> (96 cells)',
          'paraphrase · builtin · replay:alpha, replay:beta <b> (60 cells)',
          'smoke.jsonl · replay:alpha (2 cells)',
        ]);
        if (width === 800) {
          // A row is a card: its fields side by side, the response on a line of its own.
          expect(await page.evaluate(`getComputedStyle(document.querySelector('#rows tr')).display`)).toBe(
            'flex',
          );
        }
        if (SHOTS) await page.screenshot({ path: join(SHOTS, `view-transcripts-${width}.png`) });
        expect(errors).toEqual([]);
        await page.close();
      });

    it("each filter shows as many cells as the report's browser shows for it", async () => {
      const { page: fromReport } = await open(`file://${report}`);
      const total = async (page: Page) =>
        /of (\d+)/.exec((await page.textContent('#count')) ?? '')?.[1] ?? '0';
      const cases: [string, string, string][] = [
        ['#f-outcome', 'outcome', 'incorrect'],
        ['#f-outcome', 'outcome', 'failed'],
        ['#f-outcome', 'outcome', 'unscored'],
        ['#f-flipped', 'flipped', 'yes'],
        ['#f-protocol', 'protocol', 'paraphrase'],
        ['#f-family', 'family', 'SV'],
        ['#f-level', 'level', 'L1'],
        ['#f-model', 'model', 'replay:beta <b>'],
      ];
      const { page } = await open(url);
      for (const [select, name, value] of cases) {
        await fromReport.selectOption(select, value);
        await page.goto(`${url}?${new URLSearchParams({ [name]: value })}`);
        await page.waitForSelector('body[data-ready="1"]');
        expect(await total(page), `${name}=${value}`).toBe(await total(fromReport));
        expect(await page.inputValue(select)).toBe(value);
        await fromReport.selectOption(select, '');
      }
      await fromReport.fill('#f-search', 'seed-b');
      await page.goto(`${url}?q=seed-b`);
      await page.waitForSelector('body[data-ready="1"]');
      expect(await total(page)).toBe(await total(fromReport));
      await fromReport.fill('#f-search', '');
      // Two models compared where they differ: as many pairs.
      await fromReport.check('#cmp-toggle');
      await fromReport.check('#cmp-differ');
      await page.goto(
        `${url}?${new URLSearchParams({ cmp: '1', a: 'replay:alpha', b: 'replay:beta <b>', differ: '1' })}`,
      );
      await page.waitForSelector('body[data-ready="1"]');
      expect(await page.textContent('#count')).toMatch(/paired tests/);
      expect(await total(page)).toBe(await total(fromReport));
      await fromReport.close();
      await page.close();
    });

    it('a filter, the pager, the comparison and a cell’s detail work as in the report', async () => {
      const { page, errors } = await open(url);
      // A filter asks the viewer for its page.
      await Promise.all([page.waitForURL(/outcome=failed/), page.selectOption('#f-outcome', 'failed')]);
      await page.waitForSelector('body[data-ready="1"]');
      expect(new Set(await outcomes(page))).toEqual(new Set(['! failed']));
      expect(await page.inputValue('#f-outcome')).toBe('failed');
      // The pager goes on over the whole store.
      await page.goto(url);
      await Promise.all([page.waitForURL(/after=/), page.click('#next')]);
      await page.waitForSelector('body[data-ready="1"]');
      expect(await page.textContent('#count')).toBe('showing 51–100 of 182 cells (182 cells in the store)');
      expect(await page.locator('#prev').getAttribute('href')).toBe('/stores/0/transcripts?');
      // Two models side by side on the same tests.
      await Promise.all([page.waitForURL(/cmp=1/), page.check('#cmp-toggle')]);
      await page.waitForSelector('body[data-ready="1"]');
      const heads = await page.locator('#rows-head th').allTextContents();
      expect(heads).toContain('A: replay:alpha');
      expect(heads).toContain('B: replay:beta <b>');
      expect(await page.textContent('#count')).toMatch(/^showing 1–\d+ of \d+ paired tests/);
      // A cell's detail: the diff from the original item, both panes.
      await page.selectOption('#f-suite', { index: 1 });
      await page.waitForURL(/suite=/);
      await page.waitForSelector('body[data-ready="1"]');
      await page.click('#rows tr >> nth=8');
      expect(await page.locator('#detail pre.diff').count()).toBe(1);
      expect(await page.locator('#detail .panes.two .cell').count()).toBe(2);
      expect(await page.evaluate('window.__waverPwned')).toBeUndefined();
      expect(errors).toEqual([]);
      await page.close();
    });
  },
);
