import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { scratchDir } from '../../test-support/protocols/ladder/fakes.js';
import {
  ladderSuiteFill,
  ladderSuiteJsonl,
  ladderTestId,
  readLadderSuite,
  writeFileAtomic,
  writeLadderSuite,
} from './suite-file.js';
import type { LadderTest } from './types.js';

const dir = scratchDir('waver-suite-file-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const original = 'Tom has 3 apples and buys 4 more. How many apples does he have?';
function test(
  fields: Partial<LadderTest> & Pick<LadderTest, 'family' | 'requestedLevel' | 'text'>,
): LadderTest {
  const t: LadderTest = {
    id: '',
    seedId: 'tom',
    measuredLevel: fields.requestedLevel,
    original,
    gold: 7,
    gates: [],
    ...fields,
  };
  t.id = ladderTestId(t);
  return t;
}
const baseline = test({ family: 'baseline', requestedLevel: 0, text: original });
const iq = test({
  family: 'IQ',
  requestedLevel: 1,
  text: 'Tom has 3 aples and buys 4 more. How many apples does he have?',
  subtype: 'typos',
  severity: { sim: 0.9921, magnitude: 0.0079, score: 0.0079, level: 1, via: 'band' },
  gates: [{ gate: 'structural', verdict: 'pass', reason: 'all 2 numbers of the original kept' }],
  generator: { kind: 'rules', name: 'IQ/typos', seed: 12, attempt: 1 },
});
const kb = test({
  family: 'KB',
  requestedLevel: 1,
  text: 'Tom has some apples and buys 4 more. How many apples does he have?',
  subtype: 'missing-information',
  gold: 'unanswerable',
  generator: { kind: 'model', model: 'replay:0123456789abcdef', temperature: 0.3, attempt: 1 },
});

function readError(lines: string[]): InputError {
  const file = join(dir, 'bad.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  try {
    readLadderSuite(file);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error('expected an InputError');
}
const line = (t: unknown) => JSON.stringify(t);

describe('ladder suite file', () => {
  it('writes canonical JSONL (sorted keys, one test per line) and reads it back', () => {
    const file = join(dir, 'ok.jsonl');
    writeLadderSuite(file, [baseline, iq, kb]);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(ladderSuiteJsonl([baseline, iq, kb]));
    expect(text.split('\n')).toHaveLength(4);
    const first = JSON.parse(text.split('\n')[0] as string);
    expect(Object.keys(first)).toEqual([...Object.keys(first)].sort());
    expect(readLadderSuite(file)).toEqual([baseline, iq, kb]);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('reads a suite saved again with a byte-order mark and CRLF line ends', () => {
    const file = join(dir, 'bom.jsonl');
    writeFileSync(file, `\ufeff${ladderSuiteJsonl([baseline, iq, kb]).replaceAll('\n', '\r\n')}`);
    expect(readLadderSuite(file)).toEqual([baseline, iq, kb]);
  });

  it('the id is a content hash of seed, family, requested level and text', () => {
    expect(iq.id).toMatch(/^[0-9a-f]{16}$/);
    const sameContent: LadderTest = { ...iq, gates: [], severity: undefined };
    expect(ladderTestId(sameContent)).toBe(iq.id);
    expect(ladderTestId({ ...iq, text: `${iq.text} ` })).not.toBe(iq.id);
    expect(ladderTestId({ ...iq, requestedLevel: 2 })).not.toBe(iq.id);
  });

  it('names file, line and field of a bad line', () => {
    let e = readError([line(baseline), '{"id": ']);
    expect(e.format()).toMatch(/bad\.jsonl:2: not valid JSON/);
    e = readError([line({ ...iq, extra: 1 })]);
    expect([e.line, e.field, e.reason]).toEqual([1, 'extra', 'unknown field']);
    e = readError([line({ ...iq, requestedLevel: 7 })]);
    expect([e.line, e.field]).toEqual([1, 'requestedLevel']);
    e = readError([line({ ...iq, gates: [{ gate: 'nli', verdict: 'maybe', reason: '' }] })]);
    expect(e.field).toBe('gates.0.verdict');
    e = readError([line({ ...iq, text: 'edited by hand' })]);
    expect([e.field, e.reason]).toEqual(['id', expect.stringMatching(/not the test's content hash/)]);
    e = readError([line({ ...kb, gold: 7 })]);
    expect(e.field).toBe('gold');
    e = readError([line({ ...baseline, family: 'SV' })]);
    expect(e.field).toBe('requestedLevel');
    e = readError([line(iq), line(baseline), line(iq)]);
    expect([e.line, e.field, e.reason]).toEqual([3, 'id', 'duplicate test (first on line 1)']);
    e = readError(['', '  ']);
    expect(e.message).toMatch(/no tests/);
  });

  it("records the answer type and checks each test's answer against it", () => {
    const stem = 'Which gas do plants take in?';
    const options = [
      { letter: 'A', text: 'oxygen' },
      { letter: 'B', text: 'carbon dioxide' },
    ];
    const question = `${stem}\n\nA. oxygen\nB. carbon dioxide`;
    const choice = test({
      seedId: 'arc-1',
      family: 'baseline',
      requestedLevel: 0,
      text: question,
      original: question,
      answerType: 'choice',
      gold: 'B',
      options,
    });
    const trivia = test({
      seedId: 'trivia-1',
      family: 'baseline',
      requestedLevel: 0,
      text: 'Which vegetable is a Pearl Pickler?',
      original: 'Which vegetable is a Pearl Pickler?',
      answerType: 'text',
      gold: 'Onion',
      aliases: ['Allium cepa'],
    });
    const kbChoice = test({
      seedId: 'arc-1',
      family: 'KB',
      requestedLevel: 1,
      text: `Which gas do the plants of the Hartwell report take in?\n\nA. oxygen\nB. carbon dioxide`,
      original: question,
      answerType: 'choice',
      gold: 'unanswerable',
    });
    const file = join(dir, 'typed.jsonl');
    writeLadderSuite(file, [choice, trivia, kbChoice]);
    expect(readLadderSuite(file)).toEqual([choice, trivia, kbChoice]);
    // A suite written before answer types has none: its tests are number tests.
    expect(readLadderSuite(join(dir, 'ok.jsonl')).every((t) => t.answerType === undefined)).toBe(true);

    let e = readError([line({ ...choice, gold: 'C' })]);
    expect([e.field, e.reason]).toEqual(['gold', "gold 'C' is not the letter of one of the options (A, B)"]);
    e = readError([line({ ...choice, options: undefined })]);
    expect([e.field, e.reason]).toEqual(['options', 'a choice test lists its options']);
    e = readError([line({ ...choice, options: [...options, { letter: 'A', text: 'water' }] })]);
    expect(e.reason).toBe("option letter 'A' appears twice");
    e = readError([line({ ...choice, options: [{ letter: 'a', text: 'x' }, options[1]] })]);
    expect(e.field).toBe('options.0.letter');
    e = readError([line({ ...trivia, gold: 7 })]);
    expect(e.field).toBe('gold');
    e = readError([line({ ...trivia, options })]);
    expect([e.field, e.reason]).toEqual(['options', 'only a choice test has options (this is text)']);
    e = readError([line({ ...baseline, aliases: ['seven'] })]);
    expect([e.field, e.reason]).toEqual(['aliases', 'only a text test has aliases (this is number)']);
    e = readError([line({ ...kbChoice, options })]);
    expect(e.field).toBe('options');
    e = readError([line({ ...choice, answerType: 'letter' })]);
    expect(e.field).toBe('answerType');
  });

  it('writes through a temporary file: a failed write leaves nothing', () => {
    const target = join(dir, 'no-such-dir-is-a-file');
    writeFileSync(target, 'x');
    expect(() => writeFileAtomic(join(target, 'suite.jsonl'), 'data')).toThrow();
    expect(existsSync(join(target, 'suite.jsonl'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

describe('the suite fill waver plan sizes from', () => {
  it('each test as seed, family and measured level, a baseline at level 0 asked baselineRepeats times', () => {
    const unbinned = { ...iq, measuredLevel: undefined, id: 'x' };
    expect(ladderSuiteFill([baseline, iq, kb, unbinned], { repeats: 2, baselineRepeats: 3 })).toEqual([
      { cluster: 'tom', scope: 'baseline', level: 0, repeats: 3 },
      { cluster: 'tom', scope: 'IQ', level: 1, repeats: 2 },
      { cluster: 'tom', scope: 'KB', level: 1, repeats: 2 },
      { cluster: 'tom', scope: 'IQ', level: undefined, repeats: 2 },
    ]);
  });
});
