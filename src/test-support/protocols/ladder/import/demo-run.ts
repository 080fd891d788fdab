import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { python3Missing, runPython } from '../../../python3.js';
import { sharedFile } from '../../../shared.js';

/** The scored demo run of the ladder reference (../shared/fixtures/ladder-reference). */
export const demoEval = sharedFile('fixtures/ladder-reference/gpt-4o-mini_demo_eval.csv');

export const demoMissing =
  (demoEval
    ? undefined
    : 'skipped: ../shared/fixtures/ladder-reference/gpt-4o-mini_demo_eval.csv is not there') ??
  python3Missing;

export interface DemoRun {
  /** The folder holding the run folder (`<root>/gpt-4o-mini__demo`). */
  root: string;
  dir: string;
  /** The reference's aggregation of the rows, unrounded: family -> level -> accuracy; CP per family ('' for none). */
  accuracy: Record<string, Record<string, number>>;
  collapse: Record<string, string>;
}

/**
 * A run folder in the reference's layout assembled from the demo eval file: eval.csv is the file
 * itself, responses.csv the same rows without the evaluator's columns, manifest.json names the
 * model, and metrics_acc.csv / metrics_summary.csv are computed here in Python the way the
 * reference aggregates a run (a row is correct when `Sim: outputs` >= 0.80, a missing score is
 * wrong; acc(L0) the baseline rows' share; per family the mean by classified level; the Collapse
 * Point the first level below 0.80 x acc(L0)), written rounded to 3 decimals as pandas writes them.
 */
export function demoRunFolder(): DemoRun {
  const root = mkdtempSync(join(tmpdir(), 'waver-ladder-runs-'));
  const dir = join(root, 'gpt-4o-mini__demo');
  mkdirSync(dir);
  const out = runPython<{ accuracy: DemoRun['accuracy']; collapse: DemoRun['collapse'] }>(PROGRAM, {
    src: demoEval,
    dir,
  });
  return { root, dir, ...out };
}

const PROGRAM = `
import csv, json, os, sys
args = json.load(sys.stdin)
with open(args['src'], newline='') as f:
    rows = list(csv.DictReader(f))
header = list(rows[0].keys())
evaluator = {'GT: ground_truth', 'Sim: ground_truth', 'Sim: outputs', 'Expected Output', 'Judge Method',
             'Judge Reason', 'Test Failures', 'Level Boundary'}
def write(name, fields, data):
    with open(os.path.join(args['dir'], name), 'w', newline='') as f:
        w = csv.DictWriter(f, fields, extrasaction='ignore')
        w.writeheader()
        w.writerows(data)
write('eval.csv', header, rows)
write('responses.csv', [h for h in header if h not in evaluator], rows)
with open(os.path.join(args['dir'], 'manifest.json'), 'w') as f:
    json.dump({'sut_model': 'gpt-4o-mini', 'dataset': 'demo', 'threshold': 0.8}, f)

tags = {'Semantic Variation': 'SV', 'Input Quality': 'IQ', 'Structural/Format': 'F',
        'Context Interference': 'CI', 'Context Load': 'CL', 'Conflict Instruction Stress': 'CIS',
        'Knowledge Boundary': 'KB'}
def correct(r):
    try:
        return float(r['Sim: outputs']) >= 0.8
    except ValueError:
        return False
base = [correct(r) for r in rows if r['Category'] == 'Temporal Consistency']
acc0 = sum(base) / len(base) if base else 1.0
by = {}
for r in rows:
    fam = tags.get(r['Category'])
    if fam:
        by.setdefault(fam, {}).setdefault(r['Classified Level'], []).append(correct(r))
accuracy = {fam: dict({'L0': acc0}, **{l: sum(v) / len(v) for l, v in levels.items()}) for fam, levels in by.items()}
collapse = {fam: next((l for l in ['L1', 'L2', 'L3', 'L4', 'L5'] if l in a and a[l] < 0.8 * acc0), '')
            for fam, a in accuracy.items()}
columns = sorted({l for a in accuracy.values() for l in a})
with open(os.path.join(args['dir'], 'metrics_acc.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['fam'] + columns)
    for fam in sorted(accuracy):
        w.writerow([fam] + [round(accuracy[fam][l], 3) if l in accuracy[fam] else '' for l in columns])
with open(os.path.join(args['dir'], 'metrics_summary.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['family', 'CP'])
    for fam in sorted(collapse):
        w.writerow([fam, collapse[fam]])
json.dump({'accuracy': accuracy, 'collapse': collapse}, sys.stdout)
`;
