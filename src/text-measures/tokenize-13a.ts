/**
 * sacrebleu 2.6.0's default BLEU tokenizer, `13a` (mteval-v13a.pl as ported in
 * `tokenizers/tokenizer_13a.py` + `tokenizer_re.py`), including the `rstrip()` that
 * `BLEU._preprocess_segment` applies first. Output is the tokenized line, tokens joined by one
 * space, exactly as sacrebleu returns it; see docs/sago-measures.md#bleu.
 */
import { PY_WHITESPACE_CLASS, pySplit } from './python.js';

// Python's str.rstrip() strips Python's whitespace set, which is not JS `\s`.
const PY_TRAILING_WHITESPACE = new RegExp(`[${PY_WHITESPACE_CLASS}]+$`);

// The four rules of TokenizerRegexp, in order. `u` makes `[^0-9]` take a whole code point, as
// Python's `re` does on str (the output is the same either way; this keeps the intent obvious).
// Rule 1's class is sacrebleu's `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ /
const SYMBOLS = /([{-~[-` -&(-+:-@/])/gu;
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/gu;
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/gu;
const DASH_AFTER_DIGIT = /([0-9])(-)/gu;

/** `Tokenizer13a()(line.rstrip())`, tokens joined by single spaces. */
export function tokenize13a(line: string): string {
  return tokens13a(line).join(' ');
}

/** The 13a tokens of `line` (what sacrebleu's `line.split()` sees after tokenizing). */
export function tokens13a(line: string): string[] {
  let s = line.replace(PY_TRAILING_WHITESPACE, '');
  s = s.replaceAll('<skipped>', '');
  s = s.replaceAll('-\n', '');
  s = s.replaceAll('\n', ' ');
  if (s.includes('&')) {
    // Same order as sacrebleu: `&amp;quot;` becomes `&quot;`, not `"`.
    s = s.replaceAll('&quot;', '"');
    s = s.replaceAll('&amp;', '&');
    s = s.replaceAll('&lt;', '<');
    s = s.replaceAll('&gt;', '>');
  }
  s = ` ${s} `;
  s = s.replace(SYMBOLS, ' $1 ');
  s = s.replace(PERIOD_COMMA_AFTER_NON_DIGIT, '$1 $2 ');
  s = s.replace(PERIOD_COMMA_BEFORE_NON_DIGIT, ' $1 $2');
  s = s.replace(DASH_AFTER_DIGIT, '$1 $2 ');
  return pySplit(s);
}
