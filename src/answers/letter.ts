import type { McOption } from '../data/mc/mc-item.js';
import { normaliseText } from '../data/mc/mc-rules.js';

/**
 * The deterministic multiple-choice parser of docs/method.md#paraphrase: no judge. It reads the
 * letter a reply chose, trying in order (see docs/paraphrase.md#parser):
 *
 * 1. bare letter: the whole reply is one letter, however decorated (`B`, `(b)`, `**B.**`, `B) $90`
 *    when the text after it is that option's text);
 * 2. an answer statement: "the answer is X", "Answer: x", "I'd go with (X)", "correct option is X";
 * 3. letter mentions anywhere: `(X)`, `**X**`, "option X", a capital X standing alone — but not a
 *    letter inside a word, an article ("A jacket"), a pronoun ("I think"), a negated letter
 *    ("not A", "A is wrong", "A is tempting but wrong", "A and C are wrong"), or a person the
 *    question names with that letter ("You meet A": "A is a knave" is about A, not option A);
 * 4. option text: the reply states exactly one option's text ("$90", "Canberra").
 *
 * Within a step, several different letters (or option texts) mean the reply did not choose: it is
 * unparsed, never guessed. An unparsed reply counts as wrong and is reported as parse rate.
 */

export type LetterVia = 'bare' | 'answer-statement' | 'letter-mention' | 'option-text';

export type ParsedLetter =
  | { letter: string; via: LetterVia }
  | { letter: undefined; via: 'unparsed'; reason: string; candidates?: string[] };

/** What the model was asked, for reading its reply: the question up to its options. */
export interface ParseContext {
  question?: string;
}

export function parseLetterAnswer(
  reply: string,
  options: readonly McOption[],
  context: ParseContext = {},
): ParsedLetter {
  const letters = new Set(options.map((o) => o.letter));
  const names =
    context.question === undefined ? new Set<string>() : lettersNamedIn(context.question, letters);
  // NFKC folds full-width letters (Ｂ) and compatibility forms; zero-width characters are noise.
  const text = reply.normalize('NFKC').replace(/[\u200B-\u200D\uFEFF]/g, '');
  if (text.trim() === '') return unparsed('empty reply');
  const plain = withoutEmphasis(text);

  const bare = bareLetter(plain, options);
  if (bare !== undefined) {
    return letters.has(bare)
      ? { letter: bare, via: 'bare' }
      : unparsed(`letter ${bare} is not an option`, [bare]);
  }

  const stated = answerStatements(plain);
  if (stated.size > 0) {
    const valid = [...stated].filter((l) => letters.has(l));
    if (valid.length === 0)
      return unparsed(`answered ${[...stated].join(', ')}, which is not an option`, [...stated]);
    if (stated.size > 1)
      return unparsed(`several letters stated: ${[...stated].sort().join(', ')}`, [...stated].sort());
    return { letter: valid[0] as string, via: 'answer-statement' };
  }

  const mentions = letterMentions(plain, letters, names);
  if (mentions.chosen.size > 1)
    return unparsed(
      `several letters: ${[...mentions.chosen].sort().join(', ')}`,
      [...mentions.chosen].sort(),
    );
  if (mentions.chosen.size === 1) return { letter: [...mentions.chosen][0] as string, via: 'letter-mention' };

  const texts = optionTextsIn(text, options);
  if (texts.length > 1) return unparsed(`several options' texts: ${texts.join(', ')}`, texts);
  if (texts.length === 1) return { letter: texts[0] as string, via: 'option-text' };
  if (mentions.negated.size > 0)
    return unparsed(
      `only negated letters: ${[...mentions.negated].sort().join(', ')}`,
      [...mentions.negated].sort(),
    );
  return unparsed('no letter and no option text');
}

function unparsed(reason: string, candidates?: string[]): ParsedLetter {
  return { letter: undefined, via: 'unparsed', reason, ...(candidates ? { candidates } : {}) };
}

/** Markdown emphasis and code marks carry no meaning for the choice: `**B**` is `B`. */
function withoutEmphasis(text: string): string {
  return text.replace(/\*\*|__|`/g, '').replace(/\*(?=[A-Za-z])|(?<=[A-Za-z.)])\*/g, '');
}

/** Step 1: the whole reply is one letter, perhaps followed by its own option's text. */
function bareLetter(text: string, options: readonly McOption[]): string | undefined {
  const t = text
    .trim()
    .replace(/^["'“‘\s]+|["'”’\s]+$/g, '')
    .replace(/^(?:final\s+)?answer\s*[:\-–—]\s*/i, '');
  const alone = t.match(/^[([]?([A-Za-z])[)\]]?[.:!]?$/);
  if (alone) return (alone[1] as string).toUpperCase();
  const withText = t.match(/^[([]?([A-Za-z])(?:[)\].:]|\s+[-–—])\s*(.+)$/s);
  if (withText) {
    const letter = (withText[1] as string).toUpperCase();
    const option = options.find((o) => o.letter === letter);
    if (option && normaliseText(withText[2] as string) === normaliseText(option.text)) return letter;
  }
  return undefined;
}

// A letter as a statement writes it: (B) [B] B) B, and then no letter, digit or apostrophe.
const LETTER = String.raw`(?<open>[([]?)(?<letter>[A-Za-z])(?<close>[)\]]?)(?![A-Za-z0-9'’])`;
const MORE_LETTERS = String.raw`(?<more>(?:\s*(?:,|/|&|\bor\b|\band\b|\band/or\b)\s*(?:option\s+|choice\s+)?[([]?[A-Za-z][)\]]?(?![A-Za-z0-9'’]))*)`;
const TRIGGERS = [
  String.raw`\banswer\b(?:\s+(?:is|would\s+be|will\s+be|should\s+be|must\s+be)\b)?\s*[:=\-–—]?`,
  String.raw`\b(?:correct|right|best)\s+(?:option|choice|letter)\s+(?:is|would\s+be)\b\s*[:\-–—]?`,
  String.raw`\bI(?:'d|’d|\s+would|'ll|’ll|\s+will)?\s+(?:say|choose|pick|select|go\s+with|answer)\b\s*[:\-–—]?`,
  String.raw`\bmy\s+(?:answer|choice|pick)\s+(?:is|would\s+be)\b\s*[:\-–—]?`,
];
const STATEMENT = new RegExp(
  String.raw`(?:${TRIGGERS.join('|')})\s*(?:(?:probably|likely|clearly|definitely|therefore|thus)\b\s*[:,]?\s*)?(?:option\s+|choice\s+|letter\s+)?${LETTER}${MORE_LETTERS}`,
  'gi',
);

/** Step 2: letters given as the answer in an explicit statement (with "X or Y" lists kept whole). */
function answerStatements(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(STATEMENT)) {
    const g = m.groups as { open: string; letter: string; close: string; more: string };
    const wrapped = g.open !== '' || g.close !== '';
    if (g.more === '' && !wrapped) {
      const after = text.slice((m.index ?? 0) + m[0].length);
      // A lowercase letter must end the statement: "the answer is a trick question" names no option.
      if (g.letter === g.letter.toLowerCase() && /^\s+[A-Za-z]/.test(after)) continue;
      // "The answer is A jacket..." is an article; "Answer: A is right" and "A." are letters.
      if (isArticleOrPronoun(g.letter, after, false)) continue;
    }
    out.add(g.letter.toUpperCase());
    for (const more of g.more.matchAll(/(?<![A-Za-z])([A-Za-z])(?![A-Za-z0-9'’])/g))
      out.add((more[1] as string).toUpperCase());
  }
  return out;
}

/** Words that follow a letter but never the article: "A is right", "A or B", "A because...". */
const AFTER_A_LETTER =
  /^\s+(?:is|was|seems|looks|appears|would|should|must|could|might|fits|matches|makes|because|since|or|and|nor|vs|versus|too|also)\b/;

/** `A` followed by a lowercase word is the article, `I` the pronoun — unless bracketed or bolded. */
function isArticleOrPronoun(letter: string, after: string, wrapped: boolean): boolean {
  if (wrapped) return false;
  if (letter === 'I') return /^(?:\s+[a-z]|['’])/.test(after);
  if (letter === 'A') return /^\s+[a-z]/.test(after) && !AFTER_A_LETTER.test(after);
  return false;
}

const NEGATED_BEFORE =
  /\b(?:not|isn't|isn’t|never|no|exclude|excluding|eliminate|eliminating|rule\s+out|ruling\s+out|except|rather\s+than|instead\s+of|against)\s+(?:option\s+|choice\s+|letter\s+)?[([]?$/i;
const WRONG = String.raw`(?:not\b|wrong|incorrect|false|a\s+trap|a\s+distractor|ruled\s+out|eliminated)`;
const NEGATED_AFTER = new RegExp(
  String.raw`^[)\]]?\s*(?:(?:is|was|are|were|seems|seem|looks|look)\s+(?:(?:(?:all|both|clearly|obviously|definitely)\s+)?${WRONG}|(?:[a-z'’-]+\s+){1,3}but\s+${WRONG})|(?:can|could)\s+be\s+(?:ruled\s+out|eliminated)|(?:cannot|can't|can’t|can\s+not)\s+be\s+(?:right|correct|the\s+answer))`,
  'i',
);
/** The rest of a letter list after a letter ("A and C are wrong": " and C"), skipped to reach its verb. */
const LIST_TAIL =
  /^(?:[)\]]?\s*(?:,|&|\/|\band\b|\bor\b|\bnor\b)\s*(?:option\s+|choice\s+)?[([]?[A-Z][)\]]?(?![A-Za-z0-9'’-]))+/;

/** Step 3: every option letter standing alone, split into chosen and negated mentions. */
function letterMentions(
  text: string,
  letters: ReadonlySet<string>,
  names: ReadonlySet<string>,
): { chosen: Set<string>; negated: Set<string> } {
  const chosen = new Set<string>();
  const negated = new Set<string>();
  // Capitals standing alone, or a lowercase letter in brackets / opening a line as "b)".
  const mention =
    /(?<![A-Za-z0-9'’.-])(?:([A-Z])|\(([a-z])\)|\[([a-z])\]|^\s*([a-z])\))(?![A-Za-z0-9'’-])(?!\.[A-Za-z])/gm;
  for (const m of text.matchAll(mention)) {
    const letter = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').toUpperCase();
    if (!letters.has(letter)) continue;
    const start = m.index ?? 0;
    const before = text.slice(Math.max(0, start - 40), start);
    const after = text.slice(start + m[0].length);
    const wrapped = m[1] === undefined || /[([]$/.test(before) || /^[)\]]/.test(after);
    if (m[1] !== undefined && isArticleOrPronoun(m[1], after, wrapped)) continue;
    if (m[1] !== undefined && !wrapped && names.has(letter) && isAboutThePerson(before, after)) continue;
    if (NEGATED_BEFORE.test(before) || NEGATED_AFTER.test(after.replace(LIST_TAIL, ''))) negated.add(letter);
    else chosen.add(letter);
  }
  return { chosen, negated };
}

/**
 * Option letters the question uses as names ("You meet A and B"): a capital standing alone, not
 * an article or a pronoun, and not in the question's own list of letters ("(A, B, C, or D)").
 */
function lettersNamedIn(question: string, letters: ReadonlySet<string>): Set<string> {
  const names = new Set<string>();
  const lone = /(?<![A-Za-z0-9'’.([-])([A-Z])(?![A-Za-z0-9'’)\]-])(?!\.[A-Za-z])/g;
  for (const m of question.matchAll(lone)) {
    const letter = m[1] as string;
    if (!letters.has(letter) || letter === 'I') continue;
    const start = m.index ?? 0;
    const before = question.slice(Math.max(0, start - 20), start);
    const after = question.slice(start + 1);
    // "A farmer..." opening a sentence is the article; "... meet A" is a name.
    if (letter === 'A' && /(?:^|[.!?:"“]\s*)$/.test(before) && /^\s+[a-z]/.test(after)) continue;
    if (/\b(?:option|choice|letter)\s+$/i.test(before)) continue;
    names.add(letter);
  }
  return names;
}

/**
 * A named letter followed by a predicate is the person ("A is a knave", "A can't be a knight"),
 * unless the predicate judges an option ("A is correct", "A is the answer", "A is wrong").
 */
function isAboutThePerson(before: string, after: string): boolean {
  if (/\b(?:option|choice|letter|answer)\s*(?:is\s+)?[:\-–—]?\s*$/i.test(before)) return false;
  return /^\s+[a-z]/.test(after) && !OPTION_PREDICATE.test(after);
}

/** What is said of an option, not of a person: "is correct", "is the answer", "is not right", "is wrong". */
const OPTION_PREDICATE =
  /^\s+(?:(?:is|was|seems|looks|(?:would|must|should)\s+be)(?:\s+not)?|isn't|isn’t|(?:cannot|can't|can’t|can\s+not)\s+be)\s+(?:the\s+)?(?:(?:correct|right|best)\b(?!\s+(?:about|that|to)\b)|answer\b|wrong\b|incorrect\b|false\b|(?:a\s+)?(?:trap|distractor)\b|ruled\s+out\b|eliminated\b|(?:[a-z'’-]+\s+){1,3}but\s+(?:wrong|incorrect|false)\b)/i;

/**
 * Step 4: the options whose text the reply states at word boundaries, not negated. An occurrence
 * inside a longer option's occurrence ("$9" inside "$90") does not count.
 */
function optionTextsIn(reply: string, options: readonly McOption[]): string[] {
  const hay = reply.toLowerCase().replace(/\s+/g, ' ');
  const found: { letter: string; start: number; end: number }[] = [];
  for (const o of options) {
    const needle = normaliseText(o.text);
    if (needle === '') continue;
    for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (/[\p{L}\p{N}]/u.test(hay[at - 1] ?? '') || /[\p{L}\p{N}]/u.test(hay[end] ?? '')) continue;
      // "$90.50" is not "$90": a decimal point followed by a digit continues the number.
      if (/^[.,]\d/.test(hay.slice(end, end + 2))) continue;
      if (NEGATED_BEFORE.test(hay.slice(Math.max(0, at - 40), at))) continue;
      found.push({ letter: o.letter, start: at, end });
    }
  }
  const kept = found.filter(
    (f) =>
      !found.some(
        (g) =>
          g !== f &&
          g.letter !== f.letter &&
          g.start <= f.start &&
          g.end >= f.end &&
          g.end - g.start > f.end - f.start,
      ),
  );
  return [...new Set(kept.map((f) => f.letter))].sort();
}
