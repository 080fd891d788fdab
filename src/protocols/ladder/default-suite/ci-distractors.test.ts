/**
 * CI lines of the default suite against the full read s7 (issue 36; E85, E86, E92):
 * the kinds of defect the blind reads v5-v11 named that a pattern can find, scanned over all 240
 * lines so that another draw cannot meet them. The two halves were first read and scanned apart
 * (lines 1-120, 121-240); this file is their scans as one standard over the whole suite: a place
 * introduced with its anchor ("A grocery store in town" is a slot fill), no two distractors in a
 * row in one frame, a distractor kept up a seed's ladder in one wording, no compound of the
 * original named before the original's "a", and no "the <kind> shop" that nothing introduced.
 */
import { describe, expect, it } from 'vitest';
import { ORIGINAL_QUESTIONS, type WrittenTest, writtenTests } from './test-support/lines.js';

const CI = writtenTests('ci.jsonl');

const at = (l: WrittenTest) => `${l.seed} L${l.level}`;

const sentences = (text: string) => text.split(/(?<=[a-z0-9][.!?])\s+/);

/** The sentences a line adds to its original (the distractors), in the order they stand. */
function added(l: WrittenTest): string[] {
  const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
  return sentences(l.text).filter((s) => !original.includes(s));
}

/** What a line adds before the original's first sentence. */
/** Each pair of distinct sentences a seed's levels add, as [seed, one, other]: a reader compares them. */
function addedPairs(): [string, string, string][] {
  const bySeed = new Map<string, Set<string>>();
  for (const l of CI) for (const s of added(l)) bySeed.set(l.seed, (bySeed.get(l.seed) ?? new Set()).add(s));
  return [...bySeed].flatMap(([seed, set]) => {
    const all = [...set];
    return all.flatMap((a, i) => all.slice(i + 1).map((b): [string, string, string] => [seed, a, b]));
  });
}

function before(l: WrittenTest): string {
  const first = sentences(ORIGINAL_QUESTIONS.get(l.seed) ?? '')[0] ?? '';
  return l.text.slice(0, Math.max(0, l.text.indexOf(first)));
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\w$']+/g) ?? []);

/** Jaccard overlap of two sentences' words: 1 is the same words, 0 none shared. */
function overlap(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  const shared = [...x].filter((w) => y.has(w)).length;
  return shared / (x.size + y.size - shared);
}

describe('CI (full read s7): distractors as one scene, not slot fills', () => {
  it('anchors every place it introduces ("A grocery store in town", "A grocery store nearby")', () => {
    const SLOT = /\b(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:in town|nearby)\b/i;
    const hits = CI.flatMap((l) =>
      added(l)
        .filter((s) => SLOT.test(s))
        .map((s) => `${at(l)}: ${s}`),
    );
    expect(hits).toEqual([]);
  });

  it('puts no two distractors in a row in one frame ("A food truck at the park sells", "A poster stall at the park sells")', () => {
    const PLACE = /\b(?:at|in|near|on) the \w+\b/;
    const hits = CI.flatMap((l) => {
      const a = added(l);
      return a.slice(1).flatMap((s, i) => {
        const prev = a[i] ?? '';
        const same = PLACE.exec(s)?.[0];
        const frame =
          same !== undefined && same === PLACE.exec(prev)?.[0] && s.split(' ')[0] === prev.split(' ')[0];
        return frame ? [`${at(l)}: ${prev} / ${s}`] : [];
      });
    });
    expect(hits).toEqual([]);
  });

  it("keeps a distractor's wording up its seed's ladder (no 'card binder has 50 pages' beside 'card album has 40 pages')", () => {
    const hits = addedPairs().flatMap(([seed, a, b]) =>
      overlap(a, b) >= 0.5 ? [`${seed}: ${a} | ${b}`] : [],
    );
    expect(hits).toEqual([]);
  });
  it('states one fact with one number up the ladder ("A toy car sells for $12" under "... sells for $4")', () => {
    // The same thing priced or counted twice in a seed's lines: the same opening with another number
    // of the same unit, or the same price on a shared noun ("sells helmets for $30" beside "A new bike
    // helmet ... costs $30"): a reader comparing levels sees one distractor reworded (blind read v8).
    const quantities = (s: string) =>
      [...s.matchAll(/(\$)?(\d[\d.,]*)\s*([a-z]+)?/g)].map((m) => ({
        n: m[2] ?? '',
        unit: m[1] ?? m[3] ?? '',
      }));
    const COMMON = new Set([
      'that',
      'with',
      'from',
      'there',
      'cost',
      'sell',
      'store',
      'shop',
      'same',
      'also',
      'about',
    ]);
    const nouns = (s: string) =>
      new Set(
        (s.toLowerCase().match(/[a-z]{4,}/g) ?? [])
          .map((w) => w.replace(/s$/, ''))
          .filter((w) => !COMMON.has(w)),
      );
    const opening = (s: string) => s.toLowerCase().split(/\s+/).slice(0, 3).join(' ');
    const hits = addedPairs().flatMap(([seed, a, b]) => {
      const qa = quantities(a);
      const qb = quantities(b);
      const renumbered =
        opening(a) === opening(b) && qa.some((x) => qb.some((y) => y.unit === x.unit && y.n !== x.n));
      const sharedNoun = [...nouns(a)].some((w) => nouns(b).has(w));
      const samePrice = qa.some((x) => x.unit === '$' && qb.some((y) => y.unit === '$' && y.n === x.n));
      return renumbered || (samePrice && sharedNoun) ? [`${seed}: ${a} | ${b}`] : [];
    });
    expect(hits).toEqual([]);
  });
  it('carries no frame in more than 6 of a level\'s 48 lines ("opens at N", "at the same ... costs")', () => {
    // A word trigram of the distractors, numbers as N, counted once per line. Trigrams made only of
    // numbers, units and function words ("for N years", "costs N a") are how a quantity is said, not
    // a sentence's frame; 6 of 48 is the ~10% a template shows at (as E88 holds KB).
    const UNIT = new Set(
      "n at a an the for o'clock days day week years year old is are costs cost each hour per in on of to".split(
        ' ',
      ),
    );
    const hits = [1, 2, 3, 4, 5].flatMap((level) => {
      const lines = CI.filter((l) => l.level === level);
      const count = new Map<string, number>();
      for (const l of lines) {
        const frames = new Set<string>();
        for (const s of added(l)) {
          const w =
            s
              .toLowerCase()
              .replace(/\$?\d[\d.,]*/g, 'n')
              .match(/[\w$']+/g) ?? [];
          for (let i = 0; i + 2 < w.length; i++) {
            const t = w.slice(i, i + 3);
            if (!t.every((x) => UNIT.has(x))) frames.add(t.join(' '));
          }
        }
        for (const f of frames) count.set(f, (count.get(f) ?? 0) + 1);
      }
      return [...count]
        .filter(([, n]) => n > 6)
        .map(([f, n]) => `L${level}: "${f}" in ${n} of ${lines.length}`);
    });
    expect(hits).toEqual([]);
  });
});

describe('CI (full read s7): distractors that read as written with the problem, not pasted in', () => {
  it('names before the problem no compound the original introduces with "a" ("Each spelling test" ... "take a spelling test")', () => {
    const hits = CI.flatMap((l) => {
      const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
      const compounds = [...original.matchAll(/\b(?:a|an) ([a-z]+ [a-z]+)\b/gi)].map((m) => m[1] ?? '');
      const lead = before(l).toLowerCase();
      return compounds.filter((c) => lead.includes(c.toLowerCase())).map((c) => `${at(l)}: ${c}`);
    });
    expect(hits).toEqual([]);
  });

  it('says "the <kind> shop/store" only once that shop or store is introduced or anchored', () => {
    // Case-blind, so a sentence-opening "The corner store" is read too. Not a defect, and so not a hit
    // (the reviewer's own bar: a place with an anchor reads as the scene's): "the same shop"; a shop
    // anchored where it is named ("the shop next door", "The hardware store on Oak Street"); one
    // introduced earlier with a/an, a possessive ("Sam's favorite store") or a proper name ("the
    // Main Street shop"); and "the school store", the class's own school's, as "the school library".
    const THE_SHOP = /\bthe ((?:[a-z]+ )?(?:shop|store))\b/gi;
    const ANCHOR_AFTER = /^\s+(?:next door|on [A-Z]|near |by |where )/;
    const hits = CI.flatMap((l) =>
      [...l.text.matchAll(THE_SHOP)]
        .filter((m) => !/^(?:same|school) /i.test(m[1] ?? ''))
        .filter((m) => !ANCHOR_AFTER.test(l.text.slice((m.index ?? 0) + m[0].length)))
        .filter((m) => {
          const earlier = l.text.slice(0, m.index);
          const head = (m[1] ?? '').split(' ').at(-1) ?? '';
          const introduced = new RegExp(
            `\\b(?:[Aa]n?|[A-Z][a-z]+'s) (?:[a-z]+ ){0,2}${head}\\b|\\b[Tt]he (?:[a-z]+ )?${head} (?:next door|on [A-Z]|near |by |where )|\\bthe (?:[A-Z][a-z]+ )+${head}\\b`,
          );
          return !introduced.test(earlier);
        })
        .map((m) => `${at(l)}: ${m[0]}`),
    );
    expect(hits).toEqual([]);
  });

  it('keeps a distractor in its lower-level wording up the ladder (no "at 7 o\'clock" at L1 and "at 6" above it)', () => {
    const opening = (s: string) => s.split(/\s+/).slice(0, 4).join(' ').toLowerCase();
    const hits = CI.flatMap((l) => {
      const lower = CI.filter((o) => o.seed === l.seed && o.level < l.level).flatMap(added);
      return added(l)
        .filter((s) => lower.some((o) => opening(o) === opening(s) && o !== s))
        .map((s) => `${at(l)}: ${s}`);
    });
    expect([...new Set(hits)]).toEqual([]);
  });
});
