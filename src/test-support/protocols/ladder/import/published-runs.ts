import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { python3Missing, runPython } from '../../../python3.js';
import { sharedFile } from '../../../shared.js';

/**
 * The reference repository's four full runs as its snapshot holds them: per run folder
 * `experiment/output/runs/<model>__gsm8k_symbolic100/` the committed metrics_acc.csv,
 * metrics_summary.csv and manifest.json, and no eval.csv (those blobs are not in the snapshot).
 * The metrics files come from ../shared/fixtures/ladder-reference (the repository's, byte for
 * byte); the manifests are written here with the repository's content.
 */

export const PUBLISHED_MODELS = ['o4-mini', 'gemini-2.5-flash', 'gpt-4o-mini', 'phi4-mini'] as const;
export type PublishedModel = (typeof PUBLISHED_MODELS)[number];

const fixture = (kind: 'acc' | 'summary', model: string) =>
  sharedFile(`fixtures/ladder-reference/metrics_${kind}_${model}.csv`);

export const publishedMissing =
  (PUBLISHED_MODELS.every((m) => fixture('acc', m) && fixture('summary', m))
    ? undefined
    : 'skipped: ../shared/fixtures/ladder-reference/metrics_{acc,summary}_<model>.csv are not there') ??
  python3Missing;

/** The repository's manifest.json of each run (experiment/output/runs/<model>__gsm8k_symbolic100). */
const MANIFESTS: Record<PublishedModel, Record<string, unknown>> = {
  'o4-mini': {
    sut_model: 'o4-mini',
    provider: 'openai',
    dataset: 'gsm8k_symbolic100',
    threshold: 0.8,
    n_responses: 4773,
  },
  'gemini-2.5-flash': {
    sut_model: 'gemini-2.5-flash',
    provider: 'gemini',
    dataset: 'gsm8k_symbolic100',
    threshold: 0.8,
    n_responses: 4773,
  },
  'gpt-4o-mini': {
    sut_model: 'gpt-4o-mini',
    provider: 'openai',
    dataset: 'gsm8k_symbolic100',
    threshold: 0.8,
    n_responses: 4773,
    n_baseline: 3,
  },
  'phi4-mini': {
    sut_model: 'phi4-mini',
    provider: 'local',
    dataset: 'gsm8k_symbolic100',
    threshold: 0.8,
    n_responses: 4773,
    note: 'phi-4-mini run with chain-of-thought prompting (paper: phi4-mini)',
  },
};

/**
 * The paper's cells. Table 5 (the walkthrough notebook's printed output, `results_walkthrough.ipynb`
 * cell 12, gives the same 28): family -> model -> Collapse Point, `—` for none. Section 5.1: the
 * aggregate accuracy at L0 and L5 per model (the crossmodel notebook's cell 1 prints
 * 0.980/0.649, 0.943/0.460, 0.887/0.405, 0.723/0.411).
 */
export const PAPER_TABLE5: Record<string, Record<PublishedModel, string>> = {
  SV: { 'o4-mini': '—', 'gemini-2.5-flash': '—', 'gpt-4o-mini': '—', 'phi4-mini': '—' },
  IQ: { 'o4-mini': '—', 'gemini-2.5-flash': '—', 'gpt-4o-mini': '—', 'phi4-mini': 'L2' },
  F: { 'o4-mini': '—', 'gemini-2.5-flash': '—', 'gpt-4o-mini': '—', 'phi4-mini': '—' },
  CI: { 'o4-mini': '—', 'gemini-2.5-flash': '—', 'gpt-4o-mini': 'L1', 'phi4-mini': '—' },
  CL: { 'o4-mini': '—', 'gemini-2.5-flash': '—', 'gpt-4o-mini': 'L3', 'phi4-mini': '—' },
  CIS: { 'o4-mini': 'L5', 'gemini-2.5-flash': 'L5', 'gpt-4o-mini': 'L2', 'phi4-mini': 'L4' },
  KB: { 'o4-mini': 'L3', 'gemini-2.5-flash': 'L3', 'gpt-4o-mini': 'L3', 'phi4-mini': 'L5' },
};
export const NOTEBOOK_AGGREGATE: Record<PublishedModel, readonly number[]> = {
  'o4-mini': [0.98, 0.96, 0.955, 0.928, 0.94, 0.649],
  'gemini-2.5-flash': [0.943, 0.934, 0.915, 0.882, 0.894, 0.46],
  'gpt-4o-mini': [0.887, 0.815, 0.847, 0.748, 0.694, 0.405],
  'phi4-mini': [0.723, 0.716, 0.728, 0.718, 0.636, 0.411],
};

export interface PublishedRuns {
  /** The repository's root: the run folders are `<root>/experiment/output/runs/<model>__gsm8k_symbolic100`. */
  root: string;
  dirs: Record<PublishedModel, string>;
  /**
   * The reference's rule (`acc_table`, experiment/run_sut_model.py:123-133) on each file's values,
   * in CPython: model -> family -> the first of L1..L5 with a value below 0.80 x L0 (`—` for none),
   * and the smallest |value - tau| over every comparison the rule makes (how far rounding is from
   * deciding any of them).
   */
  reference: Record<PublishedModel, { collapse: Record<string, string>; acc0: number; closest: number }>;
}

export function publishedRunsFolder(
  root = mkdtempSync(join(tmpdir(), 'waver-ladder-published-')),
): PublishedRuns {
  const dirs = {} as Record<PublishedModel, string>;
  for (const model of PUBLISHED_MODELS) {
    const dir = join(root, 'experiment', 'output', 'runs', `${model}__gsm8k_symbolic100`);
    mkdirSync(dir, { recursive: true });
    copyFileSync(fixture('acc', model) as string, join(dir, 'metrics_acc.csv'));
    copyFileSync(fixture('summary', model) as string, join(dir, 'metrics_summary.csv'));
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(MANIFESTS[model], null, 2)}\n`);
    dirs[model] = dir;
  }
  const reference = runPython<PublishedRuns['reference']>(PROGRAM, dirs);
  return { root, dirs, reference };
}

// The rule as acc_table applies it to its pivot table: a blank cell is NaN and skipped
// (pd.notna), a value below tau collapses; here on the values the file holds.
const PROGRAM = `
import csv, json, math, os, sys
dirs = json.load(sys.stdin)
out = {}
for model, d in dirs.items():
    with open(os.path.join(d, 'metrics_acc.csv'), newline='') as f:
        rows = list(csv.DictReader(f))
    collapse, closest = {}, math.inf
    for r in rows:
        fam = r['fam']
        acc0 = float(r['L0'])
        tau = 0.80 * acc0
        cp = '—'
        for L in ['L1', 'L2', 'L3', 'L4', 'L5']:
            v = float(r[L]) if r[L].strip() != '' else math.nan
            if math.isnan(v):
                continue
            closest = min(closest, abs(v - tau))
            if v < tau:
                cp = L
                break
        collapse[fam] = cp
    out[model] = {'collapse': collapse, 'acc0': acc0, 'closest': closest}
json.dump(out, sys.stdout)
`;
