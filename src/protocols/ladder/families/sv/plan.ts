/**
 * Semantic Variation's plans: the word and sentence operations that fit a problem, in the order
 * strength adds them (word rewrites, clause work, merges, the question asked another way, the
 * facts reversed, a framing sentence), within the 1.3x word budget; and `build`, which applies the
 * first k of a plan. `sv.ts` aims a plan at the requested level.
 */

import type { PyRandom } from '../../../../util/random.js';
import { bounded } from '../../text/lexicon.js';
import { splitSentences, whitespaceWords } from '../../text/tokens.js';
import type { Level } from '../../types.js';
import { shuffled } from '../rules-common.js';
import { applyLocal, lowerFirst, type SentenceOpName } from './clauses.js';
import { type Cast, mergeable, namePronouns, presentTense, reverseGivens } from './sentences.js';
import { applyWordOps, phraseOps, type WordOp, wordOps } from './words.js';

/** An operation on the sentence list. Sentence-local ones name the original sentence they rewrite. */
export type StructOp =
  | { kind: 'local'; label: SentenceOpName; sentence: number }
  | { kind: 'present-tense'; label: 'present-tense' }
  | { kind: 'name-pronouns'; label: 'name-pronouns' }
  | { kind: 'merge'; label: 'merge'; sentence: number }
  | { kind: 'reverse-givens'; label: 'reverse-givens' };

export type Op = WordOp | StructOp;

export function build(original: string, ops: readonly Op[], k: number, cast: Cast): string {
  const { names, keep, who } = cast;
  const active = ops.slice(0, k);
  let sentences = splitSentences(original);
  const locals = active.filter((o): o is Extract<StructOp, { kind: 'local' }> => o.kind === 'local');
  sentences = sentences.map((s, i) => {
    let out = s;
    for (const op of locals) if (op.sentence === i) out = applyLocal(op.label, out, keep) ?? out;
    return out;
  });
  // A split makes two sentences out of one; re-split so later steps see them apart.
  sentences = splitSentences(sentences.join(' '));
  if (active.some((o) => o.kind === 'present-tense')) {
    sentences = splitSentences(presentTense(sentences.join(' '), names) ?? sentences.join(' '));
  }
  if (active.some((o) => o.kind === 'name-pronouns')) sentences = namePronouns(sentences, who) ?? sentences;
  const merges = new Set(
    active.filter((o) => o.kind === 'merge').map((o) => (o as { sentence: number }).sentence),
  );
  if (merges.size > 0) {
    const merged: string[] = [];
    for (let i = 0; i < sentences.length; i++) {
      const s = sentences[i] as string;
      const next = sentences[i + 1];
      if (merges.has(i) && next !== undefined && mergeable(s, next, cast)) {
        merged.push(`${s.slice(0, -1)}, and ${lowerFirst(next, keep)}`);
        i++;
      } else merged.push(s);
    }
    sentences = merged;
  }
  if (active.some((o) => o.kind === 'reverse-givens')) sentences = reverseGivens(sentences, who) ?? sentences;
  return applyWordOps(
    sentences.join(' '),
    active.filter((o): o is WordOp => o.kind === 'word'),
  );
}

/** Word-count change of an operation on the original (the 1.3x rule is kept for every prefix of the plan). */
function wordDelta(op: Op, original: string, keep: ReadonlySet<string>): number {
  switch (op.kind) {
    case 'word': {
      let delta = 0;
      for (const m of original.matchAll(new RegExp(bounded(op.pattern), 'gi'))) {
        delta +=
          op.replacement.split(/\s+/).filter(Boolean).length - m[0].split(/\s+/).filter(Boolean).length;
      }
      return delta;
    }
    case 'local': {
      const sentence = splitSentences(original)[op.sentence] ?? '';
      const out = applyLocal(op.label, sentence, keep);
      return out ? whitespaceWords(out).length - whitespaceWords(sentence).length : 0;
    }
    case 'merge':
      return 1;
    default:
      return 0;
  }
}

function structOps(original: string, level: Level, cast: Cast, rng: PyRandom): StructOp[] {
  const { names, keep, who } = cast;
  const sentences = splitSentences(original);
  const local: StructOp[] = [];
  sentences.forEach((s, i) => {
    // One clause move per sentence (two would undo each other).
    // "Suppose A. How B?" adds a sentence: L3 and up.
    const moves = (
      [
        'if-to-end',
        'if-to-front',
        'time-to-end',
        'time-to-front',
        'place-to-front',
        'question-phrase-front',
        ...(level >= 3 ? (['suppose'] as const) : []),
      ] as const
    ).filter((l) => applyLocal(l, s, keep));
    if (moves.length > 0) local.push({ kind: 'local', label: rng.choice(moves), sentence: i });
    for (const label of [
      'passive',
      'active',
      'of-them',
      'list-reverse',
      'it-takes',
      'there-is',
      'per-each',
      'each-costs',
    ] as const) {
      if (applyLocal(label, s, keep) !== undefined) local.push({ kind: 'local', label, sentence: i });
    }
    if (level >= 3 && applyLocal('split', s, keep) !== undefined)
      local.push({ kind: 'local', label: 'split', sentence: i });
  });
  if (presentTense(sentences.join(' '), names) !== undefined)
    local.push({ kind: 'present-tense', label: 'present-tense' });
  if (namePronouns(sentences, who) !== undefined)
    local.push({ kind: 'name-pronouns', label: 'name-pronouns' });
  const ops = shuffled(local, rng);
  if (level >= 3) {
    const joinable = sentences
      .map((_, i) => i)
      .filter((i) => mergeable(sentences[i] as string, sentences[i + 1], cast));
    // L3 may change the sentence count by one: a single merge. L4-L5: every other boundary.
    const merges = level === 3 ? joinable.slice(0, 1) : joinable.filter((_, j) => j % 2 === 0);
    for (const i of merges) ops.push({ kind: 'merge', label: 'merge', sentence: i });
  }
  const last = sentences.length - 1;
  // Asking the question as an instruction rewrites one sentence in place: fine from L2 on.
  // Or as "What is the number of ... that ...?".
  const asks = (['imperative', 'number-question', 'ask-directly'] as const).filter(
    (l) => applyLocal(l, sentences[last] as string, keep) !== undefined,
  );
  if (asks.length > 0) ops.push({ kind: 'local', label: rng.choice(asks), sentence: last });
  // The facts in reverse order keep the sentence count: L3 may use it too (reordering independent
  // sentences), after its one merge.
  if (level >= 3 && reverseGivens(sentences, who) !== undefined) {
    ops.push({ kind: 'reverse-givens', label: 'reverse-givens' });
  }
  return ops;
}

/**
 * The operations in the order strength adds them: word rewrites first (L1's whole repertoire),
 * then clause work, then merges and asking the question first, so that a higher
 * strength is always a heavier paraphrase.
 */
export function plan(original: string, level: Level, rng: PyRandom, cast: Cast, clausesFirst = false): Op[] {
  const words = [
    ...shuffled(wordOps(original, level, cast.names), rng),
    ...(level === 1 ? shuffled(phraseOps(original), rng) : []),
  ];
  const clauses = structOps(original, level, cast, rng);
  // Words first is the usual order; clause work first lands in a band that one clause move steps
  // over when it comes after all the words (a plan the second try uses).
  const candidates: Op[] = clausesFirst ? [...clauses, ...words] : [...words, ...clauses];
  const count = whitespaceWords(original).length;
  const budget = Math.floor(count * 1.3 + 1e-9) - count;
  const out: Op[] = [];
  let used = 0;
  for (const op of candidates) {
    const delta = wordDelta(op, original, cast.keep);
    if (used + delta > budget) continue;
    out.push(op);
    used += delta;
  }
  // No framing sentence ("Here is the problem."): the original plus a frame is no paraphrase, and
  // a frame at a low measured level is the whole change a reader sees (issue 36).
  return out;
}
