import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportStore, REPORTED } from '../../test-support/report-store.js';
import { renderReport } from '../formats.js';
import { buildReport } from '../report-data.js';

/**
 * The HTML report's layout in headless Chromium at a desktop and a narrow width: no section is
 * wider than the page, and no two labels of a chart (axis labels, titles, legend entries, text
 * marks) overlap. WAVER_REPORT_SHOTS=DIR saves a full-page screenshot per width there.
 */

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM)
  ? undefined
  : `skipped: ${CHROMIUM} is missing (apt-get install chromium)`;
const SHOTS = process.env.WAVER_REPORT_SHOTS;

describe.skipIf(missing !== undefined)(`the HTML report's layout${missing ? ` (${missing})` : ''}`, () => {
  let browser: Browser;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    const store = buildReportStore();
    const data = buildReport(store, REPORTED, { now: '2025-06-01T12:00:00.000Z' });
    store.close();
    dir = mkdtempSync(join(tmpdir(), 'waver-report-layout-'));
    file = join(dir, 'report.html');
    writeFileSync(file, renderReport(data, 'html', REPORTED));
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      writeFileSync(join(SHOTS, 'report.html'), readFileSync(file));
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready="1"]');
    return page;
  }

  for (const width of [1400, 800]) {
    it(`at ${width} px no section is wider than the page`, async () => {
      const page = await open(width);
      // (Page code as a string: the repository's TypeScript has no DOM types.)
      const wide = (await page.evaluate(`(() => {
        const out = [];
        const page = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > page) out.push('page scrolls sideways: ' + document.documentElement.scrollWidth);
        for (const s of document.querySelectorAll('main > section')) {
          if (s.scrollWidth > s.clientWidth + 1) out.push(s.id + ': ' + s.scrollWidth + ' > ' + s.clientWidth);
          for (const f of s.querySelectorAll('figure.chart, .table-wrap, #detail'))
            if (f.scrollWidth > f.clientWidth + 1)
              out.push(s.id + ' ' + (f.id || f.className) + ': ' + f.scrollWidth + ' > ' + f.clientWidth);
        }
        return out;
      })()`)) as string[];
      if (SHOTS) {
        await page.screenshot({ path: join(SHOTS, `report-${width}.png`), fullPage: true });
        // Per section, without the sticky bar drawn over each one.
        await page.addStyleTag({ content: 'nav { position: static; }' });
        for (const id of (await page.evaluate(
          `Array.from(document.querySelectorAll('main > section')).map((s) => s.id)`,
        )) as string[])
          await page
            .locator(`section[id="${id}"]`)
            .screenshot({ path: join(SHOTS, `report-${width}-${id}.png`) });
      }
      expect(wide).toEqual([]);
      await page.close();
    });

    it(`at ${width} px the first screen is the index of evals, and no element is wider than the page`, async () => {
      const page = await open(width);
      const first = (await page.evaluate(`(() => {
        const main = document.querySelector('main > section');
        const h = main.querySelector('h2').getBoundingClientRect();
        return {
          id: main.id,
          heading: main.querySelector('h2').textContent,
          headingTop: h.top,
          // One row per model of each eval (issue 37.2), then the eval's answer.
          rows: document.querySelectorAll('#index tbody tr:not(.verdict)').length,
          firstRowBottom: document.querySelector('#index tbody tr').getBoundingClientRect().top,
          appendixOpen: document.getElementById('appendix-details').open,
        };
      })()`)) as Record<string, unknown>;
      expect(first).toMatchObject({ id: 'evals', heading: 'Evals', rows: 6, appendixOpen: false });
      // The index starts on the first screen (900 px tall).
      expect(first.firstRowBottom as number).toBeLessThan(900);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `report-first-${width}.png`) });
      // Every element, with the appendix open and two models compared (the widest state).
      await page.evaluate(`document.getElementById('appendix-details').open = true`);
      // Model labels as long as a gguf path, in both compare selects.
      await page.evaluate(`(() => {
        for (const id of ['cmp-a', 'cmp-b', 'f-model']) {
          const o = document.createElement('option');
          o.value = o.textContent = 'gguf:/home/someone/models/llama-2-7b-chat.Q4_K_M-' + id + '-with-a-long-name.gguf';
          document.getElementById(id).appendChild(o);
          document.getElementById(id).value = o.value;
        }
      })()`);
      await page.check('#cmp-toggle');
      await page.selectOption('#cmp-a', { index: 1 });
      await page.selectOption('#cmp-b', { index: 2 });
      await page.click('#rows tr >> nth=0');
      const wide = (await page.evaluate(`(() => {
        const limit = document.documentElement.clientWidth;
        const out = [];
        if (document.documentElement.scrollWidth > limit) out.push('page: ' + document.documentElement.scrollWidth);
        for (const e of document.querySelectorAll('body *')) {
          const r = e.getBoundingClientRect();
          if (r.width === 0) continue;
          if (r.right > limit + 1 && !e.closest('.table-wrap, .plot'))
            out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className + ': right ' + Math.round(r.right));
        }
        for (const w of document.querySelectorAll('.table-wrap, .plot'))
          if (w.scrollWidth > w.clientWidth + 1) out.push('table-wrap in ' + w.closest('section').id + ': ' + w.scrollWidth + ' > ' + w.clientWidth);
        return out;
      })()`)) as string[];
      expect(wide).toEqual([]);
      await page.close();
    });

    it(`at ${width} px each nav link brings its heading into view below the sticky nav`, async () => {
      const page = await open(width);
      const links = (await page.evaluate(
        `Array.from(document.querySelectorAll('nav a')).map((a) => a.getAttribute('href'))`,
      )) as string[];
      expect(links).toEqual(['#evals', '#transcripts', '#appendix']);
      // The index's links to each eval too.
      const evals = (await page.evaluate(
        `[...new Set(Array.from(document.querySelectorAll('#index td[data-label="eval"] a')).map((a) => a.getAttribute('href')))]`,
      )) as string[];
      expect(evals).toHaveLength(3);
      for (const href of [...links, ...evals]) {
        await page.click(`a[href="${href}"] >> nth=0`);
        await page.waitForTimeout(100);
        const where = (await page.evaluate(`(() => {
          const target = document.getElementById(${JSON.stringify(href.slice(1))});
          const h = target.querySelector('h2').getBoundingClientRect();
          const nav = document.querySelector('nav').getBoundingClientRect();
          return { top: h.top, bottom: h.bottom, navBottom: nav.bottom, height: innerHeight };
        })()`)) as { top: number; bottom: number; navBottom: number; height: number };
        expect(where.top, href).toBeGreaterThanOrEqual(where.navBottom - 1);
        expect(where.bottom, href).toBeLessThanOrEqual(where.height);
      }
      // The appendix opened when its link was followed.
      expect(await page.evaluate(`document.getElementById('appendix-details').open`)).toBe(true);
      await page.close();
    });

    it(`at ${width} px no two labels of a chart overlap`, async () => {
      const page = await open(width);
      const overlaps = (await page.evaluate(`(() => {
        // A label's box as the four corners it covers on screen (rotated labels stay rotated).
        const corners = (x, y, w, h, m) =>
          [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(([px, py]) => new DOMPoint(px, py).matrixTransform(m));
        const boxOf = (t) => {
          const b = t.getBBox();
          return corners(b.x, b.y, b.width, b.height, t.getScreenCTM());
        };
        const rectOf = (e) => {
          const r = e.getBoundingClientRect();
          return corners(r.left, r.top, r.width, r.height, new DOMMatrix());
        };
        // Separating axes: two convex boxes overlap when their shadows overlap (by more than
        // 1.5 px, the font's leading) on every edge normal of both.
        const overlap = (p, q) => {
          for (const poly of [p, q])
            for (let i = 0; i < 4; i++) {
              const a = poly[i], b = poly[(i + 1) % 4];
              const nx = a.y - b.y, ny = b.x - a.x, len = Math.hypot(nx, ny) || 1;
              const proj = (pts) => pts.map((v) => (v.x * nx + v.y * ny) / len);
              const pp = proj(p), qq = proj(q);
              const depth = Math.min(Math.max(...pp), Math.max(...qq)) - Math.max(Math.min(...pp), Math.min(...qq));
              if (depth <= 1.5) return false;
            }
          return true;
        };
        const out = [];
        for (const fig of document.querySelectorAll('figure.chart')) {
          const boxes = [];
          for (const t of fig.querySelectorAll('svg text')) {
            if (!t.textContent || !t.textContent.trim()) continue;
            const b = t.getBBox();
            if (b.width === 0 || b.height === 0) continue;
            boxes.push({ text: t.textContent, p: boxOf(t) });
          }
          for (const k of fig.querySelectorAll('.key')) boxes.push({ text: k.textContent, p: rectOf(k) });
          for (let i = 0; i < boxes.length; i++)
            for (let j = i + 1; j < boxes.length; j++)
              if (overlap(boxes[i].p, boxes[j].p))
                out.push(fig.id + ' ' + JSON.stringify(fig.getAttribute('aria-label')) + ': ' + JSON.stringify(boxes[i].text) + ' × ' + JSON.stringify(boxes[j].text));
        }
        return out;
      })()`)) as string[];
      expect(overlaps).toEqual([]);
      await page.close();
    });
  }
});
