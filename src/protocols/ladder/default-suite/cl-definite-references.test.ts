/**
 * CL lines after the full read s7 (cl11, E98): blind read v12 rejected CL L5 floor-tiles for
 * "the sink", a bridging reference to a kitchen the text never mentions, and flagged CL L1
 * paint-cans' "Light blue suits the room." (a room never introduced). A filler sentence may say
 * "the X" only for an X the text has already named (its problem, or a sentence before it).
 */
import { describe, expect, it } from 'vitest';
import { ORIGINAL_QUESTIONS, writtenTests } from './test-support/lines.js';

const cl = writtenTests('cl.jsonl');

/**
 * Places and fixtures a scene is set in: "the" before one assumes a setting (a kitchen, a yard, a
 * school) the text has not given. Parts a named thing plainly has ("the batter" of muffins, "the
 * stage" of a concert) read naturally and are not scanned.
 */
const SETTING = new Set([
  'room',
  'bedroom',
  'kitchen',
  'sink',
  'yard',
  'barn',
  'lawn',
  'table',
  'bed',
  'gym',
  'playground',
  'woods',
  'coast',
  'park',
  'sidewalk',
  'shop',
  'house',
  'floor',
  'trail',
  'carrot',
  'classroom',
  'backyard',
  'tree',
  'green',
  'garage',
  'porch',
  'hallway',
  'office',
  'street',
  'club',
]);

const stem = (w: string) => w.toLowerCase().replace(/(?:es|s)$/, '');

/** The words a text has named so far, stemmed ("trays" and "tray" alike). */
const named = (text: string) => new Set((text.match(/[a-z'-]+/gi) ?? []).map(stem));

/** A filler's "the <adj>? <setting>" references whose words the text before it never names. */
function unintroduced(filler: string, before: string): string[] {
  const known = named(before);
  return [...filler.matchAll(/\bthe\s+(?:([a-z-]+)\s+)?([a-z-]+)\b(?!\s+of\b)/gi)].flatMap((m) => {
    const words = [m[1], m[2]].filter((w): w is string => w !== undefined);
    const head = stem(m[2] ?? '');
    if (!SETTING.has(head) || words.some((w) => known.has(stem(w)))) return [];
    return [`the ${words.join(' ')}`];
  });
}

function definiteOffenders(): string[] {
  return cl.flatMap((l) => {
    const original = ORIGINAL_QUESTIONS.get(l.seed) ?? '';
    const sentences = l.text.split(/(?<!\bM[rs]s?\.)(?<=[a-z0-9][.!?])\s+/);
    return sentences.flatMap((s, k) => {
      if (original.includes(s)) return [];
      const before = `${original} ${sentences.slice(0, k).join(' ')}`;
      return unintroduced(s, before).map((r) => `${l.seed} L${l.level}: ${r} — ${s}`);
    });
  });
}

describe('CL filler (cl11): a definite reference names only what the text has introduced', () => {
  it('says "the X" only of an X named earlier ("the sink" with no kitchen, "the room" with only walls)', () => {
    expect(definiteOffenders()).toEqual([]);
  });
});
