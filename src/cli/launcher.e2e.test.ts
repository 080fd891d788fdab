import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from '../test-support/cli/cli.js';
import { buildReportStore } from '../test-support/report-store.js';

/**
 * The executable runs the CLI's bundle with a V8 code cache (docs/decisions.md E41, "The code
 * cache"): one per command, written at the end of its first run, read by the next. What it must
 * never do is change what a command does: a run from the cache, from a damaged cache, and with the
 * cache off give the same output; `import()` (vega, the user's modules) works from cached code.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-launcher-'));
const store = join(dir, 's.db');

beforeAll(() => {
  assertBuilt();
  // The report fixture's store: ladder, paraphrase and SAGO evals, whose pages draw charts.
  buildReportStore(store).close();
});

/** `waver report --format html` with the cache in `cache`; the page's charts counted. */
async function report(cache: string): Promise<{ code: number | null; charts: number; stderr: string }> {
  const out = join(dir, `r-${Math.random().toString(36).slice(2)}.html`);
  const r = await runCli(['report', '--store', store, '--format', 'html', '--out', out], {
    env: cleanEnv({ WAVER_CODE_CACHE: cache }),
  });
  const html = r.code === 0 ? readFileSync(out, 'utf8') : '';
  return { code: r.code, charts: (html.match(/<svg/g) ?? []).length, stderr: r.stderr };
}

describe('the code cache', () => {
  it('is written by a command’s first run, read by the next, and changes nothing it prints', async () => {
    const cache = mkdtempSync(join(dir, 'cache-'));
    const first = await report(cache);
    const files = readdirSync(cache);
    expect(files.filter((f) => f.endsWith('-report.bin'))).toHaveLength(1);
    const file = join(cache, files.find((f) => f.endsWith('-report.bin')) as string);
    const written = statSync(file).mtimeMs;
    // From the cache: the same page, vega imported from cached code, the cache left as it was.
    const second = await report(cache);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(second.charts).toBe(first.charts);
    expect(first.charts).toBeGreaterThan(0);
    expect(second.stderr).not.toMatch(/chart unavailable|internal error/);
    expect(statSync(file).mtimeMs).toBe(written);
  }, 120_000);

  it('a damaged cache is refused by V8, the run is the same, and the cache is written again', async () => {
    const cache = mkdtempSync(join(dir, 'cache-'));
    const good = await report(cache);
    const file = join(cache, readdirSync(cache).find((f) => f.endsWith('-report.bin')) as string);
    writeFileSync(file, Buffer.alloc(4096, 7));
    const damaged = await report(cache);
    expect(damaged.code).toBe(0);
    expect(damaged.charts).toBe(good.charts);
    expect(readFileSync(file).equals(Buffer.alloc(4096, 7))).toBe(false);
  }, 120_000);

  it('WAVER_CODE_CACHE=off runs without one and writes none', async () => {
    const before = readdirSync(dir).length;
    const off = await report('off');
    expect(off.code).toBe(0);
    expect(off.charts).toBeGreaterThan(0);
    // The report's own file is the one new entry.
    expect(readdirSync(dir).length).toBe(before + 1);
  }, 60_000);
});
