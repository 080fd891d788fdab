import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedFile } from '../test-support/shared.js';
import { bleuPair, corpusBleuPerPair, sentenceBleu } from './bleu.js';
import { tokenize13a } from './tokenize-13a.js';

interface FixtureCase {
  hyp: string;
  refs: string[];
  py: number;
  py_bp: number;
  py_counts: number[];
  py_totals: number[];
  py_tok_hyp: string;
}

const FIXTURE = 'fixtures/sacrebleu-sentence-cases.json';
const fixturePath = sharedFile(FIXTURE);

describe.skipIf(!fixturePath)(
  `sentenceBleu on the 1,250 sacrebleu 2.6.0 cases${fixturePath ? '' : ` (skipped: ../shared/${FIXTURE} is missing)`}`,
  () => {
    const cases: FixtureCase[] = fixturePath ? JSON.parse(readFileSync(fixturePath, 'utf8')) : [];

    it('has all 1,250 cases', () => {
      expect(cases.length).toBe(1250);
    });

    it('tokenizes every hypothesis exactly as sacrebleu 13a', () => {
      const mismatches = cases.filter((c) => tokenize13a(c.hyp) !== c.py_tok_hyp);
      expect(mismatches.map((c) => c.hyp)).toEqual([]);
    });

    it('matches score (1e-9), counts, totals and brevity penalty on every case', () => {
      const bad: string[] = [];
      for (const [i, c] of cases.entries()) {
        const r = sentenceBleu(c.hyp, c.refs);
        const ok =
          Math.abs(r.score - c.py) <= 1e-9 &&
          Math.abs(r.bp - c.py_bp) <= 1e-12 * Math.max(1, c.py_bp) &&
          JSON.stringify(r.counts) === JSON.stringify(c.py_counts) &&
          JSON.stringify(r.totals) === JSON.stringify(c.py_totals);
        if (!ok) bad.push(`case ${i}: got ${r.score} want ${c.py}`);
      }
      expect(bad).toEqual([]);
    });
  },
);

describe('tokenize13a edge cases (expected strings printed by sacrebleu 2.6.0 Tokenizer13a()(s.rstrip()))', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['   ', ''],
    // Python's whitespace: NBSP, EM SPACE, NEL, U+001C split; U+FEFF (JS \s) does not.
    ['a\u00a0b\u2003c\u0085d\u001ce\ufefff', 'a b c d e\ufefff'],
    // Entity unescaping happens once, in sacrebleu's order.
    ['&quot;hi&quot; &amp;quot; &lt;b&gt;', '" hi " & quot ; < b >'],
    ['line one-\nline two\nthree', 'line oneline two three'],
    ['x <skipped> y', 'x y'],
    // Periods and commas between digits stay; a dash after a digit splits.
    ['3.14, 1,000.5 and 2-3 and a-b 5.', '3.14 , 1,000.5 and 2 - 3 and a-b 5 .'],
    ['e.g. U.S.A., ok...', 'e . g . U . S . A . , ok . . .'],
    ['emoji \u{1F600}. end,\u{1F600}', 'emoji \u{1F600} . end , \u{1F600}'],
    ['tab\tsep\r\nwin  ', 'tab sep win'],
    // rstrip runs before the "-\n" join, so a trailing "-\n" keeps its dash.
    ['trailing -\n', 'trailing -'],
    ['ends with dash-\n\n', 'ends with dash-'],
    [
      '(a)[b]{c}\'d\' "e" $f% #g @h ^i ~j |k \\l /m',
      '( a ) [ b ] { c } \'d\' " e " $ f % # g @ h ^ i ~ j | k \\ l / m',
    ],
    ['10.5.3 v1.2-beta 1-2-3', '10.5.3 v1.2 - beta 1 - 2 - 3'],
  ];
  for (const [input, expected] of cases) {
    it(`tokenizes ${JSON.stringify(input)}`, () => {
      expect(tokenize13a(input)).toBe(expected);
    });
  }
});

describe('sentenceBleu details', () => {
  it('takes the closest reference length, ties to the shorter, and the max n-gram count over references', () => {
    // sacrebleu: sentence_bleu("a b c d e", ["a b c d", "a b c d e f", "x"]) -> 100.00000000000004, ref_len 4
    const r = sentenceBleu('a b c d e', ['a b c d', 'a b c d e f', 'x']);
    expect(r.refLen).toBe(4);
    expect(r.counts).toEqual([5, 4, 3, 2]);
    expect(r.score).toBeCloseTo(100, 12);
  });

  it('scores an empty hypothesis 0 with bp 0, and an empty reference 0 with bp 1', () => {
    expect(sentenceBleu('', ['Paris'])).toMatchObject({ score: 0, bp: 0, sysLen: 0, refLen: 1 });
    expect(sentenceBleu('Paris', [''])).toMatchObject({ score: 0, bp: 1, totals: [1, 0, 0, 0] });
  });

  it('refuses an empty reference list, as sacrebleu does', () => {
    expect(() => sentenceBleu('Paris', [])).toThrow(RangeError);
  });
});

describe('the two modes differ on replies of one to three tokens', () => {
  // Hand-derived from sacrebleu's compute_bleu (exp smoothing); sacrebleu 2.6.0 prints the same.
  it('"Paris." vs itself: 100 with effective order, 0 in sago-reference mode', () => {
    // Tokens "Paris ." (2). counts [2,1,0,0], totals [2,1,0,0]; bp 1.
    // sentence: orders 1-2 have totals, p1 = p2 = 100, order 3 has total 0 -> break, eff_order 2:
    //   exp((ln 100 + ln 100) / 2) = 100.
    // corpus: eff_order stays 4; p3 = p4 = 0 -> my_log(0) = -9999999999 -> exp(-5e9) = 0.
    const s = sentenceBleu('Paris.', ['Paris.']);
    const c = corpusBleuPerPair('Paris.', 'Paris.');
    expect(s.score).toBeCloseTo(100, 12);
    expect(c.score).toBe(0);
    expect(c.counts).toEqual([2, 1, 0, 0]);
    expect(c.totals).toEqual([2, 1, 0, 0]);
    expect(c.precisions).toEqual([100, 100, 0, 0]);
  });

  it('a one-token reply "Paris": 100 vs 0', () => {
    // counts [1,0,0,0], totals [1,0,0,0]. sentence: p1 = 100, order 2 total 0 -> break, eff 1 -> 100.
    // corpus: p2..p4 = 0 -> 0.
    expect(bleuPair('Paris', 'Paris', 'sentence').score).toBeCloseTo(100, 12);
    expect(bleuPair('Paris', 'Paris', 'sago-reference').score).toBe(0);
  });

  it('three tokens, "Paris is big" vs "Paris is large": 55.032... vs 0', () => {
    // counts [2,1,0,0], totals [3,2,1,0], bp 1.
    // p1 = 200/3, p2 = 50, order 3 has no match: smooth 2 -> p3 = 100 / (2 * 1) = 50; order 4 total 0
    // -> break, eff 3. score = (200/3 * 50 * 50)^(1/3) = 166666.67^(1/3) = 55.0321208149...
    const expected = Math.cbrt((200 / 3) * 50 * 50);
    const s = sentenceBleu('Paris is big', ['Paris is large']);
    expect(s.precisions).toEqual([200 / 3, 50, 50, 0]);
    expect(s.score).toBeCloseTo(expected, 10);
    expect(s.score).toBeCloseTo(55.03212081491043, 10); // sacrebleu 2.6.0
    expect(corpusBleuPerPair('Paris is big', 'Paris is large').score).toBe(0);
  });

  it('agree from four tokens on', () => {
    // "It is Paris ." has a 4-gram, so no order breaks and effective order changes nothing.
    for (const text of ['It is Paris.', 'The capital is Paris.']) {
      expect(corpusBleuPerPair(text, text).score).toBeCloseTo(100, 12);
      expect(sentenceBleu(text, [text]).score).toBe(corpusBleuPerPair(text, text).score);
    }
    const h = 'The capital of France is Paris, of course.';
    const r = 'Paris is the capital of France.';
    expect(corpusBleuPerPair(h, r).score).toBe(sentenceBleu(h, [r]).score);
  });
});
