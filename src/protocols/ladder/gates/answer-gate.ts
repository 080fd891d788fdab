import type { McOption } from '../../../data/mc/mc-item.js';
import { normaliseAnswer } from '../answer-text.js';
import { choiceStemOf, collapse, isOptionLine, optionLines } from '../choice-lines.js';
import type { Preserves } from '../families/contract.js';
import type { GateVerdict, Seed } from '../types.js';

/**
 * The answer gate (docs/ladder-families.md#answer-types): what a perturbation of a choice or text
 * seed must keep so that the test's recorded answer is still right, checked on the candidate's text.
 * Number seeds have the structural gate (every number of the original kept) and no answer gate, so
 * their suites are unchanged.
 *
 * - choice: every option appears whole, as `X. text` (or `X) text`, `(X) text`) at the start of a
 *   line, markup before it allowed (`- `, `> `, `| `), each letter once and no other option letter
 *   at a line start, each with the seed's letter and text (no family moves the options: Format
 *   is format-only, issue 36); and text the candidate adds does not state the key (its letter in an
 *   answer statement, or its option's text when the stem does not already state it). A family that
 *   keeps every word (Format) adds none, and one that does not keep the answer (Knowledge
 *   Boundary, whose frame is meant to change the stem): neither is searched for added text, and a
 *   Knowledge Boundary candidate keeps the options too.
 * - text: text the candidate adds does not state an accepted answer (the gold or an alias, SQuAD
 *   normalised, whole words) the original did not contain; and, where the family keeps names (not
 *   Input Quality, whose typos may touch them), every name (a capitalised word not opening a
 *   sentence) of the original is kept. A family that does not keep the answer (Knowledge Boundary)
 *   is not checked: its text is meant to change what is asked.
 */

export const ANSWER_GATE = 'answer';

export function answerGate(seed: Seed, preserves: Preserves, candidate: string): GateVerdict | undefined {
  if (seed.answerType === 'choice') {
    const problem = choiceProblem(seed.options, seed.gold, seed.question, candidate, preserves);
    return problem === undefined
      ? {
          gate: ANSWER_GATE,
          verdict: 'pass',
          reason: `the ${seed.options.length} options kept with their letters; the key not stated`,
        }
      : { gate: ANSWER_GATE, verdict: 'fail', reason: problem };
  }
  if (seed.answerType === 'text') {
    if (!preserves.answer) return undefined;
    const problem = textProblem(seed.question, [seed.gold, ...seed.aliases], candidate, preserves);
    return problem === undefined
      ? {
          gate: ANSWER_GATE,
          verdict: 'pass',
          reason: preserves.names
            ? "no accepted answer added; the original's names kept"
            : 'no accepted answer added',
        }
      : { gate: ANSWER_GATE, verdict: 'fail', reason: problem };
  }
  return undefined;
}

// --- choice ----------------------------------------------------------------------------------

function choiceProblem(
  seedOptions: readonly McOption[],
  key: string,
  original: string,
  candidate: string,
  preserves: Preserves,
): string | undefined {
  const keyText = seedOptions.find((o) => o.letter === key)?.text as string;
  const listed = optionLines(candidate);
  const seen = new Map<string, number>();
  for (const o of listed) seen.set(o.letter, (seen.get(o.letter) ?? 0) + 1);
  for (const o of seedOptions) {
    const found = listed.filter((l) => l.letter === o.letter);
    if (found.length === 0) return `option ${o.letter} ('${o.text}') is not listed on a line of its own`;
    if (found.length > 1) return `option letter ${o.letter} opens ${found.length} lines`;
    if (found[0]?.text !== collapse(o.text))
      return `option ${o.letter} reads '${found[0]?.text}', not '${collapse(o.text)}'`;
  }
  const extra = [...seen.keys()].filter((l) => !seedOptions.some((o) => o.letter === l));
  if (extra.length > 0) return `a line opens with option letter ${extra.join(', ')}, which is not an option`;
  // A frame meant to change the stem (KB), or a family that adds no word (Format): nothing added to check.
  if (preserves.answer && !preserves.words) {
    const added = addedText(original, candidate);
    const statesKey = new RegExp(
      `\\b(?:[Aa]nswer|[Oo]ption|[Cc]hoice)\\s+(?:is\\s+|would be\\s+|:\\s*)?\\(?${key}\\)?(?![\\p{L}\\p{N}])`,
      'u',
    );
    if (statesKey.test(added)) return `the added text states the key (${key})`;
    const stated = normaliseAnswer(keyText);
    if (
      containsWords(normaliseAnswer(added), stated) &&
      !containsWords(normaliseAnswer(choiceStemOf(original)), stated)
    )
      return `the added text states the key's option ('${keyText}')`;
  }
  return undefined;
}

// --- text ------------------------------------------------------------------------------------

function textProblem(
  original: string,
  answers: readonly string[],
  candidate: string,
  preserves: Preserves,
): string | undefined {
  const before = normaliseAnswer(original);
  const after = normaliseAnswer(candidate);
  for (const a of answers) {
    const n = normaliseAnswer(a);
    if (n !== '' && containsWords(after, n) && !containsWords(before, n))
      return `the candidate states an accepted answer ('${a}') the original does not`;
  }
  if (!preserves.names) return undefined;
  const lower = candidate.toLowerCase();
  const lost = namesIn(original).filter((name) => !lower.includes(name.toLowerCase()));
  return lost.length > 0 ? `names of the original missing from the candidate: ${lost.join(', ')}` : undefined;
}

/** Capitalised words that do not open a sentence: the names a question is about. */
function namesIn(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/(?<![.!?:]\s|^)\b\p{Lu}[\p{L}\p{N}'’-]*/gu)) names.add(m[0]);
  return [...names];
}

/**
 * The candidate's text outside the original's sentences and outside its option lines (what a
 * perturbation added): option lines are checked whole above, in whatever layout.
 */
function addedText(original: string, candidate: string): string {
  const units = original
    .split('\n')
    .filter((line) => !isOptionLine(line))
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((u) => u.trim())
    .filter((u) => u !== '')
    .sort((a, b) => b.length - a.length);
  let rest = candidate
    .split('\n')
    .filter((line) => !isOptionLine(line))
    .join('\n');
  for (const u of units) rest = rest.split(u).join('\n');
  return rest;
}

/** `needle` (normalised words) as whole words of `hay` (normalised words). */
function containsWords(hay: string, needle: string): boolean {
  if (needle === '') return false;
  return ` ${hay} `.includes(` ${needle} `);
}
