import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, servedUrl, startCli } from '../test-support/cli/cli.js';
import { openUrl } from './open-url.js';

/** A "browser" that writes the URL it is given to a file. */
function recordingBrowser(): { browser: string; seen: string } {
  const dir = mkdtempSync(join(tmpdir(), 'waver-open-'));
  const seen = join(dir, 'seen.txt');
  const browser = join(dir, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`);
  chmodSync(browser, 0o755);
  return { browser, seen };
}

async function waitForFile(path: string, ms: number): Promise<string> {
  const end = Date.now() + ms;
  while (!existsSync(path) || readFileSync(path, 'utf8') === '') {
    if (Date.now() > end) throw new Error(`${path} was not written`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return readFileSync(path, 'utf8');
}

describe('openUrl', () => {
  it('hands the URL to $BROWSER', async () => {
    const { browser, seen } = recordingBrowser();
    expect(await openUrl('http://127.0.0.1:1/x', { ...process.env, BROWSER: browser })).toBeUndefined();
    expect(await waitForFile(seen, 5000)).toBe('http://127.0.0.1:1/x');
  });

  it('says why when there is no browser to start, and does not throw', async () => {
    const why = await openUrl('http://127.0.0.1:1/', { ...process.env, BROWSER: '/no/such/browser' });
    expect(why).toMatch(/^\/no\/such\/browser: spawn \/no\/such\/browser ENOENT/);
  });
});

describe('waver view --open', () => {
  it('opens the URL it serves', async () => {
    assertBuilt();
    const { browser, seen } = recordingBrowser();
    const dir = mkdtempSync(join(tmpdir(), 'waver-view-open-'));
    const view = startCli(['view', '--store', join(dir, 'store.db'), '--open'], {
      cwd: dir,
      env: cleanEnv({ BROWSER: browser }),
    });
    try {
      const url = await servedUrl(view);
      expect(await waitForFile(seen, 10_000)).toBe(url);
    } finally {
      view.child.kill('SIGINT');
      await view.done;
    }
  }, 30_000);
});
