/**
 * A reply read as one of a template's options (docs/spread.md#scoring): FormatSpread scores by an
 * exact prefix match of the option's label; a reply that starts with a label as the template wrote
 * it, or bare (`(b)`, `b`, `b.`), or with an option's text, is that option. The longest label
 * wins, so `ii` is not read as `i`. Anything else is unparsed, and wrong.
 */

export interface ReadAnswer {
  choice?: number;
  via: 'label' | 'bare-label' | 'option-text' | 'unparsed';
}

const fold = (s: string) => s.normalize('NFKC').trim().toLowerCase();

/** Whether `reply` starts with `label` followed by no letter or digit (so `a` is not read out of `and`). */
function startsWithWord(reply: string, label: string): boolean {
  if (label === '' || !reply.startsWith(label)) return false;
  const next = reply.charAt(label.length);
  return next === '' || !/[\p{L}\p{N}]/u.test(next);
}

function longest(candidates: readonly string[], test: (label: string) => boolean): number | undefined {
  let at: number | undefined;
  candidates.forEach((c, k) => {
    if (test(c) && (at === undefined || c.length > (candidates[at] ?? '').length)) at = k;
  });
  return at;
}

export function readAnswer(
  reply: string,
  meta: { labels: string[]; bare: string[]; options: string[] },
): ReadAnswer {
  const text = reply.normalize('NFKC').trim();
  const exact = longest(
    meta.labels.map((l) => l.normalize('NFKC')),
    (l) => text.startsWith(l),
  );
  if (exact !== undefined) return { choice: exact, via: 'label' };
  const unwrapped = text.replace(/^[([<{]\s*/, '');
  // Bare labels: case matters (`A` and `a` are different enumerators); NFKC turns `Ⅲ` into `III`.
  const bare = longest(
    meta.bare.map((b) => b.normalize('NFKC')),
    (b) => startsWithWord(unwrapped, b),
  );
  if (bare !== undefined) return { choice: bare, via: 'bare-label' };
  const folded = fold(text);
  const byText = longest(meta.options.map(fold), (o) => o !== '' && folded.startsWith(o));
  if (byText !== undefined) return { choice: byText, via: 'option-text' };
  return { via: 'unparsed' };
}
