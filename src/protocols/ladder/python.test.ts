import { describe, expect, it } from 'vitest';
import { python3Missing, runPython } from '../../test-support/python3.js';
import { pyFloat, pyFloatRepr, pyJsonLoads, pyStr, pyStrip } from './python.js';

const CPYTHON = String.raw`
import json, sys
a = json.load(sys.stdin)
def f(t):
    try:
        return repr(float(t))
    except ValueError:
        return None
def loads(t):
    try:
        return str(json.loads(t))
    except Exception:
        return None
print(json.dumps({
    'repr': [repr(float(x)) for x in a['floats']],
    'float': [f(t) for t in a['texts']],
    'strip': [t.strip() for t in a['texts']],
    'str': [loads(t) for t in a['json']],
}))
`;

(python3Missing ? describe.skip : describe)(`python.ts against CPython ${python3Missing ?? ''}`, () => {
  const floats = [
    0.1,
    18,
    5e-5,
    1e16,
    1e15,
    123.456,
    -0.5,
    1e-4,
    0.00012345,
    1.5e300,
    2 ** 53 + 2,
    -2.5e-7,
    1 / 3,
  ];
  const texts = [
    '１８',
    ' ٣.٥ ',
    '1_000',
    '\x1c7\x85',
    '\ufeff5',
    'nan',
    '-Infinity',
    '1e5',
    '.5',
    '5.',
    '- 5',
    '1__0',
  ];
  const json = ['{"a": 1e16, "b": [1, 2.0, null, true], "2": "x"}', '{"a": NaN}', '[1, }', '-0', '"\\u00e9"'];
  it('repr of floats, float() and str.strip() of strings, str() of json.loads, as CPython gives them', () => {
    const py = runPython<{
      repr: string[];
      float: (string | null)[];
      strip: string[];
      str: (string | null)[];
    }>(CPYTHON, { floats, texts, json });
    expect(floats.map(pyFloatRepr)).toEqual(py.repr);
    expect(
      texts.map((t) => {
        const x = pyFloat(t);
        return x === undefined ? null : pyFloatRepr(x);
      }),
    ).toEqual(py.float);
    expect(texts.map(pyStrip)).toEqual(py.strip);
    expect(
      json.map((t) => {
        const v = pyJsonLoads(t);
        return v === undefined ? null : pyStr(v);
      }),
    ).toEqual(py.str);
  });
});

describe('python.ts by hand', () => {
  it('keeps ints apart from floats and dict keys in order', () => {
    expect(pyStr(pyJsonLoads('{"2": 18.0, "a": 18}') as never)).toBe("{'2': 18.0, 'a': 18}");
    expect(pyFloatRepr(0.00005)).toBe('5e-05');
    // JSON cannot carry -0 to CPython, so by hand: repr(-0.0).
    expect(pyFloatRepr(-0)).toBe('-0.0');
  });
});
