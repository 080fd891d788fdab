import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { populationOf, sampleJudged } from '../judge/sample.js';
import { type ProtocolModule, withAdapters } from '../protocols/adapters.js';
import { ladderProtocol } from '../protocols/ladder/index.js';
import { openStore } from '../store/store.js';
import { buildJudgedStore } from '../test-support/judge/judged-store.js';
import { REPORTED } from '../test-support/report-store.js';
import { startViewer, type Viewer } from './server.js';

/**
 * The labelling page of `waver view` in headless Chromium, driven with the keyboard alone: a name
 * and Enter, number keys to label (each saved to the store at once), `/` and Escape for a note,
 * the arrows to go back; a reload resumes at the first unlabelled item. Hostile-looking text is
 * shown as text.
 */

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM)
  ? undefined
  : `skipped: ${CHROMIUM} is missing (apt-get install chromium)`;
/** WAVER_VIEW_SHOTS=DIR saves screenshots of the labelling page there. */
const SHOTS = process.env.WAVER_VIEW_SHOTS;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
  '--disable-sync',
];

describe.skipIf(missing !== undefined)(
  `the labelling page in Chromium${missing ? ` (${missing})` : ''}`,
  () => {
    let browser: Browser;
    let dir: string;
    let file: string;
    /** A store with no labelling set. */
    let empty: string;
    let viewer: Viewer;
    let order: string[];
    /** Each sampled item's rubric labels, in key order (1, 2, ...). */
    let rubric: Map<string, string[]>;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'waver-label-browser-'));
      file = join(dir, 'store.db');
      const store = buildJudgedStore(file);
      const [ladder] = (await withAdapters([ladderProtocol])) as [ProtocolModule];
      const items = await (ladder.judged as NonNullable<ProtocolModule['judged']>)(store);
      const sample = sampleJudged(items, 6, 1);
      order = sample.map((i) => i.id);
      rubric = new Map(
        sample.map((i) => [i.id, (i.rubric.labels as { value: string }[]).map((l) => l.value)]),
      );
      store.labels.saveSet({ name: 'default', seed: 1, items: sample, population: populationOf(items) });
      store.close();
      empty = join(dir, 'empty.db');
      openStore(empty).close();
      viewer = await startViewer({ protocols: REPORTED, stores: [file, empty] });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    });

    afterAll(async () => {
      await browser?.close();
      await viewer?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function open(url: string): Promise<{ page: Page; errors: string[] }> {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      return { page, errors };
    }

    /** Waits until the page shows item `id` (the page's CSP allows no evaluated script, so locators). */
    const showing = (page: Page, id: string | undefined) =>
      page.locator('#itemid', { hasText: id as string }).waitFor();

    const labels = () => {
      const store = openStore(file, { readonly: true });
      try {
        return store.labels.of('default');
      } finally {
        store.close();
      }
    };

    it('labels with the keyboard alone, saves each label at once, and resumes after a reload', async () => {
      const { page, errors } = await open(`${viewer.url}stores/0/label`);
      await page.waitForSelector('#set option', { state: 'attached' });
      // The name field has the focus: type, Enter.
      await page.keyboard.type('Ada');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#work:not([hidden])');
      expect(await page.textContent('#progress')).toContain('item 1 of ');
      expect(await page.textContent('#itemid')).toBe(order[0]);
      // The keys hint counts this item's labels (it said "1…4" under a pass/fail rubric: issue 37.8).
      const keys = (n: number) => (n === 2 ? '1 or 2' : `1…${n}`);
      expect(await page.textContent('#keys')).toBe(keys(rubric.get(order[0] as string)?.length ?? 0));
      const firstResponse = await page.textContent('#response');
      expect(firstResponse?.length).toBeGreaterThan(0);

      // The sample mixes KB responses (four points) and NLI gate candidates (pass/fail): the highest key of each.
      const top = (id: string | undefined) => String(rubric.get(id as string)?.length);
      const value = (id: string | undefined, key: number) => rubric.get(id as string)?.[key - 1];
      await page.keyboard.press(top(order[0]));
      await page.locator('#status', { hasText: /^saved/ }).waitFor();
      expect(await page.textContent('#itemid')).toBe(order[1]);
      // A note on the second item, then its label: the note is saved with it.
      await page.keyboard.press('/');
      await page.keyboard.type('hedges, then answers');
      await page.keyboard.press('Escape');
      await page.keyboard.press('2');
      await showing(page, order[2]);
      expect(await page.textContent('#keys')).toBe(keys(rubric.get(order[2] as string)?.length ?? 0));
      await page.keyboard.press('1');
      await showing(page, order[3]);

      let saved = labels();
      expect(saved.map((l) => [l.item, l.rater, l.label, l.source])).toEqual([
        [order[0], 'Ada', value(order[0], Number(top(order[0]))), 'view'],
        [order[1], 'Ada', value(order[1], 2), 'view'],
        [order[2], 'Ada', value(order[2], 1), 'view'],
      ]);
      expect(saved.find((l) => l.item === order[1])?.notes).toBe('hedges, then answers');

      // Back to the first item with the arrow and relabel it: the label is replaced, not added.
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      expect(await page.textContent('#itemid')).toBe(order[0]);
      expect(await page.getAttribute('#rubric li.chosen', 'data-value')).toBe(
        value(order[0], Number(top(order[0]))),
      );
      // A gate's letter key (f: fail) or the KB rubric's third point.
      const isGate = top(order[0]) === '2';
      await page.keyboard.press(isGate ? 'f' : '3');
      const relabelled = isGate ? 'fail' : '0.75';
      await page.locator('#status', { hasText: `= ${relabelled}` }).waitFor();
      saved = labels();
      expect(saved.filter((l) => l.item === order[0]).map((l) => l.label)).toEqual([relabelled]);
      await page.close();

      // A reload (the name and set are in the URL) resumes at the first item not yet labelled.
      const again = await open(`${viewer.url}stores/0/label?set=default&rater=Ada`);
      await again.page.waitForSelector('#work:not([hidden])');
      expect(await again.page.textContent('#itemid')).toBe(order[3]);
      expect(await again.page.textContent('#progress')).toContain('3 labelled');
      await again.page.close();
      expect([...errors, ...again.errors]).toEqual([]);
    });

    for (const width of [1400, 800])
      it(`at ${width} px labels by mouse alone, heads a gate's texts as its rubric names them, and points to the agreement when done`, async () => {
        const rater = `Mouse${width}`;
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${viewer.url}stores/0/label`);
        await page.waitForSelector('#set option', { state: 'attached' });
        await page.fill('#rater', rater);
        await page.click('#who button[type=submit]');
        await page.waitForSelector('#work:not([hidden])');
        let gates = 0;
        for (const [k, id] of order.entries()) {
          await showing(page, id);
          const task = (await page.textContent('#task')) ?? '';
          const gate = task.includes('gate');
          if (gate) gates++;
          expect(await page.textContent('#h-item'), task).toBe(gate ? 'ORIGINAL' : 'What was asked');
          expect(await page.textContent('#h-response'), task).toBe(gate ? 'CANDIDATE' : 'Response');
          expect(await page.isVisible('#done')).toBe(false);
          // Nothing on the page is wider than it (the rubric's buttons, the texts).
          expect(
            await page.evaluate(
              `document.documentElement.scrollWidth <= document.documentElement.clientWidth`,
            ),
          ).toBe(true);
          // The first label on the rubric, by clicking it.
          await page.click('#rubric li:first-child button');
          await page.locator('#status', { hasText: `saved ${id} = ${rubric.get(id)?.[0]}` }).waitFor();
          if (k === 0 && SHOTS) await page.screenshot({ path: join(SHOTS, `label-${width}.png`) });
        }
        expect(gates).toBeGreaterThan(0);
        await page.locator('#done:not([hidden])').waitFor();
        expect(await page.textContent('#done')).toContain(
          'waver judge agreement --store store.db --set default',
        );
        const mine = labels().filter((l) => l.rater === rater);
        expect(mine.map((l) => [l.item, l.label])).toEqual(order.map((id) => [id, rubric.get(id)?.[0]]));
        expect(errors).toEqual([]);
        await page.close();
      });

    for (const width of [1400, 800])
      it(`at ${width} px the viewer's index, store and cells pages are styled like the report and no wider than the page`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        for (const [name, path] of [
          ['index', ''],
          ['store', 'stores/0'],
          ['cells', 'stores/0/transcripts'],
        ] as const) {
          await page.goto(`${viewer.url}${path}`);
          if (name === 'store') await page.locator('#run', { hasNotText: 'connecting' }).waitFor();
          const look = (await page.evaluate(`(() => ({
            font: getComputedStyle(document.body).fontFamily,
            sticky: getComputedStyle(document.querySelector('nav') || document.body).position,
            wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          }))()`)) as { font: string; sticky: string; wide: number };
          expect(look.font, name).toMatch(/^system-ui/);
          expect(look.wide, name).toBeLessThanOrEqual(0);
          if (name === 'store') {
            expect(look.sticky).toBe('sticky');
            // The evals' scores, from the report: the ladder eval with each model's accuracy and CI
            // (this store's suite has no baseline: L0 is unavailable, said so).
            await page.locator('#scores-note', { hasNotText: 'reading the report' }).waitFor();
            expect(await page.textContent('#scores-note')).toMatch(/^From the report/);
            const scores = await page.locator('#scores tbody tr').allTextContents();
            // A row per model (this store's suite has KB tests only: no Stability, no Collapse Point,
            // each said so with its reason), then which model is more accurate and how sure.
            expect(scores).toHaveLength(3);
            expect(scores[0]).toMatch(
              /replay:alpha.*Stability unavailable \(no family that keeps an answer was asked\).*Collapse Point unavailable \(no baseline responses.*ladder/,
            );
            expect(scores[1]).toMatch(/replay:beta.*Stability unavailable/);
            expect(scores[2]).toMatch(
              /^replay:alpha ranks first on accuracy, but the paired test does not separate it/,
            );
            expect(await page.getAttribute('#scores a', 'href')).toMatch(
              /^\/stores\/0\/report#ladder-[0-9a-f]{8}$/,
            );
            // Runs link to their cells, suites to their eval in the report.
            const hrefs = await page
              .locator('#runs a')
              .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
            expect(hrefs.some((h) => /\/stores\/0\/transcripts\?suite=[0-9a-f]{64}$/.test(h ?? ''))).toBe(
              true,
            );
            expect(hrefs.some((h) => /\/stores\/0\/report#ladder-[0-9a-f]{8}$/.test(h ?? ''))).toBe(true);
          }
          if (SHOTS) await page.screenshot({ path: join(SHOTS, `view-${name}-${width}.png`) });
        }
        await page.close();
      });

    it('points a store with no labelling set to the exact command that makes one', async () => {
      const { page, errors } = await open(`${viewer.url}stores/1/label`);
      await page.waitForSelector('#none:not([hidden])');
      expect(await page.textContent('#sample-command')).toBe(`waver judge sample --store ${empty} --n 60`);
      expect(await page.isHidden('#who')).toBe(true);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, 'label-none.png') });
      expect(errors).toEqual([]);
      await page.close();
    });

    it('refuses a label from another origin and a label off the rubric', async () => {
      const post = (body: unknown, headers: Record<string, string>) =>
        fetch(`${viewer.url}stores/0/label/save`, { method: 'POST', headers, body: JSON.stringify(body) });
      const label = { set: 'default', item: order[4], rater: 'Eve', label: '1' };
      expect((await post(label, { 'Content-Type': 'text/plain' })).status).toBe(415);
      expect(
        (await post(label, { 'Content-Type': 'application/json', Origin: 'http://evil.example' })).status,
      ).toBe(403);
      expect((await post({ ...label, label: '0.5' }, { 'Content-Type': 'application/json' })).status).toBe(
        400,
      );
      expect((await post({ ...label, item: 'nope' }, { 'Content-Type': 'application/json' })).status).toBe(
        400,
      );
      expect(labels().some((l) => l.rater === 'Eve')).toBe(false);
    });
  },
);
