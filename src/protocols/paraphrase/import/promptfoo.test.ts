import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../errors.js';
import { PROMPTFOO_RESULTS } from '../../../test-support/protocols/paraphrase/import/fixtures.js';
import { planPromptfooImport } from './promptfoo.js';

interface Result {
  testIdx: number;
  provider: { id: string; label: string };
  prompt: { label: string };
  vars: Record<string, string>;
  success: boolean;
  failureReason: number;
  error?: string;
  response: { output: string };
}

function edited(edit: (results: Result[]) => void): string {
  const doc = JSON.parse(readFileSync(PROMPTFOO_RESULTS, 'utf8'));
  edit(doc.results.results);
  const file = join(mkdtempSync(join(tmpdir(), 'waver-promptfoo-plan-')), 'results.json');
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

describe('planPromptfooImport', () => {
  it('test cases as items, prompts as variants, each copy under --repeat a repeat in testIdx order, providers as models', () => {
    const plan = planPromptfooImport([PROMPTFOO_RESULTS]);
    expect(plan.suites).toHaveLength(1);
    const suite = plan.suites[0];
    expect(suite?.suite.tests).toHaveLength(8);
    expect(suite?.suite.tests.every((t) => t.repeats === 3)).toBe(true);
    expect(suite?.models.map((m) => m.identity)).toEqual([
      'promptfoo:openai:chat:stories260K.gguf#stories260K',
      'promptfoo:openai:chat:llama-2-tiny-random.gguf#tiny-random',
    ]);
    // The first repeat of (stories260K, plain, the first question) is the lowest testIdx among its copies.
    const raw: Result[] = JSON.parse(readFileSync(PROMPTFOO_RESULTS, 'utf8')).results.results;
    const copies = raw
      .filter(
        (r) =>
          r.provider.label === 'stories260K' &&
          r.prompt.label === 'plain' &&
          r.vars.question?.startsWith('Once'),
      )
      .sort((a, b) => a.testIdx - b.testIdx);
    const cells = suite?.models[0]?.cells.filter(
      (c) => c.testId.endsWith('/plain') && c.text === copies[0]?.response.output,
    );
    expect(cells?.some((c) => c.repeat === 0)).toBe(true);
    expect(suite?.suite.tests[0]?.meta.key).toMatch(/^icontains/);
  });

  it("a result promptfoo recorded as an error is a failed cell with promptfoo's message, never a wrong answer", () => {
    const file = edited((results) => {
      const r = results[3] as Result;
      r.failureReason = 2;
      r.success = false;
      r.error = 'API error: 500 Internal Server Error';
    });
    const cells = planPromptfooImport([file]).suites[0]?.models.flatMap((m) => m.cells) ?? [];
    const failed = cells.filter((c) => c.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.text).toBe('API error: 500 Internal Server Error');
  });

  it("--metric names an assertion type: that assertion's pass; one never graded is an input error naming the field", () => {
    const raw: Result[] = JSON.parse(readFileSync(PROMPTFOO_RESULTS, 'utf8')).results.results;
    // The last two questions assert icontains-any, not icontains.
    const missing = raw.findIndex(
      (r) => !r.vars.question?.startsWith('Once') && !r.vars.question?.startsWith('The cat'),
    );
    expect(() => planPromptfooImport([PROMPTFOO_RESULTS], { metric: 'icontains' })).toThrow(
      new InputError(
        `no 'icontains' assertion was graded here (--metric names an assertion type, or 'success')`,
        { file: PROMPTFOO_RESULTS, field: `results.results[${missing}].gradingResult.componentResults` },
      ),
    );
    // Every result's one assertion passed exactly when the result succeeded: the verdicts agree.
    const bySuccess = planPromptfooImport([PROMPTFOO_RESULTS]).suites[0]?.models.flatMap((m) => m.cells);
    const byAny = planPromptfooImport(
      [
        edited((results) => {
          for (const r of results as unknown as {
            gradingResult: { componentResults: { assertion: { type: string } }[] };
          }[])
            for (const c of r.gradingResult.componentResults) c.assertion.type = 'contains-word';
        }),
      ],
      { metric: 'contains-word' },
    ).suites[0]?.models.flatMap((m) => m.cells);
    expect(byAny?.map((c) => c.correct)).toEqual(bySuccess?.map((c) => c.correct));
  });
});

describe('planPromptfooImport refuses', () => {
  it('a file that is not JSON: the line of the error', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'waver-promptfoo-bad-')), 'results.json');
    writeFileSync(file, '{\n  "results": {\n    "results": [,]\n  }\n}\n');
    expect(message(file)).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:3: not JSON`));
    writeFileSync(file, '{\n  "results": {\n    "results": [1,\n2,,]\n  }\n}\n');
    expect(message(file)).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:4: not JSON`));
  });
});

function message(file: string): string {
  try {
    planPromptfooImport([file]);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).format();
  }
  throw new Error('no error');
}
