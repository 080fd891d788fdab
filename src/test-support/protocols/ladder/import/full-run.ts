import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPython } from '../../../python3.js';

export { python3Missing as fullRunMissing } from '../../../python3.js';

/** The reference's own figures for a run, as its notebooks compute them (see PROGRAM). */
export interface ReferenceFigures {
  /** results_walkthrough.ipynb cell 13 (Table 4), unrounded; null where it gives NaN. */
  stability: Record<string, number | null>;
  /** results_walkthrough.ipynb cell 12 (Table 5): family tag -> `L1`..`L5` or `—`. */
  collapse: Record<string, string>;
  acc0: number;
  /** results_crossmodel.ipynb cell 5: category name -> its point; the x threshold. */
  quadrant: Record<string, { x: number; y: number }>;
  xThreshold: number;
  /** results_crossmodel.ipynb `aggregate_curve`: L0..L5. */
  aggregate: (number | null)[];
}

export interface FullRun {
  /** A folder laid out as the reference repository: `<root>/experiment/output/runs/<dir>`. */
  root: string;
  dir: string;
  reference: ReferenceFigures;
}

/**
 * A run folder as the reference repository ships its four full runs: eval.csv (the evaluator's
 * columns, `Raw Response` kept) and manifest.json only, no responses.csv or metrics files. The rows
 * are drawn here (24 seeds, three baseline calls each, every family at several measured levels,
 * numeric Sims 0/1 and KB Sims 1/0.75/0 or blank where the judge never ran, a few failed calls with
 * no Sim), and the reference's figures computed from the file by a port of its notebooks' code.
 */
export function fullRunFolder(): FullRun {
  const root = mkdtempSync(join(tmpdir(), 'waver-ladder-full-run-'));
  const dir = join(root, 'experiment', 'output', 'runs', 'gpt-4o-mini__gsm8k_symbolic100');
  mkdirSync(dir, { recursive: true });
  const reference = runPython<ReferenceFigures>(PROGRAM, { dir });
  return { root, dir, reference };
}

const PROGRAM = String.raw`
import csv, json, math, os, random, sys
args = json.load(sys.stdin)
rnd = random.Random(22)
HEADER = ['Dimension', 'Category', 'Phase', 'Target Level', 'Classified Level', 'Attempt', 'Temperature',
          'Structural Gate', 'Struct Failures', 'NLI Gate', 'NLI Label', 'Level Gate', 'Gate', 'SIM', 'TCR',
          'Score', 'Source Row', 'Generated Input', 'Run At', 'Latency (ms)', 'Run Status', 'Pred: ground_truth',
          'Original Input', 'Test Type', 'Meaning Gate', 'Meaning Reason', 'Judge Same', 'Judge Conf',
          'Judge Expl', 'CES', 'CES Norm', 'Raw Response', 'GT: ground_truth', 'Sim: ground_truth',
          'Sim: outputs', 'Expected Output', 'Judge Method', 'Judge Reason', 'Test Failures', 'Level Boundary']
FAMILIES = ['Semantic Variation', 'Input Quality', 'Structural/Format', 'Context Interference', 'Context Load',
            'Conflict Instruction Stress', 'Knowledge Boundary']
rows = []
def row(cat, seed, level, score, status, sim, kb=False):
    gt = seed * 7 + 3
    ok = status == 'ok'
    pred = '' if not ok or kb else str(gt if sim == 1.0 else gt + 1)
    r = {h: '' for h in HEADER}
    r.update({'Dimension': 'Stability', 'Category': cat, 'Target Level': level, 'Classified Level': level,
              'Attempt': '1', 'Gate': 'True', 'SIM': f'{1 - score:.4f}', 'TCR': f'{score:.4f}',
              'Score': f'{score:.4f}', 'Source Row': str(seed),
              'Generated Input': f'[QUESTION] Seed {seed} asks a question' + ('' if level == 'L0' else f' ({cat}, {level}, {len(rows)})'),
              'Run Status': status, 'Pred: ground_truth': pred,
              'Original Input': '' if level == 'L0' else f'Seed {seed} asks a question',
              'Raw Response': ('' if not ok else ('I cannot answer this.' if kb else '{"ground_truth": %s}' % pred)),
              'GT: ground_truth': '(behavioral)' if kb else str(gt),
              'Sim: ground_truth': '' if sim is None or kb else repr(sim),
              'Sim: outputs': '' if sim is None else repr(sim),
              'Judge Method': ('llm_judge' if sim is not None else '') if kb else 'numeric'})
    rows.append(r)
for seed in range(24):
    for _ in range(3):
        failed = rnd.random() < 0.05
        row('Temporal Consistency', seed, 'L0', 0.0, 'error' if failed else 'ok',
            None if failed else (1.0 if rnd.random() < 0.85 else 0.0))
    for f, cat in enumerate(FAMILIES):
        kb = cat == 'Knowledge Boundary'
        for level in rnd.sample(['L1', 'L2', 'L3', 'L4', 'L5'], 3):
            failed = rnd.random() < 0.04
            score = round(rnd.uniform(0.03, 0.9), 4)
            p = 0.95 - 0.12 * int(level[1]) - 0.03 * f
            if failed:
                sim = None
            elif kb:
                sim = rnd.choice([1.0, 1.0, 0.75, 0.0, None])
            else:
                sim = 1.0 if rnd.random() < p else 0.0
            row(cat, seed, level, score, 'error' if failed else 'ok', sim, kb)
with open(os.path.join(args['dir'], 'eval.csv'), 'w', newline='') as out:
    w = csv.DictWriter(out, HEADER)
    w.writeheader()
    w.writerows(rows)
with open(os.path.join(args['dir'], 'manifest.json'), 'w') as out:
    json.dump({'sut_model': 'gpt-4o-mini', 'provider': 'openai', 'dataset': 'gsm8k_symbolic100',
               'threshold': 0.8, 'n_responses': len(rows), 'n_baseline': 3}, out, indent=2)

# The reference's figures, read back from the file as its notebooks read it (pandas' to_numeric with
# errors='coerce' is float() or NaN; a mean skips NaN; NaN >= 0.8 is False).
with open(os.path.join(args['dir'], 'eval.csv'), newline='') as f:
    e = list(csv.DictReader(f))
THRESHOLD = 0.80
TAG = {'Semantic Variation': 'SV', 'Input Quality': 'IQ', 'Structural/Format': 'F', 'Context Interference': 'CI',
       'Context Load': 'CL', 'Conflict Instruction Stress': 'CIS', 'Knowledge Boundary': 'KB'}
def num(v):
    try:
        return float(v)
    except ValueError:
        return math.nan
def mean(xs):
    xs = [x for x in xs if not math.isnan(x)]
    return sum(xs) / len(xs) if xs else math.nan
for r in e:
    r['fam'] = TAG.get(r['Category'])
    r['sim'] = num(r['Sim: outputs'])
    r['scr'] = num(r['Score'])
    r['correct'] = r['sim'] >= THRESHOLD
base = [r for r in e if r['Category'] == 'Temporal Consistency']
acc0 = mean([float(r['correct']) for r in base])
sim0 = mean([r['sim'] for r in base])
# Table 5 (results_walkthrough.ipynb cell 12): pivot_table(index=fam, columns=Classified Level, values=correct, mean).
tau = 0.80 * acc0
collapse = {}
for fam in TAG.values():
    levels = {}
    for r in e:
        if r['fam'] == fam:
            levels.setdefault(r['Classified Level'], []).append(float(r['correct']))
    collapse[fam] = next((L for L in ['L1', 'L2', 'L3', 'L4', 'L5'] if L in levels and mean(levels[L]) < tau), '—')
# Table 4 (cell 13): sum(s*w)/sum(w) over rows with both, NaN when none or the weights sum to 0.
def stability(g):
    m = [(r['sim'], r['scr']) for r in g if not math.isnan(r['sim']) and not math.isnan(r['scr'])]
    wsum = sum(w for _, w in m)
    return sum(s * w for s, w in m) / wsum if m and wsum > 0 else math.nan
stab = {'Baseline': sim0}
for full in TAG:
    stab[full] = stability([r for r in e if r['Category'] == full])
# results_crossmodel.ipynb aggregate_curve: acc0, then per level the mean correctness over every family's rows.
st = [r for r in e if r['fam']]
aggregate = [acc0] + [mean([float(r['correct']) for r in st if r['Classified Level'] == L]) for L in ['L1', 'L2', 'L3', 'L4', 'L5']]
# Figure 2 (results_crossmodel.ipynb cell 5, quadrant_scatter): per category the mean Score (x) and
# mean Sim (y) over the admitted rows with both; the x threshold the mean of the category means.
quad = {}
for full in ['Temporal Consistency'] + list(TAG):
    g = [r for r in e if r['Category'] == full and r['Gate'] == 'True' and not math.isnan(r['sim']) and not math.isnan(r['scr'])]
    if g:
        quad[full] = {'x': sum(r['scr'] for r in g) / len(g), 'y': sum(r['sim'] for r in g) / len(g)}
xthr = sum(q['x'] for q in quad.values()) / len(quad)
nan_null = lambda x: None if math.isnan(x) else x
json.dump({'stability': {k: nan_null(v) for k, v in stab.items()}, 'collapse': collapse, 'acc0': acc0,
           'quadrant': quad, 'xThreshold': xthr,
           'aggregate': [nan_null(x) for x in aggregate]}, sys.stdout)
`;
