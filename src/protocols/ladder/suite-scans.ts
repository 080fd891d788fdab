/**
 * Defect scans over a whole ladder suite (issue 36 item 2): each finds, in the admitted tests, one
 * kind of test a strict reviewer rejects, so a suite can be held to 0 hits per scan. The bench
 * (`bench/ladder-suite.mjs`) prints them per dataset; the tests hold each scan to the defect text
 * the issue quotes. docs/ladder-suite.md#scans lists them.
 */
import { CIS_SCANS } from './families/cis/scans.js';
import { pointsAtKey } from './families/cis/typed-directives.js';
import { CL_SCANS } from './families/cl/scans.js';
import { emptyHeader, readLayout, shownOptions, strayDelimiter } from './families/f/layout-read.js';
import { F_SCANS } from './families/f/scans.js';
import { IQ_SCANS } from './families/iq/scans.js';
import { KB_SCANS } from './families/kb/scans.js';
import { forwardReference } from './families/sv/references.js';
import { SV_SCANS } from './families/sv/scans.js';
import type { Scan, ScanHit } from './scan-types.js';
import { conflictExplicitness } from './severity/ces.js';
import { contentLevelOfNoise, formatKindLevel } from './severity/content-level.js';
import { isPersonName } from './text/given-names.js';
import { opensWithPronoun } from './text/pronouns.js';
import { numbersIn, numberValue, splitSentences, whitespaceWords } from './text/tokens.js';
import type { LadderTest } from './types.js';

export type { Scan, ScanHit } from './scan-types.js';

/** The candidate's sentences, each marked whether it is one of the original's. */
function sentencesOf(t: LadderTest): { text: string; added: boolean }[] {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  const own = new Set(splitSentences(t.original).map(norm));
  return splitSentences(t.text).map((s) => ({ text: s, added: !own.has(norm(s)) }));
}

function added(t: LadderTest): string[] {
  return sentencesOf(t)
    .filter((s) => s.added)
    .map((s) => s.text);
}

/**
 * CI L4-L5: an added sentence that copies a pronoun of the original ("His aunt ..."), or stands
 * right before an original sentence whose first person is a pronoun, so the pronoun may now point
 * at the added sentence's person.
 */
const ciSibling: Scan = {
  id: 'ci-sibling-pronoun',
  title: 'CI L4-L5: an added sentence with a pronoun, or between a pronoun and its referent',
  check(t) {
    if (t.family !== 'CI' || (t.measuredLevel ?? 0) < 4) return undefined;
    const ss = sentencesOf(t);
    for (let i = 0; i < ss.length; i++) {
      const s = ss[i] as { text: string; added: boolean };
      if (!s.added) continue;
      if (opensWithPronoun(s.text)) return `added sentence has a pronoun: "${s.text}"`;
      const next = ss[i + 1];
      if (next && !next.added && opensWithPronoun(next.text))
        return `added "${s.text}" before "${next.text}"`;
    }
    return undefined;
  },
};

const PERSON_SLOT = [
  /\b(?:friend|relative|cousin|neighbou?r|colleague|classmate) of ([A-Z][a-z]+)\b/g,
  /\b([A-Z][a-z]+)'s (?:friend|brother|sister|cousin|aunt|uncle|mother|father|mom|dad|neighbou?r|classmate|mind|week|day|family|friends|plan|interest)\b/g,
  /(?:^|[.!?]\s+)([A-Z][a-z]+) (?:smiled|noticed|took|was|had|likes|liked|knew|felt|kept|wanted|got|planned|stayed|paid|made|did|does|is|once|finds|tends|thought|prefers|enjoys)\b/g,
];

/** Sentence openers that name nobody ("She was ...", "It had ..."). */
const NOT_NAMED =
  /^(?:Mr|Mrs|Ms|Dr|Prince|Princess|King|Queen|Uncle|Aunt|He|She|It|They|There|This|That|The|A|An|Everyone|Nobody|Someone|Each|Every|One|Here|What|When|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)$/;

/** CI and CL: a capitalised word of the question written as a person that is no given name. */
const nonPerson: Scan = {
  id: 'non-person-as-person',
  title: 'CI/CL: a non-person of the question written as a person',
  check(t) {
    if (t.family !== 'CI' && t.family !== 'CL') return undefined;
    const text = added(t).join(' ');
    for (const re of PERSON_SLOT)
      for (const m of text.matchAll(re)) {
        const name = m[1] as string;
        if (NOT_NAMED.test(name) || new RegExp(`\\b(?:Mr|Mrs|Ms|Dr)\\.? ${name}\\b`).test(t.original))
          continue;
        if (t.original.includes(name) && !isPersonName(name)) return `"${name}" written as a person`;
      }
    return undefined;
  },
};

/** CL padding that says nothing a reader can picture, or that no reader could ("He noticed the classes."). */
const CONTENT_FREE =
  /\b(?:noticed the|(?:was|were) easy to picture|took notes|took a deep breath|mind was made up|was happy to help|knew what to do|had a plan|felt ready|got to work|paid attention|kept it simple|stayed focused|was curious|was careful|was patient|Time passed quietly|All was calm|The air was still|What matters most here|are the point of interest|smiled at the thought)\b|\b(?:mattered|(?:were|was) ready|came first|looked fine|(?:were|was) familiar|(?:were|was) nearby|were on the list|was open|was calm|(?:were|was) close at hand)\.$/i;

const clContentFree: Scan = {
  id: 'cl-content-free',
  title: 'CL: padding that is content-free or incoherent',
  check(t) {
    if (t.family !== 'CL') return undefined;
    const hit = added(t).find((s) => CONTENT_FREE.test(s));
    return hit && `"${hit}"`;
  },
};

/** CIS on a choice seed: a directive that points at the key (its letter, position or length). */
const cisKey: Scan = {
  id: 'cis-points-at-key',
  title: 'CIS on choice seeds: the directive points at the key',
  check(t) {
    if (t.family !== 'CIS' || t.answerType !== 'choice' || !t.options) return undefined;
    const directive = conflictExplicitness(t.original, t.text).added.join(' ');
    return pointsAtKey(directive, t.options, String(t.gold))
      ? `"${directive}" points at the key ${t.gold}`
      : undefined;
  },
};

/** CIS on a number seed: a directive that names none of the problem's quantities. */
const cisQuantity: Scan = {
  id: 'cis-no-quantity',
  title: "CIS on number seeds: the directive names none of the problem's quantities",
  check(t) {
    if (t.family !== 'CIS' || (t.answerType ?? 'number') !== 'number') return undefined;
    const directive = conflictExplicitness(t.original, t.text).added.join(' ');
    const own = new Set(numbersIn(t.original).map(numberValue));
    return numbersIn(directive).some((n) => own.has(numberValue(n))) ? undefined : `"${directive}"`;
  },
};

/** The words of a KB candidate that are not the original's, with the word after them. */
function kbChange(
  t: LadderTest,
): { inserted: string; after: string; next: string | undefined; sentence: string } | undefined {
  const o = whitespaceWords(t.original);
  const c = whitespaceWords(t.text);
  let head = 0;
  while (head < o.length && head < c.length && o[head] === c[head]) head++;
  let tail = 0;
  while (tail < o.length - head && tail < c.length - head && o.at(-1 - tail) === c.at(-1 - tail)) tail++;
  const inserted = c.slice(head, c.length - tail).join(' ');
  const after = c[c.length - tail] ?? '';
  const next = c[c.length - tail + 1];
  const sentence =
    splitSentences(t.text).find((s) => s.includes(inserted.split(' ').slice(-3).join(' '))) ?? '';
  return { inserted, after, next, sentence };
}

/** KB L2-L3: a dangling "each"/"per" after the inserted phrase ("... town meeting each"). */
const kbDangling: Scan = {
  id: 'kb-dangling-each',
  title: 'KB L2-L3: a dangling "each"/"per" after the rewritten amount',
  check(t) {
    if (t.family !== 'KB' || (t.measuredLevel !== 2 && t.measuredLevel !== 3)) return undefined;
    const ch = kbChange(t);
    if (!ch || !/[a-z]$/i.test(ch.inserted)) return undefined;
    // "each student" is no dangling "each": only one that ends its clause, or meets a joining word.
    const next = ch.next ?? '';
    const ends =
      /[.,;?!]$/.test(ch.after) || next === '' || /^(?:and|or|but|to|for|in|on|at|by)\b/i.test(next);
    return ends &&
      /^(?:each|per)\b[.,;?!]?$/i.test(ch.after) &&
      !/\d/.test(ch.inserted.split(' ').at(-1) ?? '')
      ? `"... ${ch.inserted.split(' ').slice(-4).join(' ')} ${ch.after}"`
      : undefined;
  },
};

/** A decision still to come (a record not yet out may tell of the past: "as many as the audit will show"). */
const DECISION = /\bwill be decided\b|\bby a vote\b|\bwhen next year.s plan is published\b/i;
const PAST =
  /\b(?:was|were|had|did|sold|bought|made|spent|paid|got|gave|took|ate|saw|found|won|lost|brought|kept|left|ran|wrote|sent|built|caught|drove|grew|held|met|rode|received|scored|collected|picked|baked|used|earned|started|needed|wanted)\b/i;

/** KB L2-L3: a decision or record still to come, in a sentence told in the past. */
const kbTime: Scan = {
  id: 'kb-time-incoherent',
  title: 'KB L2-L3: a decision still to come setting an amount told in the past',
  check(t) {
    if (t.family !== 'KB' || (t.measuredLevel !== 2 && t.measuredLevel !== 3)) return undefined;
    for (const s of added(t)) {
      const at = s.search(DECISION);
      if (at < 0) continue;
      // The decided amount's own clause: a relative clause ("a property that has ...") has its own tense.
      const own =
        s
          .slice(0, at)
          .split(/\b(?:that|which|who)\s+/i)
          .at(-1) ?? '';
      if (PAST.test(own)) return `"${s}"`;
    }
    return undefined;
  },
};

/** KB L1: the blur reaches past the one amount: every occurrence of a repeated value, or inside a label. */
const kbBlur: Scan = {
  id: 'kb-blur-spread',
  title: 'KB L1: the blur applied to other occurrences or inside a label',
  check(t) {
    if (t.family !== 'KB' || t.measuredLevel !== 1) return undefined;
    const label =
      /(?:\w+ (?:several|some):\d|\b(?:floor|page|room|grade|chapter|level|number|No\.|ratio of) (?:several|some)\b)/i.exec(
        t.text,
      );
    if (label) return `inside a label: "${label[0]}"`;
    const before = new Map<string, number>();
    for (const n of numbersIn(t.original)) before.set(numberValue(n), (before.get(numberValue(n)) ?? 0) + 1);
    const after = new Set(numbersIn(t.text).map(numberValue));
    const spread = [...before].find(([n, k]) => k > 1 && !after.has(n));
    return spread && `all ${spread[1]} occurrences of ${spread[0]} blurred`;
  },
};

/** Framing sentences the SV rules once wrote at L5 (issue 36: the original plus a frame is no paraphrase). */
export const SV_FRAMES = [
  'Here is the problem.',
  'Here is a problem to solve.',
  'Here is a short problem to work through.',
  'Here is a short everyday problem to work through carefully.',
];

/** SV: a framing sentence at L1-L4, or a test that is the original with a frame. */
const svFrame: Scan = {
  id: 'sv-frame',
  title: 'SV: a framing sentence ("Here is the problem.") at L1-L4, or the original plus a frame',
  check(t) {
    if (t.family !== 'SV') return undefined;
    const frame = SV_FRAMES.find((f) => t.text.includes(f));
    if (!frame) return undefined;
    const rest = t.text.replace(frame, '').replace(/\s+/g, ' ').trim();
    if (rest === t.original.replace(/\s+/g, ' ').trim()) return `the original plus "${frame}"`;
    return (t.measuredLevel ?? 0) <= 4 ? `"${frame}" at L${t.measuredLevel}` : undefined;
  },
};

/** SV: a rewrite that refers ahead to what the original had introduced first ("from every place" before the places; E62). */
const svForward: Scan = {
  id: 'sv-forward-reference',
  title: 'SV: a reference moved ahead of what it refers to ("every place" before the places)',
  check(t) {
    return t.family === 'SV' ? forwardReference(t.original, t.text) : undefined;
  },
};

/** IQ: the level is not what its share of altered words says (docs/ladder-families.md#iq-noise). */
const iqLevel: Scan = {
  id: 'iq-level-content',
  title: 'IQ: level not that of the share of words altered, or admitted off its requested level',
  check(t) {
    if (t.family !== 'IQ') return undefined;
    if (t.measuredLevel !== t.requestedLevel)
      return `admitted L${t.measuredLevel}, asked L${t.requestedLevel}`;
    const byWords = contentLevelOfNoise(t.original, t.text);
    return byWords === t.measuredLevel ? undefined : `L${t.measuredLevel}, its altered words say L${byWords}`;
  },
};

/** F: the level is not that of its kind of change (whitespace L1, one device L2, ... a table L5). */
const fLevel: Scan = {
  id: 'f-level-kind',
  title: 'F: level not that of its kind of change',
  check(t) {
    if (t.family !== 'F') return undefined;
    const kind = formatKindLevel(t.original, t.text);
    return kind === t.measuredLevel ? undefined : `L${t.measuredLevel}, its layout is L${kind}`;
  },
};

/**
 * F: a line, list item or quoted line that is no whole sentence or clause ("between\n\n1988",
 * "- has."), or a run of spaces inside a sentence (docs/ladder-families.md#f-units).
 */
const fSplitSentence: Scan = {
  id: 'f-split-sentence',
  title: 'F: a line or list item that splits a sentence mid-phrase, or spaces run inside one',
  check(t) {
    if (t.family !== 'F') return undefined;
    const units = readLayout(t.original, t.text);
    if (!units) return "its words are not the original's in order";
    const gap = units.find((u) => u.wideGap !== undefined)?.wideGap;
    if (gap !== undefined) return `spaces inside a sentence: ${JSON.stringify(gap)}`;
    const cut = units.find((u) => u.region === 'line' && !u.whole && !u.option);
    return cut && `"${cut.text}" is no whole sentence or clause`;
  },
};

/** F: a `|` that is no cell of a real table (" |" at the end of a quoted line). */
const fStrayDelimiter: Scan = {
  id: 'f-stray-delimiter',
  title: 'F: a "|" divider outside a real table (two constructs mixed as no document does)',
  check(t) {
    if (t.family !== 'F') return undefined;
    const line = strayDelimiter(t.original, t.text);
    return line && `"${line}"`;
  },
};

/** F: a table with an empty header row or a cell holding a fragment ("| What did | Cinderella's carriage |"). */
const fFragmentTable: Scan = {
  id: 'f-fragment-table',
  title: 'F: a table whose header is empty or whose cells hold sentence fragments',
  check(t) {
    if (t.family !== 'F') return undefined;
    if (emptyHeader(t.text)) return 'an empty header row';
    const cells = readLayout(t.original, t.text)?.filter((u) => u.region === 'header' || u.region === 'cell');
    if (!cells || cells.length === 0) return undefined;
    const cut = cells.find((u) => !u.whole && !u.option);
    return cut && `${cut.region} cell "${cut.text}" is no whole sentence or clause`;
  },
};

/** F on a choice seed: the options shown in another order or relettered (format-only keeps them). */
const fOptionsReordered: Scan = {
  id: 'f-options-reordered',
  title: 'F on choice seeds: the options reordered or the key remapped',
  check(t) {
    if (t.family !== 'F' || t.answerType !== 'choice') return undefined;
    const before = shownOptions(t.original);
    const after = shownOptions(t.text);
    const recorded = (t.options ?? []).map((o) => `${o.letter}. ${o.text}`);
    const brief = (os: string[]) => os.map((o) => `"${o.slice(0, 16)}"`).join(', ');
    if (after.join('\n') !== before.join('\n'))
      return `options shown as ${brief(after)}, not ${brief(before)}`;
    return recorded.length > 0 && recorded.join('\n') !== before.join('\n')
      ? `options recorded as ${brief(recorded)}`
      : undefined;
  },
};

const F_LAYOUT_SCANS = [fSplitSentence, fStrayDelimiter, fFragmentTable, fOptionsReordered];

export const SUITE_SCANS: readonly Scan[] = [
  ciSibling,
  nonPerson,
  clContentFree,
  ...CL_SCANS,
  cisKey,
  cisQuantity,
  ...CIS_SCANS,
  kbDangling,
  kbTime,
  kbBlur,
  ...KB_SCANS,
  svFrame,
  svForward,
  ...SV_SCANS,
  iqLevel,
  ...IQ_SCANS,
  fLevel,
  ...F_LAYOUT_SCANS,
  ...F_SCANS,
];

/** Every scan over the suite's perturbed tests: its hits (empty when clean). */
export function scanSuite(tests: readonly LadderTest[]): Map<string, ScanHit[]> {
  const out = new Map<string, ScanHit[]>(SUITE_SCANS.map((s) => [s.id, []]));
  const hit = (id: string, t: LadderTest, why: string) =>
    out.get(id)?.push({ seedId: t.seedId, family: t.family, level: t.measuredLevel, text: t.text, why });
  const perturbed = tests.filter((t) => t.family !== 'baseline');
  for (const t of perturbed) {
    for (const scan of SUITE_SCANS) {
      const why = scan.check(t);
      if (why !== undefined) hit(scan.id, t, why);
    }
  }
  for (const scan of SUITE_SCANS)
    for (const h of scan.checkSuite?.(perturbed) ?? []) hit(scan.id, h.test, h.why);
  return out;
}
