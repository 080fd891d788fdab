import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TranscriptPayload } from '../report/html/payload.js';
import { buildReport } from '../report/report-data.js';
import { outcomeOf } from '../report/transcript-sample.js';
import { cacheKey } from '../run/cache-key.js';
import { suiteOf } from '../run/suite.js';
import { openStore } from '../store/store.js';
import { buildReportStore, REPORTED } from '../test-support/report-store.js';
import { closeTranscriptStores, SCAN_BUDGET, type TranscriptQuery, transcriptPage } from './transcripts.js';

/**
 * The viewer's transcript pages: every cell scored as the report scores it, and paging that goes
 * on over every suite; a suite paged along the store's index looks at a bounded number of cells a
 * page and still finds every match.
 */

const dir = mkdtempSync(join(tmpdir(), 'waver-transcripts-'));
afterAll(() => {
  closeTranscriptStores();
  rmSync(dir, { recursive: true, force: true });
});

/** A page's rows as `model test#repeat outcome flipped score`, decoded as the browser decodes them. */
function rowsOf(p: TranscriptPayload, rows: number[][]): string[] {
  return rows.map((r) =>
    r
      .map((n) => {
        const [t, m, repeat, done, , , , score, correct, flipped] = p.c[n] as TranscriptPayload['c'][number];
        const test = p.t[t] as TranscriptPayload['t'][number];
        const outcome = !done
          ? 'failed'
          : correct === 1
            ? 'correct'
            : correct === 0
              ? 'incorrect'
              : 'unscored';
        return `${p.protocols[test.p]} ${p.models[m]} ${p.s[test.i]}#${repeat} ${outcome} ${flipped} ${score}`;
      })
      .join(' | '),
  );
}

/** Every page of a query, following `next`. */
function everyPage(query: TranscriptQuery) {
  const pages = [];
  let after: string | undefined;
  do {
    const page = transcriptPage({ ...query, ...(after && { after }) }, REPORTED);
    pages.push(page);
    after = page.next;
  } while (after && pages.length < 100);
  return pages;
}

describe('a store of every protocol', () => {
  const path = join(dir, 'every.db');
  const store = buildReportStore(path);
  const report = buildReport(store, REPORTED);
  store.close();

  it('holds every cell the report holds, scored and flipped as the report has them, in order', () => {
    const pages = everyPage({ path });
    expect(pages.map((p) => p.first)).toEqual([1, 51, 101, 151]);
    expect(pages.every((p) => p.total === 182)).toBe(true);
    const viewed = pages.flatMap((p) => rowsOf(p.payload, p.rows));
    const reported = report.cells.map(
      (c) =>
        `${c.protocol} ${c.model} ${c.test}#${c.repeat} ${outcomeOf(c)} ${c.flipped === undefined ? -1 : c.flipped ? 1 : 0} ${c.score ?? null}`,
    );
    expect(viewed).toEqual(reported);
    expect(viewed.some((r) => r.includes(' incorrect 1 '))).toBe(true);
  });

  it('pairs two models on the same test and repeat, as the report compares them', () => {
    const page = transcriptPage(
      { path, protocol: 'ladder', compare: { a: 'replay:alpha', b: 'replay:beta <b>', differ: true } },
      REPORTED,
    );
    const rows = rowsOf(page.payload, page.rows);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const [a, b] = r.split(' | ');
      expect(a).toMatch(/^ladder replay:alpha /);
      expect(b).toMatch(/^ladder replay:beta <b> /);
      expect(a?.split(' ')[2]).toBe(b?.split(' ')[3]);
    }
    expect(page.total).toBe(rows.length);
  });

  it('drops a filter that names nothing in the store, and reads a cursor that is not one as the first page', () => {
    const page = transcriptPage({ path, model: 'nobody', family: 'nothing', after: 'garbage' }, REPORTED);
    expect(page.query).toEqual({});
    expect(page.first).toBe(1);
    expect(page.rows).toHaveLength(50);
  });
});

describe('a plain suite of 12,000 cells, paged along the index', () => {
  const path = join(dir, 'large.db');
  const store = openStore(path);
  const suite = suiteOf(
    'large.jsonl',
    Array.from({ length: 6000 }, (_, i) => ({
      id: `t${String(i).padStart(5, '0')}`,
      prompt: `question ${i}`,
      meta: { phrasing: i % 2 ? 'odd' : 'even' },
    })),
  );
  store.suites.save(suite);
  const runId = store.runs.begin({
    suiteHash: suite.hash,
    config: { models: ['a', 'b'] },
    waverVersion: 'test',
  });
  const rare = new Set(['t00100', 't03000', 't05999']);
  store.cells.write(
    ['a', 'b'].flatMap((model) =>
      suite.tests.map((t) => {
        const request = { messages: [{ role: 'user' as const, content: t.prompt }] };
        const text = model === 'b' && rare.has(t.id) ? 'a needle here' : `answer ${model}`;
        return {
          kind: 'done' as const,
          cell: {
            suiteHash: suite.hash,
            testId: t.id,
            model,
            modelIdentity: `replay:${model}`,
            repeat: 0,
            runId,
            key: cacheKey(`replay:${model}`, request, 0),
            request,
            result: { text, finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } },
            attempts: [],
          },
        };
      }),
    ),
  );
  store.close();

  it('counts what the index decides, and finds a rare text a bounded page at a time', () => {
    const first = transcriptPage({ path, model: 'b' }, REPORTED);
    expect(first).toMatchObject({ total: 6000, cells: 12_000, first: 1 });
    expect(first.options.families).toEqual(['even', 'odd']);
    const pages = everyPage({ path, q: 'NEEDLE' });
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) {
      expect(p.scanned).toBeLessThanOrEqual(SCAN_BUDGET);
      expect(p.total).toBeUndefined();
    }
    expect(pages.flatMap((p) => rowsOf(p.payload, p.rows))).toEqual([
      'run b t00100#0 unscored -1 null',
      'run b t03000#0 unscored -1 null',
      'run b t05999#0 unscored -1 null',
    ]);
    expect(pages.at(-1)?.next).toBeUndefined();
  });

  it('filters by what the index cannot (a phrasing), going on where the page before stopped', () => {
    const pages = everyPage({ path, model: 'a', family: 'odd' });
    const rows = pages.flatMap((p) => rowsOf(p.payload, p.rows));
    expect(rows).toHaveLength(3000);
    expect(new Set(rows).size).toBe(3000);
    expect(rows[0]).toBe('run a t00001#0 unscored -1 null');
    expect(pages.map((p) => p.first).slice(0, 3)).toEqual([1, 51, 101]);
  });
});
