import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildReportStore,
  HOSTILE_QUESTION,
  HOSTILE_RESPONSE,
  REPORTED,
} from '../../test-support/report-store.js';
import { renderReport } from '../formats.js';
import { buildReport } from '../report-data.js';
import { loadCharting } from '../vega-runtime.js';

// The charts draw with vega, loaded once as the CLI loads it (report/vega-runtime.ts).
beforeAll(loadCharting);

/**
 * The HTML report in headless Chromium (Debian's package; .ci/run installs it): it opens with no
 * console error and no request but the file itself, draws its charts, its filters change the rows,
 * and hostile model or dataset text is shown as text and never runs.
 */

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM)
  ? undefined
  : `skipped: ${CHROMIUM} is missing (apt-get install chromium)`;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

describe.skipIf(missing !== undefined)(`the HTML report in Chromium${missing ? ` (${missing})` : ''}`, () => {
  let browser: Browser;
  let dir: string;
  let file: string;
  let cells: number;

  beforeAll(async () => {
    const store = buildReportStore();
    const data = buildReport(store, REPORTED, { now: '2025-06-01T12:00:00.000Z' });
    store.close();
    cells = data.cells.length;
    dir = mkdtempSync(join(tmpdir(), 'waver-report-browser-'));
    file = join(dir, 'report.html');
    writeFileSync(file, renderReport(data, 'html', REPORTED));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the report and records console errors, page errors and every request. */
  async function open(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready="1"]');
    return { page, errors, requests };
  }

  const rowCount = (page: Page) => page.locator('#rows tr').count();
  const countText = (page: Page) => page.locator('#count').textContent();

  it('opens with no console error and makes no request but the file itself', async () => {
    const { page, errors, requests } = await open();
    // Exercise the page: filters, a detail with its diff, the comparison.
    await page.selectOption('#f-protocol', 'ladder');
    await page.click('#rows tr >> nth=8');
    await page.check('#cmp-toggle');
    await page.click('#rows tr >> nth=0');
    expect(errors).toEqual([]);
    expect(requests).toEqual([`file://${file}`]);
    await page.close();
  });

  it('draws each protocol section’s charts as inline SVG', async () => {
    const { page } = await open();
    for (const protocol of ['ladder', 'sago', 'paraphrase']) {
      const svgs = await page.locator(`section[data-protocol="${protocol}"] figure.chart svg`).count();
      expect(svgs, protocol).toBeGreaterThanOrEqual(3);
    }
    // A degradation curve has its lines drawn.
    const lines = await page
      .locator('section[data-protocol="ladder"] figure.chart >> nth=0')
      .locator('g.mark-line path')
      .count();
    expect(lines).toBe(2);
    expect(await page.locator('figure.chart .warn').count()).toBe(0);
    await page.close();
  });

  it('filters change the visible rows', async () => {
    const { page } = await open();
    expect(await countText(page)).toBe(`showing 1–50 of ${cells} cells (${cells} in the report)`);
    expect(await rowCount(page)).toBe(50);

    await page.selectOption('#f-protocol', 'paraphrase');
    expect(await countText(page)).toMatch(/^showing 1–50 of 60 cells/);
    const protocols = await page.locator('#rows tr td:nth-child(1)').allTextContents();
    expect(new Set(protocols)).toEqual(new Set(['paraphrase']));

    await page.selectOption('#f-model', 'replay:beta <b>');
    expect(await countText(page)).toMatch(/^showing 1–30 of 30 cells/);
    await page.selectOption('#f-outcome', 'failed');
    expect(await rowCount(page)).toBe(3);
    await page.selectOption('#f-outcome', '');
    await page.selectOption('#f-flipped', 'yes');
    expect(await page.locator('#rows tr td:nth-child(8)').allTextContents()).toEqual([
      '⇄ flipped',
      '⇄ flipped',
    ]);

    await page.selectOption('#f-protocol', '');
    await page.selectOption('#f-model', '');
    expect(await rowCount(page)).toBe(5); // 1 ladder flip + 4 paraphrase flips
    await page.selectOption('#f-flipped', '');
    await page.selectOption('#f-family', 'SV');
    await page.selectOption('#f-level', 'L1');
    expect(await rowCount(page)).toBe(4);
    await page.selectOption('#f-outcome', 'incorrect');
    expect(await rowCount(page)).toBe(1);
    await page.selectOption('#f-outcome', '');
    await page.selectOption('#f-family', '');
    await page.selectOption('#f-level', '');
    await page.fill('#f-search', 'seed-b');
    expect(await countText(page)).toMatch(/of 12 cells/);
    // Paging.
    await page.fill('#f-search', '');
    await page.click('#next');
    expect(await countText(page)).toBe(`showing 51–100 of ${cells} cells (${cells} in the report)`);
    await page.close();
  });

  it('shows a cell’s prompt, original, character diff, response, parse, score and judge reason', async () => {
    const { page } = await open();
    await page.selectOption('#f-flipped', 'yes');
    await page.selectOption('#f-protocol', 'ladder');
    await page.click('#rows tr >> nth=0');
    const detail = page.locator('#detail');
    await expect.poll(() => detail.isVisible()).toBe(true);
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain(`QUESTION: ${HOSTILE_QUESTION.replace('sells', 'offers')}`);
    expect(text).toContain('parsed answer13');
    expect(text).toContain('reasonparsed via hashes');
    expect(text).toContain('⇄ flipped');
    // "sells" -> "offers": the word diff marks the word taken out and the one put in.
    const dels = await detail.locator('pre.diff del').allTextContents();
    const ins = await detail.locator('pre.diff ins').allTextContents();
    expect(dels).toEqual(['sells']);
    expect(ins).toEqual(['offers']);
    expect(await detail.locator('h4').first().textContent()).toContain(
      'word diff: 1 word taken out, 1 word put in',
    );
    // (Page code as a string: the repository's TypeScript has no DOM types.)
    const plain = await page.evaluate(`(() => {
      const pre = document.querySelector('#detail pre.diff');
      let before = '';
      let after = '';
      for (const n of Array.from(pre.childNodes)) {
        const t = n.textContent || '';
        if (n.nodeName !== 'INS') before += t;
        if (n.nodeName !== 'DEL') after += t;
      }
      return { before, after };
    })()`);
    expect(plain).toEqual({ before: HOSTILE_QUESTION, after: HOSTILE_QUESTION.replace('sells', 'offers') });
    // By character on request: only the letters that differ are marked.
    await page.check('#diff-chars');
    const charDels = (await detail.locator('pre.diff del').allTextContents()).join('');
    expect(charDels.length).toBeGreaterThan(0);
    expect(charDels.length).toBeLessThan('sells'.length);
    await page.close();
  });

  it('shows hostile responses, labels and dataset text as inert text: no script runs, nothing loads', async () => {
    const { page, requests, errors } = await open();
    // The search reads prompts too: the hostile dataset question holds `waverPwned` as well.
    await page.fill('#f-search', 'waverPwned = "script"');
    expect(await rowCount(page)).toBeGreaterThan(0);
    await page.click('#rows tr >> nth=0');
    const response = page.locator('#detail pre[data-testid="response"]');
    expect(await response.textContent()).toBe(HOSTILE_RESPONSE);
    expect(await page.locator('#detail').textContent()).toContain('answers <b>7</b> as if the premise held');
    // The dataset string that tries to close the data element is shown whole.
    expect(await page.locator('#detail').textContent()).toContain(HOSTILE_QUESTION);
    // The model label with markup is text in the options and the rows.
    expect(await page.locator('#f-model option').allTextContents()).toContain('replay:beta <b>');
    expect(await page.locator('b').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"], a[href^="http"]').count()).toBe(0);
    expect(await page.evaluate('typeof window.__waverPwned')).toBe('undefined');
    expect(errors).toEqual([]);
    expect(requests).toEqual([`file://${file}`]);
    await page.close();
  });

  it('compares two models side by side on the same tests', async () => {
    const { page } = await open();
    await page.check('#cmp-toggle');
    expect(await countText(page)).toBe(`showing 1–50 of 90 paired tests (${cells} in the report)`);
    const heads = await page.locator('#rows-head th').allTextContents();
    expect(heads).toEqual([
      'protocol',
      'item',
      'family',
      'level',
      'rep',
      'A: replay:alpha',
      'B: replay:beta <b>',
      'A response',
      'B response',
    ]);
    await page.check('#cmp-differ');
    const differing = await rowCount(page);
    expect(differing).toBeGreaterThan(0);
    expect(differing).toBeLessThan(50);
    await page.selectOption('#f-protocol', 'ladder');
    await page.click('#rows tr >> nth=0');
    const panes = page.locator('#detail .panes.two .cell');
    expect(await panes.count()).toBe(2);
    expect(await panes.locator('h4').allTextContents()).toEqual(['replay:alpha', 'replay:beta <b>']);
    await page.close();
  });
});
