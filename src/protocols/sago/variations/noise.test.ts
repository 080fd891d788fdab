import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../util/random.js';
import {
  CASING_STRENGTHS,
  casingNoise,
  noiseVariation,
  noiseVariations,
  PUNCTUATION_POOL,
  PUNCTUATION_STRENGTHS,
  punctuationNoise,
  SPACING_STRENGTHS,
  spacingNoise,
} from './noise.js';

const PROMPT = "Who is the richest person in the world who didn't finish high school?";

describe('seeded noise reproduces fixed outputs (seed 7, item key = the prompt)', () => {
  const golden: [string, number, string, string][] = [
    ['spacing', 1, 'suffix', "Who is the richest person in the world who didn't  finish high school?"],
    ['spacing', 5, 'global', "Who   is  the richest person in the world who didn't  finish high  school?"],
    ['punctuation', 3, 'prefix', "Who is the [richest person in ]the- world who didn't finish high school?"],
    [
      'punctuation',
      5,
      'global',
      "Who is the richest person] in [the ]world who didn't finish high :school?[",
    ],
    ['casing', 10, 'suffix', "Who is the richest person in the world who didn't finiSh HIgh school?"],
    ['casing', 25, 'global', "Who iS tHe ricHEst perSon In the wOrLd whO didn't fiNish hIgh SChOol?"],
    ['casing', 100, 'prefix', "WHO IS THE RICHEST PERSON IN THE world who didn't finish high school?"],
  ];
  for (const [subtype, strength, position, text] of golden) {
    it(`${subtype} ${strength} ${position}`, () => {
      const v = noiseVariation(PROMPT, subtype as 'spacing', strength, position as 'global', { seed: 7 });
      expect(v.text).toBe(text);
      expect(v).toMatchObject({ family: 'noise', subtype, strength, position, generator: 'rules' });
      expect(v.meaningCheck).toEqual({ method: 'by-construction' });
    });
  }

  it('the same seed gives the same set; another seed or item key gives another', () => {
    const a = noiseVariations(PROMPT, { seed: 7 }).map((v) => v.text);
    expect(noiseVariations(PROMPT, { seed: 7 }).map((v) => v.text)).toEqual(a);
    expect(noiseVariations(PROMPT, { seed: 8 }).map((v) => v.text)).not.toEqual(a);
    expect(noiseVariations(PROMPT, { seed: 7, itemKey: 'item-1' }).map((v) => v.text)).not.toEqual(a);
    expect(a).toHaveLength(3 * 5 * 3);
  });
});

describe('what strength means', () => {
  const words = (t: string) => t.split(/\s+/).filter(Boolean);

  it('spacing s adds exactly s spaces and keeps the words', () => {
    for (const s of SPACING_STRENGTHS) {
      for (const pos of ['prefix', 'suffix', 'global'] as const) {
        const out = spacingNoise(PROMPT, s, pos, new PyRandom(s));
        expect(out.length - PROMPT.length).toBe(s);
        expect(words(out)).toEqual(words(PROMPT));
      }
    }
  });

  it('spacing at prefix touches only the first half of the gaps, suffix only the second', () => {
    const pre = spacingNoise(PROMPT, 100, 'prefix', new PyRandom(1));
    const suf = spacingNoise(PROMPT, 100, 'suffix', new PyRandom(1));
    // 13 words, 12 gaps: prefix draws the gaps from "Who is" to "in the", suffix from "the world" on.
    expect(pre.endsWith("the world who didn't finish high school?")).toBe(true);
    expect(suf.startsWith('Who is the richest person in the ')).toBe(true);
  });

  it('punctuation s inserts exactly s marks from the pool, at word edges only', () => {
    for (const s of PUNCTUATION_STRENGTHS) {
      const out = punctuationNoise(PROMPT, s, 'global', new PyRandom(s));
      expect(Array.from(out).length - Array.from(PROMPT).length).toBe(s);
      // Removing the added marks from each word's edges gives back the words.
      const ws = words(out);
      expect(ws).toHaveLength(13);
      const original = words(PROMPT);
      let added = 0;
      ws.forEach((w, i) => {
        const o = original[i] as string;
        const at = w.indexOf(o);
        expect(at).toBeGreaterThanOrEqual(0);
        const extra = w.slice(0, at) + w.slice(at + o.length);
        for (const c of extra) expect(PUNCTUATION_POOL as readonly string[]).toContain(c);
        added += extra.length;
      });
      expect(added).toBe(s);
    }
  });

  it('casing s upper-cases s% of the cased letters (half up), in the chosen half only', () => {
    // The prompt has 55 cased letters; "W" is already upper case.
    for (const s of CASING_STRENGTHS) {
      const out = casingNoise(PROMPT, s, 'global', new PyRandom(s));
      expect(out.toLowerCase()).toBe(PROMPT.toLowerCase());
      const chosen = Math.floor((s * 55) / 100 + 0.5);
      const upper = Array.from(out).filter((c) => c !== c.toLowerCase()).length;
      // Drawn letters that were already upper case ("W") do not add one.
      expect(upper).toBeGreaterThanOrEqual(chosen);
      expect(upper).toBeLessThanOrEqual(chosen + 1);
    }
    expect(casingNoise(PROMPT, 100, 'global', new PyRandom(0))).toBe(PROMPT.toUpperCase());
    expect(casingNoise(PROMPT, 100, 'suffix', new PyRandom(0))).toBe(
      "Who is the richest person in THE WORLD WHO DIDN'T FINISH HIGH SCHOOL?",
    );
  });

  it('handles a one-word prompt and an empty one', () => {
    expect(spacingNoise('Hello', 2, 'global', new PyRandom(3)).trim()).toBe('Hello');
    expect(spacingNoise('Hello', 2, 'suffix', new PyRandom(3))).toBe('Hello  ');
    expect(casingNoise('', 50, 'global', new PyRandom(3))).toBe('');
  });

  it('refuses a strength outside the subtype range', () => {
    expect(() => noiseVariation(PROMPT, 'spacing', 2, 'global', { seed: 1 })).toThrow(
      /spacing strength must be one of 1, 5, 20, 50, 100/,
    );
  });
});

// The same algorithm in Python with random.Random: the draws are CPython's, so a Python port
// reproduces every variant (docs/sago-measures.md#noise prints this port).
const PYTHON_PORT = `
import random, hashlib, json, math, sys
POOL = ['.', ',', '!', "'", '(', ')', '[', ']', ';', ':', '-']
def derive(*parts):
    return int.from_bytes(hashlib.sha256(json.dumps(list(parts), separators=(",", ":"), ensure_ascii=False).encode()).digest()[:4], "big")
def segment(text):
    words, gaps = [], [[]]
    for ch in text:
        if ch.isspace():
            if len(words) == len(gaps): gaps.append([])
            gaps[-1].append(ch)
        else:
            if len(words) < len(gaps): words.append([])
            words[-1].append(ch)
    if len(gaps) == len(words): gaps.append([])
    return words, gaps
def word_range(n, pos):
    half = math.ceil(n / 2); a = list(range(n))
    return a[:half] if pos == 'prefix' else a[n - half:] if pos == 'suffix' else a
def gap_sites(n, pos):
    inner = list(range(1, n))
    if not inner: return [0] if pos == 'prefix' else [n] if pos == 'suffix' else [0, n]
    half = math.ceil(len(inner) / 2)
    return inner[:half] if pos == 'prefix' else inner[len(inner) - half:] if pos == 'suffix' else inner
def noise(text, sub, s, pos, seed, key):
    rng = random.Random(derive(seed, key, 'noise', sub, s, pos))
    words, gaps = segment(text)
    if sub == 'spacing':
        sites = gap_sites(len(words), pos)
        for _ in range(s): gaps[rng.choice(sites)].append(' ')
    elif sub == 'punctuation':
        sites = word_range(len(words), pos); before = [[] for _ in words]; after = [[] for _ in words]
        for _ in range(s):
            w = rng.choice(sites); side = before if rng.random() < 0.5 else after; side[w].append(rng.choice(POOL))
        words = [before[i] + w + after[i] for i, w in enumerate(words)]
    else:
        letters = [(w, i) for w in word_range(len(words), pos) for i, ch in enumerate(words[w]) if ch.upper() != ch.lower()]
        for w, i in rng.sample(letters, math.floor(s * len(letters) / 100 + 0.5)): words[w][i] = words[w][i].upper()
    return ''.join(''.join(gaps[i]) + ''.join(words[i]) for i in range(len(words))) + ''.join(gaps[len(words)])
req = json.load(sys.stdin)
out = []
for sub, ss in [('spacing', [1, 5, 20, 50, 100]), ('punctuation', [1, 3, 5, 10, 20]), ('casing', [10, 25, 50, 75, 100])]:
    for s in ss:
        for pos in ['prefix', 'suffix', 'global']:
            out.append(noise(req['prompt'], sub, s, pos, req['seed'], req['key']))
print(json.dumps(out))
`;

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const noPython = python.status !== 0 ? ' (skipped: python3 is not available)' : '';

describe.skipIf(noPython !== '')(
  `a Python port with random.Random draws the same variants${noPython}`,
  () => {
    const prompts = [
      PROMPT,
      'when was the last time anyone was on the moon',
      'Give three tips for staying healthy.\nKeep each under twenty words.',
      'Ça coûte combien, à Zürich ?',
      'Hello',
    ];
    for (const [i, prompt] of prompts.entries()) {
      it(`prompt ${i}`, () => {
        const req = JSON.stringify({ prompt, seed: 1234 + i, key: `item-${i}` });
        const run = spawnSync('python3', ['-c', PYTHON_PORT], { input: req, encoding: 'utf8' });
        expect(run.stderr).toBe('');
        const py = JSON.parse(run.stdout) as string[];
        expect(noiseVariations(prompt, { seed: 1234 + i, itemKey: `item-${i}` }).map((v) => v.text)).toEqual(
          py,
        );
      });
    }
  },
);
