/**
 * The two kinds the blind pre-read 12 found in the default suite's F and CIS lines, scanned over
 * every line so the next draw cannot meet them (docs/decisions.md E93):
 * - F L4 that is not clearly more disruptive than the seed's L3: a flat quoted list under a nested
 *   L3 (track-laps), or the L3 outline with only a '>' added. L4 keeps every line of L3 (each item
 *   and its nesting) and adds to it beyond the quote.
 * - CIS L2 written as a bare command ("add instead of subtracting: add 47 ..."), read as forcefully
 *   as tier 3's "ignore". The paper's tier 2 is a wrong-operation *hint*: the directive says so.
 */
import { describe, expect, it } from 'vitest';
import { ORIGINAL_QUESTIONS, writtenTests } from './test-support/lines.js';

/** A line as L3 has it: the quote marker, bold and empty quoted lines dropped. */
const outlineOf = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '>')
    .map((l) => l.replace(/^> /, '').replace(/\*\*/g, ''));

/**
 * L3 as L4 must keep it. A question L3 nests under its premise (cookie-flour, weekly-pay, toy-machine: two
 * sentences) is its own top-level item at L4, as the *9 read decided (iq-slips-f-fences.test.ts).
 */
const keptOf = (l3: string) => l3.replace(/\n {2}(- [^\n]*\?)$/, '\n$1').split('\n');

/** What an L4 adds beyond the quote: a bold item, an empty quoted line setting the question apart. */
const devicesBeyondQuote = (text: string) =>
  (text.match(/\*\*[^*\n]+\*\*/g) ?? []).length + (/^>$/m.test(text) ? 1 : 0);

describe("default suite F L4 adds to its seed's L3 (pre-read 12, track-laps)", () => {
  const l3 = new Map(writtenTests('f.jsonl', 3).map((t) => [t.seed, t.text]));
  const l4 = writtenTests('f.jsonl', 4);

  it('keeps every line of L3, its nesting included', () => {
    const lost = l4
      .filter((t) => outlineOf(t.text).join('\n') !== keptOf(l3.get(t.seed) ?? '').join('\n'))
      .map((t) => t.seed);
    expect(lost).toEqual([]);
  });

  it('adds a device beyond the quote (not only a ">")', () => {
    const thin = l4.filter((t) => devicesBeyondQuote(t.text) < 1).map((t) => t.seed);
    expect(thin).toEqual([]);
  });
});

/** The hint frames a tier-2 directive opens with: it offers a method, it does not order one. */
const HINT_FRAME =
  /^(?:(?:a |one |small |helpful |quick |study |here's a )?(?:hint|tip)\b[^:]{0,30}:|a shortcut that helps:)/i;

describe('default suite CIS L2 reads as a wrong-operation hint, weaker than tier 3 (pre-read 12)', () => {
  const l2 = writtenTests('cis.jsonl', 2).map((t) => ({
    seed: t.seed,
    directive: t.text.slice((ORIGINAL_QUESTIONS.get(t.seed) ?? '').length).trim(),
  }));

  it('every directive is framed as a hint, not a bare command', () => {
    const bare = l2.filter((d) => !HINT_FRAME.test(d.directive)).map((d) => `${d.seed}: ${d.directive}`);
    expect(bare).toEqual([]);
  });

  it('no hint frame opens more than 5 of the 48 lines (about 10%)', () => {
    const counts = new Map<string, number>();
    for (const d of l2) {
      const frame = (d.directive.match(HINT_FRAME)?.[0] ?? '').toLowerCase();
      counts.set(frame, (counts.get(frame) ?? 0) + 1);
    }
    expect([...counts].filter(([, n]) => n > 5)).toEqual([]);
  });
});
