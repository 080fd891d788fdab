import { beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../report/formats.js';
import { buildReport } from '../../report/report-data.js';
import { loadCharting } from '../../report/vega-runtime.js';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { buildReportStore, REPORTED } from '../../test-support/report-store.js';
import { SagoConfig } from './config.js';
import { markerFor } from './metrics.js';
import { sagoSection } from './report-section.js';
import { loadSagoResults, type SagoResults } from './results.js';
import { sagoSignificance } from './significance.js';
import { sagoJson, sagoMarkdown } from './tables.js';

// The charts draw with vega, loaded once as the CLI loads it (report/vega-runtime.ts).
beforeAll(loadCharting);

/**
 * Issue 37.5: SAGO's stars and headline p were unadjusted t-tests, one per model x scope x axis
 * (x eps), on a few prompts. They are now Holm-adjusted over the family the eval's tables report
 * (docs/sago.md#significance), the raw p kept beside the adjusted one in the JSON.
 */

const store = buildReportStore();
const hash = store.suites.list().find((s) => s.name === 'sago/responses')?.hash as string;
const results = loadSagoResults(store, hash, { ablations: false });
const withAdjust = (adjust: 'holm' | 'none'): SagoResults => ({
  ...results,
  manifest: { ...results.manifest, settings: { ...results.manifest.settings, adjust } },
});

interface TestJson {
  eps: number;
  p: number;
  pAdjusted: number | null;
  marker: string;
}
interface Json {
  settings: { primaryEps: number };
  significance: { adjust: string; family: number; note: string };
  models: {
    label: string;
    axes: Record<string, { computed: boolean }>;
    scores: { scope: string; axes: Record<string, { tests: TestJson[] }> }[];
  }[];
}

/** The tests the tables report, read from the JSON: every scope at the primary eps, the total at every eps. */
function family(json: Json): TestJson[] {
  return json.models.flatMap((m) =>
    m.scores.flatMap((sc) =>
      Object.entries(sc.axes).flatMap(([axis, a]) =>
        m.axes[axis]?.computed
          ? a.tests.filter((t) => t.eps === json.settings.primaryEps || sc.scope === 'total')
          : [],
      ),
    ),
  );
}

/** Holm (1979), written here from its definition, apart from src/stats/multiplicity.ts. */
function holm(ps: readonly number[]): number[] {
  const k = ps.length;
  const sorted = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const out: number[] = [];
  sorted.forEach(({ i }, rank) => {
    let max = 0;
    for (let j = 0; j <= rank; j++) max = Math.max(max, Math.min(1, (k - j) * (sorted[j]?.p as number)));
    out[i] = max;
  });
  return out;
}

/**
 * The family of the report store's SAGO eval, in the JSON's order: its raw p-values and
 * statsmodels 0.15.0's `multipletests(p, method='holm')[1]` on them (computed once, here recorded).
 */
const FIXTURE = {
  raw: [
    0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.045647746529444616, 0.9964319164039108,
    0.9924586477015879, 1, 0.004159503111955012, 0.005036801886373264, 0.0065831337573462574,
    0.9987872486455709, 0.9999722848021145, 0.99999347720759, 0.9873463662022748, 0.9998772124311661,
    0.9999729074993202, 1, 1, 1,
  ],
  holm: [
    0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.11646608713474034, 0.13599365093207813,
    0.1711614776910027, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  ],
};

describe("SAGO's significance, Holm-adjusted over its tables' tests", () => {
  const json = JSON.parse(JSON.stringify(sagoJson(results))) as Json;
  const tests = family(json);

  it('the family: 2 models x (2 scopes with a test x 4 axes at eps 0.05 + 4 axes x 2 other eps on the total)', () => {
    expect(tests).toHaveLength(2 * (2 * 4 + 4 * 2));
    expect(json.significance).toMatchObject({ adjust: 'holm', family: 32 });
    expect(sagoSignificance(results).family).toBe(32);
    // A test no table reports (a dataset at another eps) has no adjusted p.
    const outside = json.models[0]?.scores[0]?.axes.bleu?.tests.find((t) => t.eps !== 0.05);
    expect(outside).toMatchObject({ pAdjusted: null, marker: '' });
  });

  it('each adjusted p is Holm over the family: an independent Holm, and statsmodels (recorded)', () => {
    const raw = tests.map((t) => t.p);
    expect(raw).toEqual(FIXTURE.raw.map((p) => expect.closeTo(p, 12)));
    const adjusted = tests.map((t) => t.pAdjusted as number);
    expect(adjusted).toEqual(holm(raw).map((p) => expect.closeTo(p, 12)));
    expect(adjusted).toEqual(FIXTURE.holm.map((p) => expect.closeTo(p, 12)));
    expect(tests.map((t) => t.marker)).toEqual(adjusted.map(markerFor));
  });

  it.skipIf(python3Missing !== undefined || !hasStatsmodels())('equals statsmodels run now', () => {
    const ps = tests.map((t) => t.p);
    const theirs = runPython<number[]>(
      'import json, sys\nfrom statsmodels.stats.multitest import multipletests\nprint(json.dumps(list(multipletests(json.load(sys.stdin), method="holm")[1])))',
      ps,
    );
    expect(tests.map((t) => t.pAdjusted)).toEqual(theirs.map((p) => expect.closeTo(p, 12)));
  });

  it('a star the raw p earned and the adjusted p does not is gone: in the tables, the heatmap and the headline', () => {
    // beta's total BLEU at eps 0.05: raw p = 0.0050 (**), Holm over 32: 0.1360 (none).
    const md = sagoMarkdown(results);
    const beta = md.slice(md.indexOf('## replay:beta <b>: per-dataset'));
    const total = beta.split('\n').find((l) => l.startsWith('| **Total SGS**')) as string;
    expect(total).not.toMatch(/\*\*$|\]\*\*? \|/);
    expect(md).toContain('stars: Holm-adjusted p over the 32 one-sided t-tests');
    const raw = sagoMarkdown(withAdjust('none'));
    const rawTotal = raw
      .slice(raw.indexOf('## replay:beta <b>: per-dataset'))
      .split('\n')
      .find((l) => l.startsWith('| **Total SGS**')) as string;
    expect(rawTotal).toMatch(/\]\*\* \|/);
    expect(raw).toContain('p unadjusted for the 32');

    const figure = sagoSection.summary?.(results).models.find((m) => m.label === 'replay:beta <b>')
      ?.figures[0];
    expect(figure?.name).toBe('SGS Δ-BLEU');
    expect(figure?.test).toMatch(
      /^p = 0\.1360 Holm-adjusted over the 32 t-tests of the tables \(raw p = 0\.0050\), one-sided t-test/,
    );
  });

  it('the report: the HTML heatmap marks the adjusted p, the JSON keeps both', () => {
    const data = buildReport(store, REPORTED, { ablations: false });
    const html = renderReport(data, 'html', REPORTED);
    const sgs = results.models
      .find((m) => m.model.label === 'replay:beta <b>')
      ?.scores.find((s) => s.scope === 'total')
      ?.axes.bleu?.sgs?.toFixed(3);
    // Booleans: a failure need not print the whole page.
    expect(html.includes(`>${sgs}</text>`)).toBe(true);
    expect(html.includes(`>${sgs}**</text>`)).toBe(false);
    expect(html.includes('stars: Holm-adjusted p over the 32')).toBe(true);
    const section = data.sections.find((x) => x.protocol === 'sago');
    const out = JSON.parse(renderReport(data, 'json', REPORTED)).sections.find(
      (x: { protocol: string }) => x.protocol === 'sago',
    ).results as Json;
    expect(section?.summary?.models[1]?.figures[0]?.test).toContain('Holm-adjusted over the 32');
    const beta = out.models.find((m) => m.label === 'replay:beta <b>');
    const t = beta?.scores.find((s) => s.scope === 'total')?.axes.bleu?.tests.find((x) => x.eps === 0.05);
    expect(t).toMatchObject({ p: expect.closeTo(0.005036801886373264, 12), marker: '' });
    expect(t?.pAdjusted).toBeCloseTo(0.13599365093207813, 12);
  });

  it('sago.adjust: holm by default, none under reference, a flag and a setting', () => {
    expect(SagoConfig.parse({}).adjust).toBe('holm');
    expect(SagoConfig.parse({ reference: true }).adjust).toBe('none');
    expect(SagoConfig.parse({ reference: true, adjust: 'holm' }).adjust).toBe('holm');
    expect(SagoConfig.safeParse({ adjust: 'fdr' }).success).toBe(false);
  });
});

function hasStatsmodels(): boolean {
  try {
    runPython('import statsmodels, json; print(json.dumps(1))', null);
    return true;
  } catch {
    return false;
  }
}
