import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { assertBuilt, runCli } from '../test-support/cli/cli.js';
import { buildJudgedStore } from '../test-support/judge/judged-store.js';
import { python3Missing, runPython } from '../test-support/python3.js';
import { scratchDir } from '../test-support/scratch.js';
import type { TaskAgreement } from './agreement.js';
import type { JudgeSetReport } from './report.js';

/**
 * `waver judge` end to end through the built CLI: agreement on a labelled CSV with missing labels
 * equals an independent numpy computation; sample, import and agreement on a store; bad labels
 * files are one error naming file, line and field, exit 2, with nothing written.
 */

const FIXTURE = resolve(import.meta.dirname, '../test-support/judge/labels-missing.csv');

/** Quadratic kappa of the judge with each person and ordinal alpha over all raters, from the CSV, in numpy. */
const REFERENCE = `
import csv, json, sys
import numpy as np
path = json.load(sys.stdin)['file']
rows = list(csv.DictReader(open(path)))
cats = sorted({r['label'] for r in rows}, key=float)
k = len(cats)
items = sorted({r['item'] for r in rows})
raters = sorted({r['rater'] for r in rows})
lab = {(r['item'], r['rater']): cats.index(r['label']) for r in rows}
def qkappa(a, b):
    pairs = [(lab[(i, a)], lab[(i, b)]) for i in items if (i, a) in lab and (i, b) in lab]
    m = np.zeros((k, k))
    for x, y in pairs: m[x, y] += 1
    m /= m.sum()
    i, j = np.indices((k, k))
    w = 1 - ((i - j) / (k - 1)) ** 2
    po, pe = (w * m).sum(), (w * np.outer(m.sum(1), m.sum(0))).sum()
    return (po - pe) / (1 - pe)
def ordinal_alpha(who):
    vals = [[lab[(i, r)] for r in who if (i, r) in lab] for i in items]
    vals = [v for v in vals if len(v) >= 2]
    pool = [x for v in vals for x in v]
    n = len(pool)
    cnt = np.bincount(pool, minlength=k)
    d = lambda c, g: (cnt[min(c, g):max(c, g) + 1].sum() - (cnt[c] + cnt[g]) / 2) ** 2
    do = sum(sum(d(x, y) for a, x in enumerate(v) for b, y in enumerate(v) if a != b) / (len(v) - 1) for v in vals) / n
    de = sum(d(x, y) for a, x in enumerate(pool) for b, y in enumerate(pool) if a != b) / (n * (n - 1))
    return 1 - do / de
people = [r for r in raters if r != 'judge']
print(json.dumps({'kappa': {p: qkappa('judge', p) for p in people}, 'alpha': ordinal_alpha(raters),
                  'alphaPeople': ordinal_alpha(people), 'missing': len(items) * len(raters) - len(rows)}))
`;

describe('waver judge', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = scratchDir('waver-judge-');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.skipIf(python3Missing)(
    `agreement on a labelled CSV with missing labels equals numpy ${python3Missing ?? ''}`,
    async () => {
      const r = await runCli([
        'judge',
        'agreement',
        '--labels',
        FIXTURE,
        '--judge-rater',
        'judge',
        '--format',
        'json',
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as { agreement: TaskAgreement[] };
      const task = out.agreement[0] as TaskAgreement;
      const ref = runPython<{
        kappa: Record<string, number>;
        alpha: number;
        alphaPeople: number;
        missing: number;
      }>(REFERENCE, { file: FIXTURE });
      expect(ref.missing).toBeGreaterThan(20);
      expect(task.kappaWeights).toBe('quadratic');
      expect(task.alphaMetric).toBe('ordinal');
      for (const person of ['ann', 'bob', 'cy']) {
        const pair = task.pairs.find((p) => p.a === 'judge' && p.b === person);
        expect(pair?.kind).toBe('judge-person');
        expect(pair?.kappa.value).toBeCloseTo(ref.kappa[person] as number, 12);
        expect(pair?.kappa.low as number).toBeLessThan(pair?.kappa.value as number);
      }
      expect(task.pairs.some((p) => p.kind === 'person-person')).toBe(true);
      expect(task.alpha.all.value).toBeCloseTo(ref.alpha, 12);
      expect(task.alpha.people?.value).toBeCloseTo(ref.alphaPeople, 12);
      expect(task.strata.map((s) => s.stratum)).toEqual(['boundary=fabricated', 'boundary=missing']);
    },
  );

  it('samples a stratified set, imports labels, and measures agreement and corrected estimates from the store', async () => {
    const file = join(dir, 'store.db');
    buildJudgedStore(file).close();
    const sampled = await runCli(['judge', 'sample', '--store', file, '--n', '20', '--seed', '3']);
    expect(sampled.stderr).toBe('');
    expect(sampled.code).toBe(0);
    expect(sampled.stdout).toMatch(/labelling set 'default': 20 of 34 judged items in \d+ strata/);
    expect(sampled.stdout).toContain('ladder/gate-nli family=SV verdict=fail');

    const again = await runCli(['judge', 'sample', '--store', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("--set: a labelling set 'default' is already in the store");

    const store = openStore(file, { readonly: true });
    const set = store.labels.set('default');
    store.close();
    if (!set) throw new Error('no set');
    // Every stratum is in the sample, and the weights add up to the population sampled from.
    expect(set.items.reduce((s, i) => s + i.weight, 0)).toBeCloseTo(34, 9);
    // Two people label: Ann as the first judge scored, Bo one point lower on KB items, both "pass" on gates.
    const lines = ['item,rater,label,notes'];
    for (const item of set.items) {
      const judge = item.verdicts[0]?.label;
      const values = (item.rubric.labels as { value: string }[]).map((l) => l.value);
      const ann = judge ?? values[0];
      const bo = item.task === 'ladder/kb' ? values[Math.max(0, values.indexOf(ann as string) - 1)] : 'pass';
      lines.push(`${item.id},ann,${ann},`, `${item.id},bo,${bo},"a note, quoted"`);
    }
    const labels = join(dir, 'labels.csv');
    writeFileSync(labels, `${lines.join('\n')}\n`);
    const imported = await runCli(['judge', 'import', '--store', file, '--labels', labels]);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain("imported 40 labels by 2 raters into set 'default'");

    const r = await runCli(['judge', 'agreement', '--store', file, '--format', 'json', '--resamples', '200']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as JudgeSetReport;
    expect(report.people).toEqual(['ann', 'bo']);
    const kb = report.agreement.find((t) => t.task === 'ladder/kb') as TaskAgreement;
    const judgeA = 'replay:judge-a@sha256:cccc';
    const judgeB = 'replay:judge-b@sha256:dddd';
    // Ann labels as judge a did: perfect agreement where judge a gave a verdict.
    const annA = kb.pairs.find((p) => p.a === judgeA && p.b === 'ann');
    expect(annA?.raw.value).toBe(1);
    expect(annA?.kappa.value).toBe(1);
    expect(kb.pairs.find((p) => p.a === judgeA && p.b === judgeB)?.kind).toBe('judge-judge');
    expect(kb.pairs.find((p) => p.a === 'ann' && p.b === 'bo')?.kappa.value).toBeLessThan(1);
    const gate = report.agreement.find((t) => t.task === 'ladder/gate-nli') as TaskAgreement;
    expect(gate.kappaWeights).toBe('none');
    expect(gate.alphaMetric).toBe('nominal');
    // Corrected estimates beside the raw judge figures, per model.
    const accuracy = report.corrected.filter((c) => c.figure === 'KB accuracy' && c.judge === judgeA);
    expect(accuracy.map((c) => c.group).sort()).toEqual(['replay:alpha', 'replay:beta']);
    for (const c of accuracy) {
      expect(c.raw).toBeDefined();
      expect(c.method).toBe('calibration');
    }
    const share = report.corrected.find((c) => c.figure === 'recognition share' && c.judge === judgeA);
    expect(share?.method).toBe('rogan-gladen');

    const text = await runCli(['judge', 'agreement', '--store', file, '--resamples', '200']);
    expect(text.stdout).toContain('quadratic-weighted kappa');
    expect(text.stdout).toContain('Judge-corrected estimates');

    // The HTML and JSON reports show the agreement now that labels exist.
    const html = await runCli(['report', '--store', file, '--format', 'html']);
    expect(html.stdout).toContain('id="judges"');
    expect(html.stdout).toContain('recognition share');
    const json = JSON.parse((await runCli(['report', '--store', file, '--format', 'json'])).stdout) as {
      judges: JudgeSetReport[];
    };
    expect(json.judges[0]?.set).toBe('default');
  });

  it('refuses a bad labels file with its file, line and field, exit 2, writing nothing', async () => {
    const file = join(dir, 'bad.db');
    buildJudgedStore(file).close();
    expect((await runCli(['judge', 'sample', '--store', file, '--n', '8'])).code).toBe(0);
    const store = openStore(file, { readonly: true });
    const [a, b] = (store.labels.set('default')?.items ?? []).filter((i) => i.task === 'ladder/kb');
    store.close();
    const write = (name: string, rows: string[]) => {
      const path = join(dir, name);
      writeFileSync(path, `item,rater,label\n${rows.join('\n')}\n`);
      return path;
    };
    const cases: [string, string[], RegExp][] = [
      [
        'unknown.csv',
        [`${a?.id},ann,1`, 'kb-nope,ann,1', `${b?.id},ann,0`],
        /unknown\.csv:3: item: unknown item 'kb-nope'/,
      ],
      [
        'one.csv',
        [`${a?.id},ann,1`, `${b?.id},ann,0`, `${a?.id},bo,1`],
        /one\.csv:4: rater: rater 'bo' gave only one label/,
      ],
      [
        'off.csv',
        [`${a?.id},ann,1`, `${b?.id},ann,0.5`],
        /off\.csv:3: label: label '0\.5' is not on the rubric kb-4 \(0, 0\.25, 0\.75, 1\)/,
      ],
    ];
    for (const [name, rows, message] of cases) {
      const r = await runCli(['judge', 'import', '--store', file, '--labels', write(name, rows)]);
      expect(r.code, name).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      const agreement = await runCli(['judge', 'agreement', '--store', file, '--labels', join(dir, name)]);
      expect(agreement.code).toBe(2);
      expect(agreement.stderr).toMatch(message);
    }
    const after = openStore(file, { readonly: true });
    expect(after.labels.of('default')).toEqual([]);
    after.close();
    // The CSV alone: a judge rater that is not in it.
    const alone = await runCli([
      'judge',
      'agreement',
      '--labels',
      FIXTURE,
      '--judge-rater',
      'nobody',
      '--store',
      join(dir, 'none.db'),
    ]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--judge-rater: no rater 'nobody' in the labels");
    // Raters who share no item: no pair to compare, and the output says why.
    const apart = write('apart.csv', ['i1,ann,yes', 'i2,ann,no', 'i3,bo,yes', 'i4,bo,no']);
    const disjoint = await runCli(['judge', 'agreement', '--labels', apart, '--store', join(dir, 'none.db')]);
    expect(disjoint.code).toBe(0);
    expect(disjoint.stdout).toContain('No pair of raters to compare: no two raters labelled a common item.');
    expect(disjoint.stdout).toContain('unavailable: no item has labels from two raters');
    expect(readFileSync(FIXTURE, 'utf8')).toContain('item,rater,label');
  });
});

describe('waver plan', () => {
  beforeAll(() => assertBuilt());

  it('two proportions 0.8 vs 0.7 at power 0.8, alpha 0.05: the textbook n per arm in the JSON', async () => {
    const r = await runCli([
      'plan',
      '--design',
      'two-proportions',
      '--p',
      '0.8,0.7',
      '--power',
      '0.8',
      '--alpha',
      '0.05',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { n: number; unit: string };
    // Fleiss, Levin & Paik: 293.1, rounded up; within 5% of the textbook's "about 294".
    expect(Math.abs(out.n - 294) / 294).toBeLessThan(0.05);
    expect(out.n).toBe(294);
    expect(out.unit).toBe('items per arm');
  });

  it('reads the rates from a pilot store and reports the minimum detectable difference after a run', async () => {
    const dir = scratchDir('waver-plan-');
    try {
      const { buildReportStore } = await import('../test-support/report-store.js');
      const file = join(dir, 'pilot.db');
      buildReportStore(file).close();
      const r = await runCli([
        'plan',
        '--design',
        'mdd',
        '--pilot',
        file,
        '--compare',
        'replay:alpha,replay:beta <b>',
        '--protocol',
        'ladder',
        '--format',
        'json',
      ]);
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as { details: Record<string, unknown>; pilot: { pairs: number } };
      expect(out.pilot.pairs).toBeGreaterThan(0);
      expect(out.details.n).toBe(out.pilot.pairs);
      // A run of a few pairs could have detected only a large difference (a fall to near 0).
      expect(out.details.unpaired as number).toBeGreaterThan(0.3);
      expect(out.details.unpaired as number).toBeLessThanOrEqual(out.details.p1 as number);
      const tiny = JSON.parse(
        (await runCli(['plan', '--design', 'mdd', '--n', '3', '--p', '0.5', '--format', 'json'])).stdout,
      ) as { details: Record<string, unknown> };
      // Too few to detect any difference: unavailable, not 0.
      expect(tiny.details.unpaired).toBeUndefined();
      expect(tiny.details.unavailable).toMatch(/too small/);
      // SAA pairs items as check --metric saa does: this pilot has no item either model answered in
      // every cell, so no pair (src/cli/commands/plan-saa.e2e.test.ts sizes one that has).
      const saa = await runCli([
        'plan',
        '--design',
        'saa',
        '--pilot',
        file,
        '--compare',
        'replay:alpha,replay:beta <b>',
        '--protocol',
        'paraphrase',
      ]);
      expect(saa.code).toBe(2);
      expect(saa.stderr).toContain('no pair for check --metric saa');
      // The pilot's own ladder rates are equal: no n detects that, exit 2.
      const equal = await runCli([
        'plan',
        '--design',
        'paired-proportions',
        '--pilot',
        file,
        '--compare',
        'replay:alpha,replay:beta <b>',
        '--protocol',
        'ladder',
      ]);
      expect(equal.code).toBe(2);
      expect(equal.stderr).toContain('the two rates are equal');
      // Stated rates, with the pilot's clusters: the pairs come with its design effect.
      const pairedRun = await runCli([
        'plan',
        '--design',
        'paired-proportions',
        '--p',
        '0.8,0.7',
        '--discordance',
        '0.2',
        '--pilot',
        file,
        '--compare',
        'replay:alpha,replay:beta <b>',
        '--protocol',
        'ladder',
        '--format',
        'json',
      ]);
      expect(pairedRun.stderr).toBe('');
      const paired = JSON.parse(pairedRun.stdout) as {
        n: number;
        details: Record<string, number>;
        pilot: { designEffect: number };
      };
      expect(paired.details.designEffect).toBe(paired.pilot.designEffect);
      expect(paired.details.clusteredPairs).toBe(Math.ceil(paired.n * paired.pilot.designEffect - 1e-9));
      const backwards = await runCli([
        'plan',
        '--design',
        'collapse-shift',
        '--curve',
        '0.9,0.85,0.8',
        '--curve-b',
        '0.9,0.6,0.5',
      ]);
      expect(backwards.code).toBe(2);
      expect(backwards.stderr).toContain('must collapse earlier');
      const bad = await runCli(['plan', '--design', 'paired-proportions', '--p', '0.8,0.7']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('discordant pairs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
