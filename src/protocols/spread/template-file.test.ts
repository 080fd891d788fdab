import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { scratchDir } from '../../test-support/scratch.js';
import { readTemplateFile } from './template-file.js';
import { renderTemplate } from './templates.js';

const dir = scratchDir('spread-templates');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("a user's templates", () => {
  it('reads JSONL, YAML and the prompteval CSV (quoted across lines, doubled quotes)', () => {
    expect(
      readTemplateFile(file('a.jsonl', '{"id":"x","template":"Q: {question}\\n{choices}\\nA:"}\n')).map(
        (t) => t.id,
      ),
    ).toEqual(['x']);
    expect(
      readTemplateFile(
        file('a.yaml', '- "{question} {choices}"\n- id: two\n  template: "{topic}: {question} {choices}"\n'),
      ).map((t) => t.id),
    ).toEqual(['t-000', 'two']);
    const csv =
      ',prompt template\n0,"The\n following about {topic}""\n {question}""\n {choices}""\n Answer:"\n1,Plain {question} {choices} Answer:\n';
    const read = readTemplateFile(file('c.csv', csv));
    expect(read.map((t) => (t.kind === 'user' ? t.text : ''))).toEqual([
      'The\n following about {topic}"\n {question}"\n {choices}"\n Answer:',
      'Plain {question} {choices} Answer:',
    ]);
    const r = renderTemplate(read[1] as (typeof read)[number], {
      question: 'Q?',
      options: ['x', 'y'],
      topic: 'chemistry',
    });
    expect(r.prompt).toBe('Plain Q? A. x\nB. y Answer:');
    expect(r.labels).toEqual(['A.', 'B.']);
  });

  it('names the file, line and field of a bad template', () => {
    const bad = file(
      'b.jsonl',
      '{"id":"x","template":"{question} {choices}"}\n{"id":"y","template":"no slots"}\n',
    );
    expect(() => readTemplateFile(bad)).toThrow(InputError);
    expect(() => readTemplateFile(bad)).toThrow(/no \{question\}/);
    try {
      readTemplateFile(bad);
    } catch (e) {
      expect(e).toMatchObject({ file: bad, line: 2, field: 'template' });
    }
    expect(() =>
      readTemplateFile(
        file(
          'd.jsonl',
          '{"id":"x","template":"{question} {choices}"}\n{"id":"x","template":"{question} {choices}"}\n',
        ),
      ),
    ).toThrow(/used twice/);
    expect(() => readTemplateFile(file('e.jsonl', 'nope\n'))).toThrow(/not JSON/);
  });
});
