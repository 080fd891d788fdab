/**
 * Semantic Variation's word-level rewrites: the hand-checked lexicon's words and phrases,
 * contractions, possession reworded by who has it, number words as digits, "%" as "percent", two
 * named people the other way round. Each is a `WordOp`; `applyWordOps` applies a set of them in one
 * pass and never inside quotes. `plan.ts` orders them.
 */

import { SMALL_NUMBER_WORDS } from '../../../../util/number-words.js';
import { bounded, CONTRACTIONS, LEXICON } from '../../text/lexicon.js';
import { analyse, matchCase } from '../../text/morphology.js';
import { LEX_FILE, synsets } from '../../text/wordnet.js';
import type { Level } from '../../types.js';

/** A word-level rewrite: every match of `pattern` (case-insensitive, word-bounded) becomes `replacement`. */
export interface WordOp {
  kind: 'word';
  label: string;
  pattern: string;
  replacement: string;
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const NOT_COUNTED = 'quarters|thirds|fourths|fifths|sixths|eighths|tenths|halves|times';

/**
 * "three cards" -> "3 cards": a number word before a plural noun (or "dozen") written as a digit.
 * The structural gate still passes (every number of the original is there, one more is written),
 * and the answer is unchanged (number words <-> digits where the structural gate allows;
 * digits -> words would drop a number the gate counts).
 */
function numberWordOps(original: string): WordOp[] {
  const ops: WordOp[] = [];
  // From "two": never "one" ("one of them"), nor "zero".
  SMALL_NUMBER_WORDS.forEach((word, value) => {
    if (value < 2) return;
    const pattern = `${word}(?= (?!(?:${NOT_COUNTED})\\b)(?:[a-z]+s|dozen|people|children|men|women|geese|mice|feet|teeth)\\b)`;
    if (new RegExp(`\\b${pattern}`, 'i').test(original))
      ops.push({ kind: 'word', label: `digits:${word}`, pattern, replacement: String(value) });
  });
  return ops;
}

export function wordOps(original: string, level: Level, names: ReadonlySet<string>): WordOp[] {
  const ops: WordOp[] = [];
  for (const rewrite of LEXICON) {
    // L1's phrase rewrites come after its single words (phraseOps, ordered by plan).
    if (rewrite.phrase && level < 2) continue;
    const re = new RegExp(bounded(rewrite.pattern), 'i');
    const m = re.exec(original);
    if (!m) continue;
    ops.push({
      kind: 'word',
      label: `lexicon:${m[0].toLowerCase()}`,
      pattern: rewrite.pattern,
      replacement: rewrite.replacement,
    });
  }
  for (const [long, short] of CONTRACTIONS) {
    if (new RegExp(`\\b${escapeRegex(long)}\\b`, 'i').test(original)) {
      // "each hour after that is twice the cost": a demonstrative "that" is not contracted.
      const after = long === 'that is' ? '(?<!\\b(?:after|before|than|of|for|with|from|like|and|but) )' : '';
      ops.push({
        kind: 'word',
        label: `contract:${long}`,
        pattern: `${after}${escapeRegex(long)}`,
        replacement: short,
      });
    } else if (new RegExp(`\\b${escapeRegex(short)}`, 'i').test(original)) {
      // Not before its subject: "won't he be able" (or, once named, "won't Jaime") is "will he not",
      // never "will not he".
      const pattern = `${escapeRegex(short)}(?! (?:he|she|it|they|we|you|I|there|[A-Z][a-z]+)\\b)`;
      ops.push({ kind: 'word', label: `expand:${short}`, pattern, replacement: long });
    }
  }
  ops.push(...possessionOps(original, names), ...numberWordOps(original), ...formOps(original, names));
  return ops;
}

/**
 * Written forms that keep every number and the meaning: "30%" -> "30 percent", and two named
 * people given the other way round ("Carol and Jennifer" -> "Jennifer and Carol").
 */
function formOps(original: string, names: ReadonlySet<string>): WordOp[] {
  const ops: WordOp[] = [];
  if (/\d%/.test(original))
    // The space after "%" is part of the match: a word op must end at a word boundary or a space.
    ops.push({ kind: 'word', label: 'form:percent', pattern: '(?<=\\d)% ', replacement: ' percent ' });
  const seen = new Set<string>();
  for (const m of original.matchAll(/\b([A-Z][a-z]+) and ([A-Z][a-z]+)\b/g)) {
    const [pair, a, b] = m as unknown as [string, string, string];
    if (!names.has(a) || !names.has(b) || a === b || seen.has(pair)) continue;
    seen.add(pair);
    ops.push({ kind: 'word', label: 'form:names', pattern: pair, replacement: `${b} and ${a}` });
  }
  return ops;
}

/** L1's phrase rewrites ("wants to" -> "would like to"), tried after its single-word ones. */
export function phraseOps(original: string): WordOp[] {
  const ops: WordOp[] = [];
  for (const rewrite of LEXICON) {
    if (!rewrite.phrase) continue;
    const m = new RegExp(bounded(rewrite.pattern), 'i').exec(original);
    if (m)
      ops.push({
        kind: 'word',
        label: `lexicon:${m[0].toLowerCase()}`,
        pattern: rewrite.pattern,
        replacement: rewrite.replacement,
      });
  }
  return ops;
}

const POSSESSION_OBJECT =
  /^(\$?\d|a|an|some|the|his|her|their|its|two|three|four|five|six|seven|eight|nine|ten|twenty|many|several|enough)$/i;
/** Time is not owned ("the sisters own three more weeks of vacation"), nor is a lack ("owns no change"). */
const NOT_OWNED =
  /^(?:\S+ ){0,2}(?:more |extra |left |)(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|time|change|chance|turns?|goal|plan|idea|job|rest|capacity|space|room|total)\b/i;
/** Lexicographer files of what "contains" rather than "owns": made things, food, objects, quantities, substances. */
const CONTAINERS = new Set<number>([
  LEX_FILE.artifact,
  LEX_FILE.food,
  LEX_FILE.object,
  LEX_FILE.quantity,
  LEX_FILE.substance,
]);
/** What a person can be said to own: made things, food, objects, animals, plants, substances, money. */
const OWNABLE = new Set<number>([
  LEX_FILE.artifact,
  LEX_FILE.food,
  LEX_FILE.object,
  LEX_FILE.animal,
  LEX_FILE.plant,
  LEX_FILE.substance,
  LEX_FILE.possession,
]);
/** Words that end the possessed noun phrase ("6 jars | of sprinkles"). */
const PHRASE_END = /^(?:of|in|on|at|for|with|per|that|which|who|to|from|than|each|but|so)$/i;

/**
 * The lexicographer files of the possessed things' head nouns, read from the words after the verb
 * ("has 6 jars of sprinkles": jars; "has 2 dogs and a cat": dogs, cat), undefined for a head
 * WordNet does not know.
 */
function possessedLexFiles(tokens: readonly string[], verb: number): (number | undefined)[] {
  const heads: string[] = [];
  let head: string | undefined;
  for (let j = verb + 1; j < Math.min(tokens.length, verb + 10); j++) {
    const raw = tokens[j] as string;
    const w = raw.toLowerCase().replace(/[^a-z]/g, '');
    if (PHRASE_END.test(w)) break;
    if (w === 'and' || w === 'or') {
      if (head) heads.push(head);
      head = undefined;
      continue;
    }
    if (w && !POSSESSION_OBJECT.test(w)) head = w;
    if (/[.;:!?]$/.test(raw)) break;
    if (raw.endsWith(',') && head) {
      heads.push(head);
      head = undefined;
    }
  }
  if (head) heads.push(head);
  return heads.map((h) => {
    const base = analyse(h, 'noun').find((a) => a.form === 'plural')?.base ?? h;
    return synsets(base, 'noun')[0]?.lexFile;
  });
}

const OWN: Record<string, [string, string]> = {
  has: ['owns', 'contains'],
  have: ['own', 'contain'],
  had: ['owned', 'contained'],
};

/**
 * "Mary has 6 jars" -> "Mary owns 6 jars", "a bag of chips has 250 calories" -> "... contains 250
 * calories": possession reworded by who has it (a name, a pronoun or a WordNet person noun owns;
 * anything else contains). Auxiliary "has" ("has decided") is left alone.
 */
function possessionOps(original: string, names: ReadonlySet<string>): WordOp[] {
  const ops: WordOp[] = [];
  const seen = new Set<string>();
  const tokens = original.split(/\s+/);
  tokens.forEach((raw, i) => {
    const verb = raw.toLowerCase();
    const forms = OWN[verb];
    const prevRaw = (tokens[i - 1] ?? '').replace(/[^A-Za-z']/g, '');
    const next = (tokens[i + 1] ?? '').replace(/[^A-Za-z0-9$]/g, '');
    if (!forms || !prevRaw || !POSSESSION_OBJECT.test(next) || /[^A-Za-z]$/.test(tokens[i - 1] ?? '')) return;
    if (
      NOT_OWNED.test(
        tokens
          .slice(i + 1, i + 5)
          .join(' ')
          .replace(/[^A-Za-z0-9$ ]/g, ''),
      )
    )
      return;
    const prev = prevRaw.replace(/'s$/, '');
    const lexFile =
      synsets(prev.toLowerCase(), 'noun')[0]?.lexFile ??
      synsets(analyse(prev.toLowerCase(), 'noun')[0]?.base ?? '', 'noun')[0]?.lexFile;
    const person = names.has(prev) || /^(he|she|they|i|we|you)$/i.test(prev) || lexFile === LEX_FILE.person;
    // Things contain; animals, groups and the rest keep "has".
    const thing = lexFile !== undefined && CONTAINERS.has(lexFile);
    if (!person && !thing) return;
    // A person owns things, never children, friends, a birthday or a discount ("has 3 children").
    const possessed = possessedLexFiles(tokens, i);
    const ownable = possessed.length > 0 && possessed.every((f) => f !== undefined && OWNABLE.has(f));
    if (person && !/^\$\d/.test(next) && !ownable) return;
    // "The tower has 9 rings on it" never "contains 9 rings on it".
    if (!person && /\b(?:in|on) it\b|\binside\b/.test(tokens.slice(i + 1).join(' '))) return;
    // Keyed and matched with the next word too: "Artie has a stand" is reworded, "Artie has no change" is not.
    const nextRaw = tokens[i + 1] ?? '';
    const key = `${prev} ${verb} ${nextRaw}`;
    if (seen.has(key)) return;
    seen.add(key);
    ops.push({
      kind: 'word',
      label: `possession:${verb}`,
      pattern: `(?<=\\b${escapeRegex(prevRaw)} )${verb}(?= ${escapeRegex(nextRaw)}(?:\\s|$))`,
      replacement: person ? forms[0] : forms[1],
    });
  });
  return ops;
}

/** Applies the word operations in one pass, so a replacement is never replaced again. */
export function applyWordOps(text: string, unordered: readonly WordOp[]): string {
  if (unordered.length === 0) return text;
  // Longer patterns first, so "gives away" -> "donates" wins over "gives" -> "hands".
  const ops = [...unordered].sort((a, b) => b.pattern.length - a.pattern.length);
  const combined = new RegExp(ops.map((op, i) => `(?<g${i}>${bounded(op.pattern)})`).join('|'), 'gi');
  // Nothing inside quotes: a shop sign or a saying is quoted as written.
  const quoted = [...text.matchAll(/"[^"]*"|\u201c[^\u201d]*\u201d/g)].map((m) => [
    m.index ?? 0,
    (m.index ?? 0) + m[0].length,
  ]);
  return text.replace(combined, (...args) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    const offset = args[args.length - 3] as number;
    const index = ops.findIndex((_, i) => groups[`g${i}`] !== undefined);
    const matched = args[0] as string;
    const op = ops[index];
    if (quoted.some(([a, b]) => offset >= (a as number) && offset < (b as number))) return matched;
    return op ? matchCase(op.replacement, matched) : matched;
  });
}
