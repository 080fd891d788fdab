import { spawnSync } from 'node:child_process';
import { python3Missing, runPython } from '../../../python3.js';
import { sharedFile } from '../../../shared.js';

/** The four recorded runs of ../shared/fixtures/sago-runs (see its README). */
export const sagoRunsDir = sharedFile('fixtures/sago-runs');

const probe =
  python3Missing === undefined
    ? spawnSync('python3', ['-c', 'import numpy, scipy'], { encoding: 'utf8' })
    : undefined;

/** Why the independent computation cannot run here, or undefined. */
export const independentMissing =
  (sagoRunsDir ? undefined : 'skipped: ../shared/fixtures/sago-runs is not there') ??
  python3Missing ??
  (probe?.status === 0 ? undefined : 'skipped: python3 has no numpy/scipy (needed for the independent SGS)');

export interface IndependentSgs {
  model: string;
  dataset: string;
  axis: string;
  sgs: number;
  sd: number;
  n: number;
  p: Record<string, number>;
}

/**
 * SGS per (model, dataset, axis) computed from the run folders' CSV files alone, in Python with
 * numpy and scipy, from the paper's definitions and the recorded `delta_*` columns: a row whose
 * strength is its style's baseline (0, length 1.0, the interrogative form) is left out; Delta/R
 * per remaining row; s(i) the RMS over a prompt's rows of all its styles (missing values
 * skipped); SGS the mean of s(i), sd with n - 1, scipy's one-sided one-sample t-test per eps.
 * Mirroring is left out for sentence form and length, as the authors' aggregation does.
 */
export function independentSgs(runDirs: readonly string[], eps: readonly number[]): IndependentSgs[] {
  return runPython<IndependentSgs[]>(PROGRAM, { dirs: runDirs, eps });
}

const PROGRAM = `
import csv, json, math, os, sys
import numpy as np
from scipy import stats

args = json.load(sys.stdin)
axes = {
    'bleu': ('delta_bleu', 100.0),
    'bertscore': ('delta_bertscore_response', 1.0),
    'entropy': ('delta_entropy', 10.0),
    'mirroring': ('delta_mirroring_rate', 1.0),
}

def is_baseline(style, strength):
    if style == 'inter_vs_imper':
        return strength == 'interrogative'
    return float(strength) == (1.0 if style == 'length_variation' else 0.0)

cells = {}
for d in args['dirs']:
    with open(os.path.join(d, 'metadata.json')) as f:
        meta = json.load(f)
    style = meta['style']
    with open(os.path.join(d, 'full_results_all_models.csv'), newline='') as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        if is_baseline(style, r['strength']):
            continue
        for axis, (column, scale) in axes.items():
            if axis == 'mirroring' and style in ('inter_vs_imper', 'length_variation'):
                continue
            raw = r.get(column, '')
            x = float(raw) / scale if raw not in ('', None) else math.nan
            key = (meta['model'], meta['dataset'], axis)
            cells.setdefault(key, {}).setdefault(r['prompt_id'], []).append(x)

out = []
for (model, dataset, axis), prompts in cells.items():
    s = []
    for xs in prompts.values():
        a = np.array(xs, dtype=float)
        a = a[~np.isnan(a)]
        if len(a):
            s.append(math.sqrt(float(np.mean(a * a))))
    if not s:
        continue
    s = np.array(s)
    p = {}
    for e in args['eps']:
        p[repr(e)] = float(stats.ttest_1samp(s, e, alternative='greater').pvalue)
    out.append({'model': model, 'dataset': dataset, 'axis': axis, 'sgs': float(s.mean()),
                'sd': float(s.std(ddof=1)), 'n': int(len(s)), 'p': p})
json.dump(out, sys.stdout)
`;
