/**
 * FormatSpread's grammar of prompt formats (Sclar et al., ICLR 2024), the value lists and rules of
 * `grammar_definition.py` in msclar/formatspread, written for one structure: the multiple-choice
 * format of their SuperNatural-Instructions tasks (task1135's), a question field, an options field
 * with its enumeration, and the answer field (docs/spread.md#grammar).
 *
 *   Question: <question>{space}Options:{inner}A. <opt>{enumSpace}B. <opt>{space}Answer:
 */

/** `CHOSEN_SEPARATOR_LIST`: between a field's name and its text (and an enumerator and its option). */
export const SEPARATORS = [
  '',
  '::: ',
  ':: ',
  ': ',
  ' \n\t',
  '\n    ',
  ' : ',
  ' - ',
  ' ',
  '\n ',
  '\n\t',
  ':',
  '::',
  '- ',
  '\t',
] as const;
/** `CHOSEN_SPACE_LIST`: between fields, and between enumerated options (' -- ' twice, as theirs). */
export const SPACES = [
  '',
  ' ',
  '\n',
  ' \n',
  ' -- ',
  '  ',
  '; \n',
  ' || ',
  ' <sep> ',
  ' -- ',
  ', ',
  ' \n ',
  ' , ',
  '\n ',
  '. ',
  ' ,  ',
] as const;
/** `TEXT_DESCRIPTOR_FN_LIST`: a field name's casing. */
export const CASINGS = ['as-is', 'title', 'upper', 'lower'] as const;
/** `ITEM_WRAPPER_LIST`: what wraps an enumerator. */
export const WRAPPERS = ['(x)', 'x.', 'x)', 'x )', '[x]', '<x>'] as const;
/** `NUMBER_FORMAT_LIST`: how the k-th option is numbered. */
export const ENUMERATORS = ['1', 'A', 'a', 'Ⅰ', 'i', 'I'] as const;

const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii', 'xiii', 'xiv', 'xv'];
/** Their Unicode numerals stop at 12 options (`0 / 0` past it); the roman lists at 15. */
export const MAX_OPTIONS: Record<(typeof ENUMERATORS)[number], number> = {
  '1': 99,
  A: 26,
  a: 26,
  Ⅰ: 12,
  i: 15,
  I: 15,
};

/**
 * The actions of the structure, in the order FormatSpread enumerates them
 * (`pointers_to_all_objects` then the global constraints): the options group is listed twice by
 * their walk, so its spacing is drawn twice and the later accepted draw wins.
 */
export const ACTIONS = [
  { name: 'space', values: SPACES },
  { name: 'optionsSpace', values: SPACES },
  { name: 'optionsSpace', values: SPACES },
  { name: 'wrapper', values: WRAPPERS },
  { name: 'enumerator', values: ENUMERATORS },
  { name: 'enumSpace', values: SPACES },
  { name: 'enumSeparator', values: SEPARATORS },
  { name: 'casing', values: CASINGS },
  { name: 'separator', values: SEPARATORS },
] as const;

/** One format: an index into each value list (the first index holding the value, as theirs). */
export interface FormatChoice {
  space: number;
  optionsSpace: number;
  wrapper: number;
  enumerator: number;
  enumSpace: number;
  enumSeparator: number;
  casing: number;
  separator: number;
}

/** The structure's starting values (task1135): every draw is applied over these. */
const START = { optionsSpace: '', enumSpace: ' ', enumSeparator: ' ' };

const isSpace = (s: string) => s.length > 0 && /^\s+$/.test(s);
const firstIndex = (values: readonly string[], v: string) => values.indexOf(v);

/**
 * The format a draw of one value per action gives, applied in order with each node's
 * `update_field` refusals (an options spacing that is not whitespace; an enumeration separator with
 * a newline while its spacing has none), or undefined when `holistic_node_format_sanity_checks`
 * refuses the result.
 */
export function applyDraw(draw: readonly number[]): FormatChoice | undefined {
  const v = ACTIONS.map((a, i) => a.values[draw[i] ?? 0] as string);
  let optionsSpace = START.optionsSpace;
  for (const s of [v[1], v[2]] as string[]) if (isSpace(s)) optionsSpace = s;
  const enumSpace = v[5] as string;
  const drawnSep = v[6] as string;
  const enumSeparator = drawnSep.includes('\n') && !enumSpace.includes('\n') ? START.enumSeparator : drawnSep;
  const space = v[0] as string;
  const separator = v[8] as string;
  if (!valid({ space, optionsSpace, enumSpace, enumSeparator, separator })) return undefined;
  return {
    space: firstIndex(SPACES, space),
    optionsSpace: firstIndex(SPACES, optionsSpace),
    wrapper: draw[3] ?? 0,
    enumerator: draw[4] ?? 0,
    enumSpace: firstIndex(SPACES, enumSpace),
    enumSeparator: firstIndex(SEPARATORS, enumSeparator),
    casing: draw[7] ?? 0,
    separator: firstIndex(SEPARATORS, separator),
  };
}

/** Their holistic check on this structure, its recursion unrolled (docs/spread.md#grammar). */
function valid(f: {
  space: string;
  optionsSpace: string;
  enumSpace: string;
  enumSeparator: string;
  separator: string;
}) {
  if (f.separator === '') return false; // a field needs a separator
  if (!isSpace(f.optionsSpace)) return false; // the options group allows only whitespace
  if (f.enumSeparator.includes('\n') && !f.enumSpace.includes('\n')) return false;
  if (f.space === '') return false; // '' only after fields without text
  // No newline between a field's name and its text unless the fields are split by newlines.
  const noNewlineFields = !f.space.includes('\n');
  const noNewlineEnum = noNewlineFields || !f.optionsSpace.includes('\n');
  if (noNewlineFields && f.separator.includes('\n')) return false;
  if (noNewlineEnum && f.enumSeparator.includes('\n')) return false;
  return true;
}

/** A field name in the format's casing (Python's `str.title()` on one word). */
export function cased(name: string, casing: number): string {
  switch (CASINGS[casing]) {
    case 'title':
      return name.charAt(0).toUpperCase() + name.slice(1).toLowerCase();
    case 'upper':
      return name.toUpperCase();
    case 'lower':
      return name.toLowerCase();
    default:
      return name;
  }
}

/** The enumerator of the k-th option (0-based), wrapped. */
export function enumeratorLabel(choice: FormatChoice, k: number): string {
  const kind = ENUMERATORS[choice.enumerator] ?? '1';
  const raw =
    kind === '1'
      ? String(k + 1)
      : kind === 'A'
        ? String.fromCharCode(65 + k)
        : kind === 'a'
          ? String.fromCharCode(97 + k)
          : kind === 'Ⅰ'
            ? String.fromCodePoint(0x2160 + k)
            : kind === 'i'
              ? (ROMAN[k] ?? '')
              : (ROMAN[k] ?? '').toUpperCase();
  return (WRAPPERS[choice.wrapper] ?? 'x').replace('x', raw);
}

/** The prompt of a format for a question and its options, as their `solve` then `format` write it. */
export function renderFormat(choice: FormatChoice, question: string, options: readonly string[]): string {
  const sep = SEPARATORS[choice.separator] ?? ': ';
  const name = (n: string) => cased(n, choice.casing);
  const enumSep = SEPARATORS[choice.enumSeparator] ?? ' ';
  const listed = options
    .map((o, k) => `${enumeratorLabel(choice, k)}${enumSep}${o}`)
    .join(SPACES[choice.enumSpace]);
  const group = `${name('Options')}${sep}${SPACES[choice.optionsSpace]}${listed}`;
  return [`${name('Question')}${sep}${question}`, group, `${name('Answer')}${sep}`].join(
    SPACES[choice.space],
  );
}

/** One-hot rows of a format's choices, the template covariates of the estimators. */
export function formatFeatures(choice: FormatChoice): number[] {
  const hot = (n: number, i: number) => Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));
  return [
    ...hot(SPACES.length, choice.space),
    ...hot(SPACES.length, choice.optionsSpace),
    ...hot(WRAPPERS.length, choice.wrapper),
    ...hot(ENUMERATORS.length, choice.enumerator),
    ...hot(SPACES.length, choice.enumSpace),
    ...hot(SEPARATORS.length, choice.enumSeparator),
    ...hot(CASINGS.length, choice.casing),
    ...hot(SEPARATORS.length, choice.separator),
  ];
}
