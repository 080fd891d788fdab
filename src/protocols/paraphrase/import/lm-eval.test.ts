import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../errors.js';
import { LM_EVAL_RUNS } from '../../../test-support/protocols/paraphrase/import/fixtures.js';
import { planLmEvalImport } from './lm-eval.js';

const STORIES = join(LM_EVAL_RUNS, 'stories260K');

/** A copy of the stories260K run whose files `edit` may change (name -> text). */
function editedRun(edit: (name: string, text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'waver-lm-eval-plan-'));
  cpSync(STORIES, dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    writeFileSync(file, edit(name, readFileSync(file, 'utf8')));
  }
  return dir;
}

function inputError(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('no InputError');
}

describe('planLmEvalImport', () => {
  it('documents x tasks x repeats: one suite, an item per document, a variant per task, the gold as a letter', () => {
    const plan = planLmEvalImport([STORIES]);
    expect(plan.suites).toHaveLength(1);
    const [suite] = plan.suites;
    expect(suite?.suite.tests).toHaveLength(18);
    expect(new Set(suite?.suite.tests.map((t) => t.meta.variant))).toEqual(
      new Set(['waver_mc_next', 'waver_mc_plain', 'waver_mc_story']),
    );
    const first = suite?.suite.tests.find((t) => t.id === '0:d0b068f1a54b/waver_mc_plain');
    expect(first?.prompt).toBe('Once upon a time, there was a little');
    expect(first?.repeats).toBe(2);
    expect(first?.meta.key).toBe('A');
    const cells = suite?.models[0]?.cells ?? [];
    expect(cells).toHaveLength(36);
    expect(cells.find((c) => c.testId === '1:ed3d0f0fc029/waver_mc_plain' && c.repeat === 1)).toMatchObject({
      answer: 'A',
      text: 'A. sky',
      correct: false,
    });
    expect(plan.check).toEqual({ checked: 18, agree: 18 });
    // acc_norm divides each choice's log-likelihood by its length in characters, as lm-eval does.
    expect(planLmEvalImport([STORIES], { metric: 'acc_norm' }).check).toEqual({ checked: 18, agree: 18 });
  });

  it('the verdict is the logged metric where waver cannot recompute it per repeat (one repeat)', () => {
    // As a generation task would log it: the metric scores the first repeat's filtered answer.
    const dir = editedRun((name, text) =>
      name.startsWith('results_')
        ? text.replaceAll('"output_type": "multiple_choice"', '"output_type": "generate_until"')
        : text,
    );
    const cells = planLmEvalImport([dir]).suites[0]?.models[0]?.cells ?? [];
    expect(cells).toHaveLength(18);
    expect(cells.every((c) => c.repeat === 0)).toBe(true);
    expect(cells.filter((c) => c.correct)).toHaveLength(15);
  });

  it('a metric other than 0 or 1, a gold outside the choices, a missing samples file: file, line, field', () => {
    const half = editedRun((name, text) =>
      name.startsWith('samples_waver_mc_next') ? text.replace('"acc": 1.0', '"acc": 0.5') : text,
    );
    const e = inputError(() => planLmEvalImport([half]));
    expect(e.format()).toMatch(
      /samples_waver_mc_next_.*\.jsonl:1: acc: is 0\.5: waver counts each answer right or wrong/,
    );
    const gold = editedRun((name, text) =>
      name.startsWith('samples_waver_mc_plain') ? text.replace('"target": "0"', '"target": "7"') : text,
    );
    expect(inputError(() => planLmEvalImport([gold])).format()).toMatch(
      /samples_waver_mc_plain_.*\.jsonl:1: target: expected the gold choice's index or text, got "7"/,
    );
    const gone = editedRun((_name, text) => text);
    rmSync(join(gone, readdirSync(gone).find((n) => n.startsWith('samples_waver_mc_story')) as string));
    expect(inputError(() => planLmEvalImport([gone])).format()).toMatch(
      /samples_waver_mc_story_.*\.jsonl: missing: the run was not made with --log_samples/,
    );
    const unknown = inputError(() => planLmEvalImport([STORIES], { metric: 'f1' }));
    expect(unknown.format()).toMatch(
      /:1: f1: expected the per-sample metric \(a number\); this task logs acc/,
    );
  });

  it("the same task twice for one model is refused: which run to count is the user's choice", () => {
    const e = inputError(() => planLmEvalImport([STORIES, STORIES]));
    expect(e.message).toMatch(/a second run of task 'waver_mc_next' for model stories260K\.gguf/);
  });
});
