import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortLabels } from '../report/labels.js';
import { buildOrderStore, RANKED, SAGO_BY_LABEL } from '../test-support/report-order-store.js';
import { REPORTED } from '../test-support/report-store.js';
import { startViewer, type Viewer } from './server.js';

/**
 * The viewer's store page in Chromium: its table of evals, copied from the report by the page's
 * script, lists each eval's models in the eval's one order (docs/report.md#model-order).
 */

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM)
  ? undefined
  : `skipped: ${CHROMIUM} is missing (apt-get install chromium)`;

describe.skipIf(missing !== undefined)(
  `the viewer's store page in Chromium${missing ? ` (${missing})` : ''}`,
  () => {
    let browser: Browser;
    let dir: string;
    let viewer: Viewer;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'waver-view-order-'));
      const file = join(dir, 'store.db');
      buildOrderStore(file).close();
      viewer = await startViewer({ protocols: REPORTED, stores: [file] });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    });

    afterAll(async () => {
      await browser?.close();
      await viewer?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("lists each eval's models in its order: the ranking (ladder, paraphrase), by label (sago)", async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${viewer.url}stores/0`);
      await page.waitForSelector('#scores:not([hidden]) tbody tr', { timeout: 20_000 });
      const models = await page.$$eval('#scores tbody tr:not(.verdict)', (rows) =>
        rows.map((r) => r.querySelectorAll('td')[1]?.textContent?.trim() ?? ''),
      );
      const short = (labels: readonly string[]) => {
        const map = shortLabels(labels);
        return labels.map((l) => map.get(l) ?? l);
      };
      // Sections in the registry's order: ladder, sago, paraphrase.
      expect(models).toEqual([...short(RANKED), ...short(SAGO_BY_LABEL), ...short(RANKED)]);
      await page.close();
    });
  },
);
