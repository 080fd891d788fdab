import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { populationOf, sampleJudged } from '../judge/sample.js';
import { buildJudgedStore } from '../judge/test-support/judged-store.js';
import { type ProtocolModule, withAdapters } from '../protocols/adapters.js';
import { ladderProtocol } from '../protocols/ladder/index.js';
import { openStore } from '../store/store.js';
import { REPORTED } from '../test-support/report-store.js';
import { startViewer, type Viewer } from './server.js';

/**
 * A hostile report file served by `waver view --report` in headless Chromium: its script runs
 * (reports need theirs), but sandboxed at an opaque origin, so it can neither open the viewer's
 * labelling page and post a label through it, nor call the viewer's API itself. A label body over
 * 64 KB is answered 413, not a reset connection.
 */

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM)
  ? undefined
  : `skipped: ${CHROMIUM} is missing (apt-get install chromium)`;

describe.skipIf(missing !== undefined)(
  `a report served by waver view${missing ? ` (${missing})` : ''}`,
  () => {
    let browser: Browser;
    let dir: string;
    let file: string;
    let viewer: Viewer;
    let item: string;
    let label: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'waver-report-sandbox-'));
      file = join(dir, 'store.db');
      const store = buildJudgedStore(file);
      const [ladder] = (await withAdapters([ladderProtocol])) as [ProtocolModule];
      const items = await (ladder.judged as NonNullable<ProtocolModule['judged']>)(store);
      const sample = sampleJudged(items, 2, 1);
      const first = sample[0] as (typeof sample)[number];
      item = first.id;
      label = (first.rubric.labels as { value: string }[])[0]?.value as string;
      store.labels.saveSet({ name: 'default', seed: 1, items: sample, population: populationOf(items) });
      store.close();
      const save = JSON.stringify({ set: 'default', item, rater: 'mallory', label });
      // The attack: open the viewer's own labelling page (same origin, were the report not
      // sandboxed) and post a label with that page's fetch, then try the API directly.
      const report = join(dir, 'evil.html');
      writeFileSync(
        report,
        `<!doctype html><title>report</title><button id="go">open</button><p id="out">waiting</p><script>
      document.getElementById('go').onclick = async () => {
        const log = ['origin=' + self.origin];
        try {
          const w = window.open('/stores/0/label');
          if (!w) log.push('no window');
          else {
            await new Promise((r) => setTimeout(r, 1500));
            const res = await w.fetch('/stores/0/label/save', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(save)} });
            log.push('saved ' + res.status);
          }
        } catch (e) { log.push('window: ' + e.name); }
        try {
          const res = await fetch('/stores/0/label/save', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(save)} });
          log.push('fetch ' + res.status);
        } catch (e) { log.push('fetch: ' + e.name); }
        document.getElementById('out').textContent = log.join('; ');
      };
      </script>`,
      );
      viewer = await startViewer({ protocols: REPORTED, stores: [file], reports: [report] });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    });

    afterAll(async () => {
      await browser?.close();
      await viewer?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const labels = () => {
      const store = openStore(file, { readonly: true });
      try {
        return store.labels.of('default');
      } finally {
        store.close();
      }
    };

    it('runs the report script at an opaque origin that can write no label', async () => {
      const page = await browser.newPage();
      await page.goto(`${viewer.url}reports/0`);
      await page.click('#go');
      const out = page.locator('#out', { hasNotText: 'waiting' });
      await out.waitFor({ timeout: 15_000 });
      const text = (await out.textContent()) as string;
      expect(text).toContain('origin=null');
      expect(text).not.toMatch(/saved|fetch \d/);
      await page.close();
      expect(labels()).toEqual([]);
    }, 30_000);

    it('a store report is sandboxed the same way', async () => {
      const page = await browser.newPage();
      const res = await page.goto(`${viewer.url}stores/0/report`);
      expect(res?.headers()['content-security-policy']).toMatch(/; sandbox allow-scripts$/);
      await page.close();
    });

    it('answers a label body over 64 KB with 413, the connection closed after the answer', async () => {
      const body = JSON.stringify({ set: 'default', item, rater: 'x', label, notes: 'n'.repeat(70_000) });
      const url = new URL(`${viewer.url}stores/0/label/save`);
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            // Chunked, so the server finds the size while reading, not from a Content-Length.
            headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          },
          (r) => {
            let text = '';
            r.on('data', (d: Buffer) => {
              text += d.toString();
            });
            r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).error).toMatch(/at most 65536 bytes/);
      expect(labels()).toEqual([]);
    });
  },
);
