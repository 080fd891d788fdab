/**
 * A Format candidate read back against its original: each line, list item, quoted line and table
 * cell as a run of the original's words, and whether that run is whole (opens and closes at a
 * sentence or clause boundary, units.ts). The suite scans read F tests through this
 * (suite-scans.ts: f-split-sentence, f-fragment-table); text inside a code fence is pasted text
 * and may wrap anywhere (the default suite's L5, accepted by the blind read).
 */
import { markWords } from './units.js';

export interface LayoutUnit {
  /** Where it stands: a line outside fences and tables, a line in a fence, a table's header or body cell. */
  region: 'line' | 'fence' | 'header' | 'cell';
  /** The words as shown, markup stripped. */
  text: string;
  /** Opens and closes at a sentence or clause boundary of the original (an empty cell: false). */
  whole: boolean;
  /** Closes where a sentence of the original ends (a break after it splits no sentence). */
  endsSentence: boolean;
  /** A whole line of the original that is an option ("B. 42"). */
  option: boolean;
  /** A run of spaces or a tab between two words of one sentence ("between   1988"). */
  wideGap?: string;
}

const FENCE = /^\s*(?:>\s*)*```/;
const TABLE_ROW = /^\s*(?:>\s*)*\|.*\|\s*$/;
const TABLE_RULE = /^\s*(?:>\s*)*\|(?:\s*:?-{3,}:?\s*\|)+\s*$/;
/** A horizontal rule ("---"), a line of markup alone. */
const HRULE = /^\s*(?:>\s*)*(?:-{3,}|\*{3,}|_{3,})\s*$/;
/** Block markup before a line's words: quote markers, a list marker, a heading's hashes. */
const LEAD = /^\s*(?:>\s*)*(?:(?:[-*+]|#{1,6})\s+)?/;
const OPTION_LINE = /^\(?[A-Z][.)]\)? /;

/** A word as the original has it: emphasis and code marks around it dropped, a lone divider dropped. */
const bare = (w: string) =>
  w === '|' ? '' : w.replace(/^(?:\*\*|__|`)+/, '').replace(/(?:\*\*|__|`)+$/, '');

/** The candidate's units, or undefined when its words are not the original's in order. */
export function readLayout(original: string, candidate: string): LayoutUnit[] | undefined {
  const marks = markWords(original);
  const optionWords = new Set<number>();
  let at = 0;
  for (const line of original.split('\n')) {
    const n = line.split(/\s+/).filter((w) => w !== '').length;
    if (OPTION_LINE.test(line.trim())) for (let i = at; i < at + n; i++) optionWords.add(i);
    at += n;
  }
  const boundary = (i: number) => i < 0 || marks.sentenceEnd[i] === true || marks.clauseEnd[i] === true;
  let k = 0;
  const units: LayoutUnit[] = [];
  /** Reads one unit's words off the original; false when a word is not the next one there. */
  const take = (region: LayoutUnit['region'], raw: string): boolean => {
    const parts = [...raw.matchAll(/(\S+)(\s*)/g)].map((m) => ({
      word: bare(m[1] as string),
      gap: m[2] as string,
    }));
    const kept = parts.filter((p) => p.word !== '');
    if (kept.length === 0) {
      if (region === 'header' || region === 'cell')
        units.push({ region, text: '', whole: false, endsSentence: false, option: false });
      return true;
    }
    const first = k;
    let wideGap: string | undefined;
    for (const [i, p] of kept.entries()) {
      if (marks.words[k] !== p.word) return false;
      if (i < kept.length - 1 && /\t| {2,}/.test(p.gap) && !marks.sentenceEnd[k])
        wideGap ??= `${p.word}${p.gap}${kept[i + 1]?.word}`;
      k++;
    }
    units.push({
      region,
      text: kept.map((p) => p.word).join(' '),
      whole: boundary(first - 1) && boundary(k - 1),
      endsSentence: marks.sentenceEnd[k - 1] === true,
      option: optionWords.has(first),
      ...(wideGap !== undefined && { wideGap }),
    });
    return true;
  };
  let fenced = false;
  const lines = candidate.split('\n');
  for (const [i, line] of lines.entries()) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (line.trim() === '' || /^\s*(?:>\s*)+$/.test(line) || TABLE_RULE.test(line) || HRULE.test(line))
      continue;
    if (fenced) {
      if (!take('fence', line)) return undefined;
    } else if (TABLE_ROW.test(line)) {
      const cells = line
        .replace(/^\s*(?:>\s*)*\|/, '')
        .replace(/\|\s*$/, '')
        .split('|');
      // A row is the header when the table's rule line follows it.
      const region = TABLE_RULE.test(lines[i + 1] ?? '') ? 'header' : 'cell';
      for (const cell of cells) if (!take(region, cell)) return undefined;
    } else if (!take('line', line.replace(LEAD, ''))) return undefined;
  }
  return k === marks.words.length ? units : undefined;
}

/** A line of the candidate with a `|` that is no row of a real table (one with its rule line), or undefined. */
export function strayDelimiter(original: string, candidate: string): string | undefined {
  if (original.includes('|')) return undefined;
  const lines = candidate.split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.includes('|')) continue;
    if (!TABLE_ROW.test(line)) return line;
    // The rows around it, up to the table's edges: one of them must be the rule under the header.
    let top = i;
    while (top > 0 && TABLE_ROW.test(lines[top - 1] as string)) top--;
    let end = i;
    while (end < lines.length - 1 && TABLE_ROW.test(lines[end + 1] as string)) end++;
    if (!lines.slice(top, end + 1).some((l) => TABLE_RULE.test(l))) return line;
  }
  return undefined;
}

/** The options a text shows, in order, as "B. text" (markup before and a cell's edge after dropped). */
export function shownOptions(text: string): string[] {
  return text
    .split('\n')
    .map((l) =>
      l
        .replace(LEAD, '')
        .replace(/^\|\s*/, '')
        .replace(/\s*\|\s*$/, '')
        .trim(),
    )
    .filter((l) => OPTION_LINE.test(l));
}

/** Whether a table of the candidate has a header row of empty cells ("|  |" over its rule). */
export function emptyHeader(candidate: string): boolean {
  const lines = candidate.split('\n');
  return lines.some(
    (l, i) =>
      TABLE_ROW.test(l) && !TABLE_RULE.test(l) && TABLE_RULE.test(lines[i + 1] ?? '') && !/[^|\s>]/.test(l),
  );
}
