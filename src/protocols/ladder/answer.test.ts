import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { parseNumericAnswer, parseReference } from './answer.js';

describe('parseNumericAnswer', () => {
  it.each([
    ['{"reasoning": "2+2", "ground_truth": 4}', 4, 'json'],
    ['Sure. {"answer": "1,250"}', 1250, 'json'],
    ['She has 3 apples then 5.\n#### 8\nThanks, 9 times over', 8, 'hashes'],
    ['#### 1\n#### $2,500.50', 2500.5, 'hashes'],
    // A number the reply rejects is not its answer (the reference reads 1,000: L12).
    ['It costs $1,200 in total, not 1,000.', 1200, 'last-number'],
    ['The answer is -7.', -7, 'final-marker'],
    ['So 12, and then, , done', 12, 'last-number'],
    ['value .5', 0.5, 'last-number'],
    // The marker inside the `####` line is the last one: the same 18.
    ['#### The answer is 18', 18, 'final-marker'],
    // A `####` inside a line is still the answer marker; the number after it, not a later one.
    ['So the final answer is #### 18. (I double-checked 2 times)', 18, 'hashes'],
    // A sign is never dropped: a space after it in an answer string or after `####`, or U+2212.
    ['{"ground_truth": "- 5"}', -5, 'json'],
    ['#### - 5', -5, 'hashes'],
    ['#### −12', -12, 'hashes'],
    ['It is 10 - 5, so −5.', -5, 'last-number'],
    // In running text a minus that does not touch the number is a subtraction.
    ['We get 10 - 5', 5, 'last-number'],
  ])('%s', (text, value, via) => {
    expect(parseNumericAnswer(text)).toEqual({ value, via });
  });

  it('treats a bare comma and words as unparsed', () => {
    expect(parseNumericAnswer('I do not know, sorry , ,')).toEqual({ value: undefined, via: 'unparsed' });
  });

  it('falls through JSON without an answer field', () => {
    expect(parseNumericAnswer('{"note": "x"} so 42')).toEqual({ value: 42, via: 'last-number' });
  });

  // Where the paper is silent, the reference code's reading (docs/fidelity.md#ladder).
  it.each([
    // The whole reply first: a nested object does not hide the answer.
    ['{"ground_truth": 18, "work": {"step": 2}}', 18, 'json'],
    // The first number of a `####` line and of a JSON string value.
    ['#### 18 (because 9 x 2)', 18, 'hashes'],
    ['{"ground_truth": "18 (9 + 9)"}', 18, 'json'],
    // The first object that answers, not the last.
    ['{"ground_truth": 5} then {"ground_truth": 7}', 5, 'json'],
    // A sign with a space after it (`_to_number` drops the spaces) and a `####` inside a line.
    ['{"ground_truth": "- 5"}', -5, 'json'],
    ['So the final answer is #### 18. (I double-checked 2 times)', 18, 'hashes'],
    ['#### -1,250', -1250, 'hashes'],
  ])('reads %s as the reference does', (text, value, via) => {
    expect(parseNumericAnswer(text)).toEqual({ value, via });
    expect(parseReference(text)).toEqual({ value, via });
  });
});

describe("parseNumericAnswer(text, 'reference'): the reference code's parse_math and _to_number", () => {
  // Each expectation is what the reference's Python gives for the same text.
  it.each([
    ['{"reasoning": "2+2", "ground_truth": 4}', 4, 'json'],
    ['Sure. {"answer": "1,250"}', 1250, 'json'],
    ['#### 1\n#### $2,500.50', 2500.5, 'hashes'],
    ['It costs $1,200 in total, not 1,000.', 1000, 'last-number'],
    ['The answer is -7.', -7, 'last-number'],
    ['{"answer": 3, "ground_truth": 5}', 5, 'json'],
    ['{"ground_truth": "-$1,234.5 dollars"}', -1234.5, 'json'],
    // `####` anywhere, not only at a line start.
    ['The answer #### 12 inline', 12, 'hashes'],
    // Only flat objects are candidates after the whole reply: the inner one has no answer key.
    ['Here {"ground_truth": 18, "w": {"s": 2}}', 2, 'last-number'],
    ['{"ground_truth": [7, 8]}', 7, 'json'],
    // A decimal without a leading digit loses its point.
    ['value .5', 5, 'last-number'],
  ])('%s', (text, value, via) => {
    expect(parseNumericAnswer(text, 'reference')).toEqual({ value, via });
  });

  it('departs from the default where the reference code reads no number', () => {
    // An answer key without a number ends the reading: no fallback to the text around it.
    expect(parseNumericAnswer('{"ground_truth": null} so 42', 'reference')).toEqual({
      value: undefined,
      via: 'unparsed',
    });
    expect(parseNumericAnswer('{"ground_truth": null} so 42')).toEqual({ value: 42, via: 'last-number' });
    expect(parseNumericAnswer('{"ground_truth": true}', 'reference').via).toBe('unparsed');
    // A trailing bare comma is the reference's last "number", and reads as none.
    expect(parseNumericAnswer('So 12, and then, , done', 'reference').via).toBe('unparsed');
    expect(parseNumericAnswer('So 12, and then, , done')).toEqual({ value: 12, via: 'last-number' });
  });
});

/**
 * The reference's own code path, in CPython: `parse_math` (experiment/run_sut_model.py:50-61) and
 * `_to_number` (modules/eval_output.py:117-127), copied as they are; None where no number is read.
 */
const REFERENCE_PARSER = String.raw`
import json, re, sys
_re = re
def parse_math(raw):
    raw=raw.strip()
    for cand in [raw]+_re.findall(r'\{[^{}]*\}', raw):
        try:
            v=json.loads(cand)
            if isinstance(v,dict) and ('ground_truth' in v or 'answer' in v):
                return str(v.get('ground_truth', v.get('answer','')))
        except Exception: pass
    m=_re.findall(r'####\s*\$?(-?[\d,]+\.?\d*)', raw)
    if m: return m[-1].replace(',','')
    nums=_re.findall(r'-?[\d,]+\.?\d*', raw)
    return nums[-1].replace(',','') if nums else raw
def _to_number(x):
    m = re.search(r'-?\s*\$?\s*\d[\d,]*(?:\.\d+)?', str(x))
    if not m:
        return None
    tok = m.group(0).replace('$', '').replace(',', '').replace(' ', '')
    try:
        return float(tok)
    except ValueError:
        return None
print(json.dumps([_to_number(parse_math(t)) for t in json.load(sys.stdin)]))
`;

(python3Missing ? describe.skip : describe)(
  `parser: reference against the reference's Python, run in CPython ${python3Missing ?? ''}`,
  () => {
    const texts = [
      // Python's \d reads every decimal digit, and float() reads them.
      '#### １８',
      'The answer is ١٢٣',
      '{"ground_truth": "４２"}',
      // str() of a float: 5e-05, 1e+16 are read as 5 and 1; an int keeps its digits.
      '{"ground_truth": 0.00005}',
      '{"ground_truth": 1e16}',
      '{"ground_truth": 12345678901234567890}',
      '{"ground_truth": 18.0}',
      '{"ground_truth": -0.0001}',
      // json.loads accepts NaN and Infinity; None, True and lists print as Python does.
      '{"ground_truth": NaN} so 4',
      '{"ground_truth": Infinity}',
      '{"ground_truth": null, "answer": 3}',
      '{"answer": true}',
      '{"ground_truth": [7, 8]}',
      '{"ground_truth": {"value": 9}}',
      // Whitespace: Python's \s has \x1c-\x1f and \x85; a tab inside a number makes float() fail.
      '#### \x1c 7',
      '{"ground_truth": "-\t5"}',
      '{"ground_truth": "- 5"}',
      'So the final answer is #### 18. (I double-checked 2 times)',
      'value .5',
      'So 12, and then, , done',
      '\ufeff#### 3',
      'Plain text, no digits at all',
      '{"ground_truth": "1_000"}',
    ];
    it('reads full-width digits and str() of a small float as Python does (by hand: 18, 5, 1)', () => {
      expect(parseNumericAnswer('#### １８', 'reference').value).toBe(18);
      expect(parseNumericAnswer('{"ground_truth": 0.00005}', 'reference').value).toBe(5);
      expect(parseNumericAnswer('{"ground_truth": 1e16}', 'reference').value).toBe(1);
    });
    let expected: (number | null)[] | undefined;
    it.each(texts.map((t, i) => [i, t] as const))('case %i: %j', (i, text) => {
      expected ??= runPython<(number | null)[]>(REFERENCE_PARSER, texts);
      expect(parseNumericAnswer(text, 'reference').value ?? null).toBe(expected[i]);
    });
  },
);
