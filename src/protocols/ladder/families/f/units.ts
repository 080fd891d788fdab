/**
 * The units a Format layout may put on a line, a list item or a table cell: whole sentences and
 * whole clauses, never a width's worth of words (issue 36: "between\n\n1988", "- has."). The
 * rules split only here and the suite scans read a layout against the same boundaries
 * (docs/ladder-families.md#f-units).
 */

/** Whitespace-separated words. */
export const wordsOf = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');

/** A word that ends a sentence: a stop, "?" or "!", closing quotes or brackets after it. */
const SENTENCE_END = /[.!?]["'’”)\]]*$/;
/** A dot that ends no sentence: an initial ("H. A. Rey"), a title or a Latin abbreviation. */
const NOT_AN_END = /^\(?(?:[A-Z]|Mr|Mrs|Ms|Dr|St|Jr|Sr|Mt|Ft|No|vs|etc|e\.g|i\.e)\.$/;
/** Words that open a clause after a comma ("..., and it sells ...", "..., which ...", "If ..., how ..."). */
const JOINER =
  /^(?:and|but|or|so|yet|nor|then|while|whereas|although|though|because|since|which|who|whom|whose|where|when|how|what|why)$/i;
/** Coordinating conjunctions: a split before one must leave a clause that runs to the sentence's end. */
const COORDINATOR = /^(?:and|but|or|so|yet|nor)$/i;
/** Openers of a leading subordinate clause, closed by a comma before its main clause's subject. */
const SUBORDINATE = /^(?:If|When|After|Before|Since|Because|Although|Though|While|Once|Unless|As|Suppose)$/;
/**
 * Words that, after "and/but/or/so" (and an optional "then"), go on the clause before rather than
 * open one with its own subject: a quantity ("..., and 60% more green cards", "and three times as
 * many"), a verb ("..., and is paid $14", "and then started ..."), "also".
 */
const NO_SUBJECT =
  /^(?:[$£€]?\d.*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twice|also|is|are|was|were|has|have|had|can|could|will|would|should|must|may|might|do|does|did|[a-z]+ed)$/i;

/** Whether the words after a coordinator open a clause of their own (a subject, not a verb or a quantity). */
function opensClause(after: readonly string[]): boolean {
  const first = /^then$/i.test(after[0] ?? '') ? after[1] : after[0];
  return first !== undefined && !NO_SUBJECT.test(first);
}

/** A subject opening the main clause after a leading one ("When he went home, he inspected ..."). */
const SUBJECT = /^(?:he|she|it|they|we|you|I|there)$/i;
/** Fewest words a clause split off at a comma keeps, so "apples, pears, and plums" stays whole. */
const MIN_CLAUSE_WORDS = 3;

/** Where each word of a text stands: whether a sentence or a clause ends after it. */
export interface WordMarks {
  words: string[];
  /** A sentence (or the text's line) ends after word i. */
  sentenceEnd: boolean[];
  /** A clause inside a sentence ends after word i (at a ";" or a comma before a new clause). */
  clauseEnd: boolean[];
}

function endsSentence(word: string): boolean {
  return SENTENCE_END.test(word) && !NOT_AN_END.test(word);
}

/** Opens a leading phrase closed by a comma ("In a 60-item quiz, ..."), no item of a list. */
const LEADING_PHRASE =
  /^(?:In|On|At|For|With|After|Before|During|By|From|Of|Over|Since|When|If|Once|As|While)$/;

/**
 * Whether the words of a clause before ", and ..." hold a comma of a list ("3 red balls, 11 blue
 * balls, and ..."): any comma but one closing a leading phrase at the clause's start.
 */
function listBefore(segment: readonly string[]): boolean {
  const commas = segment.flatMap((w, i) => (w.endsWith(',') ? [i] : []));
  const leading = LEADING_PHRASE.test(segment[0] ?? '') ? 1 : 0;
  return commas.length > leading;
}

/** The clause ends of one sentence's words (indices into `ws`). */
function clauseEndsOf(ws: readonly string[]): number[] {
  const out: number[] = [];
  let start = 0;
  const leading = SUBORDINATE.test(ws[0] ?? '');
  for (let i = 0; i < ws.length - 1; i++) {
    const w = ws[i] as string;
    const semicolon = w.endsWith(';');
    const next = ws[i + 1] as string;
    // "..., and half of the others correctly, how many ..." is a list going on, not a clause; so is
    // "3 red balls, 11 blue balls, and 25 green balls" (a comma before in the clause: its last item).
    const coordinated =
      !COORDINATOR.test(next) ||
      (!ws.slice(i + 1, -1).some((x) => x.endsWith(',')) &&
        !listBefore(ws.slice(start, i)) &&
        opensClause(ws.slice(i + 2)));
    const comma =
      w.endsWith(',') &&
      ((JOINER.test(next) && coordinated) || (leading && out.length === 0 && SUBJECT.test(next)));
    // Both sides long enough to be clauses, not items of a list.
    if (
      (semicolon || comma) &&
      i + 1 - start >= MIN_CLAUSE_WORDS &&
      ws.length - i - 1 >= MIN_CLAUSE_WORDS + 1
    ) {
      out.push(i);
      start = i + 1;
    }
  }
  return out;
}

/** The words of `text` (line by line) with the sentence and clause ends marked. */
export function markWords(text: string): WordMarks {
  const words: string[] = [];
  const sentenceEnd: boolean[] = [];
  const clauseEnd: boolean[] = [];
  for (const line of text.split('\n')) {
    const ws = wordsOf(line);
    let sentence: string[] = [];
    const close = () => {
      const ends = new Set(clauseEndsOf(sentence));
      sentence.forEach((w, i) => {
        words.push(w);
        sentenceEnd.push(i === sentence.length - 1);
        clauseEnd.push(ends.has(i));
      });
      sentence = [];
    };
    for (const w of ws) {
      sentence.push(w);
      if (endsSentence(w)) close();
    }
    if (sentence.length > 0) close();
  }
  return { words, sentenceEnd, clauseEnd };
}

/** The text's sentences, each as its clauses (a sentence without a clause boundary is one clause). */
export function sentenceClauses(text: string): string[][] {
  const { words, sentenceEnd, clauseEnd } = markWords(text);
  const out: string[][] = [];
  let sentence: string[] = [];
  let clause: string[] = [];
  words.forEach((w, i) => {
    clause.push(w);
    if (clauseEnd[i] || sentenceEnd[i]) {
      sentence.push(clause.join(' '));
      clause = [];
    }
    if (sentenceEnd[i]) {
      out.push(sentence);
      sentence = [];
    }
  });
  return out;
}
