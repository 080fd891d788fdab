/**
 * A rewrite that moves a reference ahead of what it refers to (docs/decisions.md E62: a
 * rotation put "John collects garbage 3 times per week from every place" before the places were
 * named). Reordering is what moves SV's measure most (docs/ladder-families.md#sv-fill), so every
 * SV candidate is read for it and dropped when it holds one; `sv-forward-reference` scans for it.
 */
import { analyse } from '../../text/morphology.js';
import { splitSentences } from '../../text/tokens.js';

/** A definite or quantified noun phrase: "the goats", "every place", "each goat", "both cakes". */
const REFERENCE = /\b(?:the|every|each|both|these|those|all the)\s+(?:[a-z]+\s+)?[a-z]+\b/gi;

/** Words after a determiner that are not the thing referred to ("the first two", "the other one"). */
const NOT_HEAD =
  /^(?:first|second|third|last|other|others|rest|same|total|whole|next|following|remaining|final|entire|end|number|amount|sum|answer|problem|question|following|time|week|day|month|year|morning|evening|night|hour|minute|way|price|cost)$/;

/** Heads that name no word of their antecedent: "every place" for the apartment complexes. */
const GENERIC = /^(?:place|places|one|ones|thing|things|item|items|location|locations|site|sites)$/;

/** The noun a reference is about, as its base ("goats" -> "goat"), or undefined. */
function headOf(phrase: string): string | undefined {
  for (const word of phrase.toLowerCase().split(/\s+/).slice(1)) {
    if (word === 'the' || NOT_HEAD.test(word)) continue;
    const noun = analyse(word, 'noun');
    if (noun.length > 0) return noun.find((a) => a.form === 'plural')?.base ?? word;
  }
  return undefined;
}

/** Each mention of a noun (by its base) in the text, in order, and whether a determiner leads it. */
function mentions(text: string, head: string): { at: number; definite: boolean }[] {
  const out: { at: number; definite: boolean }[] = [];
  for (const m of text.matchAll(/[A-Za-z]+/g)) {
    const w = m[0].toLowerCase();
    const base = analyse(w, 'noun').find((a) => a.form === 'plural')?.base ?? w;
    if (base !== head) continue;
    const before = text.slice(Math.max(0, (m.index ?? 0) - 30), m.index).toLowerCase();
    // "his room", "Billie's room" presuppose the room as "the room" does.
    out.push({
      at: m.index ?? 0,
      definite:
        /\b(?:the|every|each|both|these|those|his|her|their|its|my|our|your|\w+'s)\s+(?:[a-z]+\s+)?$/.test(
          before,
        ),
    });
  }
  return out;
}

/** Plurals counted by a number ("3 different apartment complexes" -> complexes) in a text. */
function counted(text: string): string[] {
  return [...text.matchAll(/\b\d[\d,.]*\s+(?:[a-z]+\s+){0,2}?([a-z]+s)\b/g)]
    .map((m) => m[1] as string)
    .filter((w) => !MEASURES.test(w));
}

/** What a number measures rather than counts: "3 times a week" names no thing to refer to. */
const MEASURES =
  /^(?:times|seconds|minutes|hours|days|weeks|months|years|dollars|cents|percents?|miles|meters|feet|inches|pounds|ounces|grams|kilograms|liters|gallons|cups)$/;

/**
 * A generic reference ("every place") the candidate makes before any of the counted things the
 * original had named ahead of it ("3 different apartment complexes"): it now points at nothing.
 */
function genericAhead(original: string, candidate: string): string | undefined {
  for (const m of candidate.matchAll(REFERENCE)) {
    const head = m[0]
      .toLowerCase()
      .split(/\s+/)
      .slice(1)
      .find((w) => GENERIC.test(w));
    if (head === undefined) continue;
    const there = new RegExp(`\\b(?:every|each|the|all the|both)\\s+${head}\\b`, 'i').exec(original);
    if (!there) continue;
    const named = counted(original.slice(0, there.index));
    const before = candidate.slice(0, m.index);
    if (named.length > 0 && !named.some((w) => new RegExp(`\\b${w}\\b`, 'i').test(before)))
      return `"${m[0]}" before the ${named[0]} it refers to are named`;
  }
  return undefined;
}

/** Why the candidate refers ahead to something the original had introduced first, or undefined. */
export function forwardReference(original: string, candidate: string): string | undefined {
  for (const m of candidate.matchAll(REFERENCE)) {
    // "each batch", "12 to each carton" distribute over what follows; "the X" points back to it.
    if (!/^(?:the|these|those)\s/i.test(m[0])) continue;
    const head = headOf(m[0]);
    if (head === undefined || GENERIC.test(head)) continue;
    // The givens only: the question's "2 bagels" introduces nothing ("each bagel is $1" stands).
    const question = candidate.lastIndexOf(splitSentences(candidate).at(-1) ?? '');
    const inCandidate = mentions(candidate, head).filter((x) => x.at < question);
    const inOriginal = mentions(original, head);
    // First named here with a determiner and again later, where the original named it first without.
    if (inCandidate[0]?.definite === true && inCandidate.length > 1 && inOriginal[0]?.definite === false)
      return `"${m[0]}" before the ${head} it refers to is named`;
  }
  const generic = genericAhead(original, candidate);
  if (generic !== undefined) return generic;
  return undefined;
}
