/**
 * CL lines of the default suite after the full line-by-line read s7 (issue 36, E87): the
 * kinds of padding a strict reviewer rejects that a pattern can catch, each scanned over every CL
 * line so a fresh draw cannot meet it. Blind read v11 rejected "A toy company near Detroit is
 * famous for cars and trucks." before "A factory machine ...": a second entity never tied to the
 * problem's own. The same read of every line found the kinds below.
 */
import { describe, expect, it } from 'vitest';
import { ORIGINAL_QUESTIONS, type WrittenTest, writtenTests } from './test-support/lines.js';

const cl = writtenTests('cl.jsonl');

/** The test's sentences ("Ms. Ortiz" kept whole), each marked whether it is one the test adds. */
function sentences(l: WrittenTest): { text: string; added: boolean }[] {
  const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
  return l.text
    .split(/(?<!\bM[rs]s?\.)(?<=[a-z0-9][.!?])\s+/)
    .map((text) => ({ text, added: !original.includes(text) }));
}

const addedOf = (l: WrittenTest) =>
  sentences(l)
    .filter((s) => s.added)
    .map((s) => s.text);

function hits(test: (s: string, l: WrittenTest) => boolean): string[] {
  return cl.flatMap((l) =>
    addedOf(l)
      .filter((s) => test(s, l))
      .map((s) => `${l.seed} L${l.level}: ${s}`),
  );
}

/** Words that end a noun phrase: what follows its head (a verb, a preposition, a relative word; a past tense too). */
const AFTER_HEAD =
  /^(?:is|are|was|has|have|had|and|or|but|that|which|who|with|for|from|of|in|on|at|to|by|near|into|can|will|costs?|holds|buys|sells|makes|bakes|travels|picks|collects|charges|needs|weighs|gives|shares?|takes?|orders|uses|eats?|reads|runs|works|walks|plays)$/i;

/** The head nouns of a text's "a/an" noun phrases ("a red mountain bike in" -> bike, "A phone plan costs" -> plan). */
function indefiniteHeads(text: string): string[] {
  return [...text.matchAll(/\b(?:a|an)\s+((?:[a-z'-]+(?:\s+|(?=[.,;?!]|$))){1,3})/gi)].flatMap((m) => {
    const words = (m[1] ?? '').trim().split(/\s+/);
    const stop = words.findIndex((w, k) => k > 0 && (AFTER_HEAD.test(w) || /ed$/.test(w)));
    const head = (stop === -1 ? words : words.slice(0, stop)).at(-1);
    return head === undefined ? [] : [head.toLowerCase().replace(/s$/, '')];
  });
}

describe('CL filler (full read s7): one referent for each thing of the problem', () => {
  it('never introduces with "a/an" a second thing of a kind the problem introduces ("A postal museum ..." beside "to a museum")', () => {
    // "Jun saw a red mountain bike ... Jun wants a bike that costs $240" reads as two bikes.
    const twice = hits((s, l) => {
      const own = new Set(indefiniteHeads(ORIGINAL_QUESTIONS.get(l.seed) ?? ''));
      return indefiniteHeads(s).some((head) => own.has(head));
    });
    expect(twice).toEqual([]);
  });

  it('never opens a filler with the two words that open the sentence after it ("Jun wants ... Jun wants")', () => {
    const opening = (s: string) => s.split(/\s+/).slice(0, 2).join(' ').toLowerCase();
    const echoed = cl.flatMap((l) => {
      const ss = sentences(l);
      return ss
        .filter(
          (s, k) => s.added && ss[k + 1] !== undefined && opening(s.text) === opening(ss[k + 1]?.text ?? ''),
        )
        .map((s) => `${l.seed} L${l.level}: ${s.text}`);
    });
    expect(echoed).toEqual([]);
  });

  it('names a relative with "a" nowhere ("a recipe learned from a grandmother": whose?)', () => {
    expect(
      hits((s) => /\ba (?:great-)?(?:grandmother|grandfather|mother|father|aunt|uncle)\b/i.test(s)),
    ).toEqual([]);
  });
});

describe('CL filler (full read s7): said once, with content', () => {
  it('uses no word of 4 letters or more twice in one sentence ("The party is a birthday party", "school ... school")', () => {
    const repeated = hits((s) => {
      const words = (s.toLowerCase().match(/[a-z]{4,}/g) ?? []).map((w) => w.replace(/s$/, ''));
      return new Set(words).size < words.length;
    });
    expect(repeated).toEqual([]);
  });

  it('adds no content-free generality ("Spelling is tricky.", "a detective who solves a case")', () => {
    const EMPTY =
      /^\w+ is (?:tricky|fun|hard|easy|important)\.$|\bis a family tradition\b|\blive together peacefully\b|\bwho solves a case\b|\bare popular toys\b/i;
    expect(hits((s) => EMPTY.test(s))).toEqual([]);
  });
});

describe('CL filler (full read s7): nothing a reader could fold into the answer', () => {
  // Per seed, what would move the asked quantity: repairs that fix the flat tires, swaps that move
  // cards, another pizza order after the slices are eaten, books out on loan, a one-oven constraint.
  const TOUCHES: Record<string, RegExp> = {
    'builtin-bike-shop-wheels': /\b(?:repairs?|fix(?:es)?|pumps?|patch(?:es)?)\b/i,
    'builtin-card-packs': /\b(?:swaps?|trades?)\b/i,
    'builtin-pizza-slices': /\borders?\b/i,
    'builtin-library-shelves': /\b(?:borrowed|lends?|loans?)\b/i,
    'builtin-bread-batches': /\b(?:single|only)\b/i,
  };
  it('says nothing that would move the asked quantity on the seeds where a filler could', () => {
    expect(hits((s, l) => TOUCHES[l.seed]?.test(s) ?? false)).toEqual([]);
  });
});
