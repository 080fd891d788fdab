/**
 * Response mirroring detectors m(y, v) in {0, 1}: does response y reflect the surface property
 * that variation v put into the prompt? (The paper's X_MR; Delta = m(y_v, v) - m(y_base, v).)
 * Rules for spacing, punctuation and case; the word-count ratio for length; a judge-role verdict
 * for politeness. Noise uses the SAGO authors' published detectors by default
 * (mirroring-reference.ts); the density rules here are waver's alternative (`mirroringRules:
 * density`), both in docs/sago-measures.md#mirroring.
 *
 * A detector that cannot decide returns `mirrored: undefined` (a missing value, never 0).
 */

import { PY_WHITESPACE_CLASS, pySplit } from '../../text-measures/python.js';
import type { MirroringRules } from './config.js';
import { referenceMirroring } from './mirroring-reference.js';
import type { Variation } from './variations/types.js';

export interface MirrorResult {
  /** `undefined` when the detector cannot decide (missing judge verdict, empty baseline, no detector). */
  mirrored: boolean | undefined;
  /** What was measured and the threshold it was held to, in words. */
  evidence: string;
}

/**
 * A noise detector fires when the response's noise density (a share in [0, 1] of its gaps, words
 * or letters) reaches this fraction of the variant prompt's density (so the bar rises with
 * strength), and never below the floor (so one stray mark in a long reply does not count).
 */
export const NOISE_DENSITY_SHARE = 0.5;
export const NOISE_DENSITY_FLOOR = 0.01;
/** Length mirroring: the word-count ratio lies within [0.75 m, 1.25 m] (docs/method.md). */
export const LENGTH_TOLERANCE = 0.25;

type NoiseVariation = Pick<Variation, 'text' | 'strength'>;

interface Density {
  count: number;
  over: number;
  unit: string;
}

function rate(d: Density): number {
  return d.over === 0 ? 0 : d.count / d.over;
}

function judgeDensity(name: string, response: Density, variant: Density, strength: number): MirrorResult {
  const threshold = Math.max(NOISE_DENSITY_FLOOR, NOISE_DENSITY_SHARE * rate(variant));
  const r = rate(response);
  const mirrored = response.count > 0 && r >= threshold;
  return {
    mirrored,
    evidence:
      `${name}: response ${response.count} ${response.unit} over ${response.over} (${fmt(r)}); ` +
      `variant prompt (strength ${strength}) ${variant.count} over ${variant.over} (${fmt(rate(variant))}); ` +
      `threshold ${fmt(threshold)}`,
  };
}

/** Lines of prose: fenced code blocks are left out (indentation and symbols are normal there). */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (!inFence) out.push(line);
  }
  return out;
}

// Python's whitespace without the line breaks: runs of it inside a line.
const INLINE_SPACE = new RegExp(`[${PY_WHITESPACE_CLASS.replace('\\n', '').replace('\\r', '')}]+`, 'g');
const EDGE_SPACE = new RegExp(`^[${PY_WHITESPACE_CLASS}]+|[${PY_WHITESPACE_CLASS}]+$`, 'g');

/**
 * Irregular gaps: in each line (indentation and trailing space ignored), the share of the
 * whitespace runs between words that are longer than one character. A share, not a count of
 * extra spaces, so that a reply with every gap doubled mirrors even a strength-100 prompt.
 */
export function spacingDensity(text: string): Density {
  let irregular = 0;
  let gaps = 0;
  for (const line of proseLines(text)) {
    const inner = line.replace(EDGE_SPACE, '');
    for (const m of inner.matchAll(INLINE_SPACE)) {
      gaps++;
      if (m[0].length > 1) irregular++;
    }
  }
  return { count: irregular, over: gaps, unit: 'gaps with extra whitespace' };
}

// A word starting with a run of the pool's marks that holds a closing or stop mark, then a letter:
// ",the" ";in" ").!high" — prose puts these marks after words, not before them.
const STRAY_LEADING = /^[.,!'()[\];:-]*[.,!;:)\]][.,!'()[\];:-]*\p{L}/u;
// A word ending in an opening bracket after a letter or digit: "Who(" "richest[" — prose never does.
const STRAY_TRAILING = /[\p{L}\p{N}][.,!'()[\];:-]*[([][.,!'()[\];:-]*$/u;

/** The share of words carrying a stray punctuation mark (see STRAY_LEADING / STRAY_TRAILING). */
export function punctuationDensity(text: string): Density {
  let stray = 0;
  let words = 0;
  for (const line of proseLines(text)) {
    for (const w of pySplit(line)) {
      words++;
      if (STRAY_LEADING.test(w) || STRAY_TRAILING.test(w)) stray++;
    }
  }
  return { count: stray, over: words, unit: 'words with stray punctuation' };
}

/** Upper-case letters that are not the first letter of their word, over all cased letters. */
export function caseDensity(text: string): Density {
  let abnormal = 0;
  let letters = 0;
  for (const line of proseLines(text)) {
    for (const w of pySplit(line)) {
      let seenLetter = false;
      for (const ch of w) {
        if (ch.toUpperCase() === ch.toLowerCase()) continue;
        letters++;
        if (seenLetter && ch === ch.toUpperCase()) abnormal++;
        seenLetter = true;
      }
    }
  }
  return { count: abnormal, over: letters, unit: 'upper-case letters inside words' };
}

export function mirrorsSpacing(response: string, variation: NoiseVariation): MirrorResult {
  return judgeDensity(
    'spacing',
    spacingDensity(response),
    spacingDensity(variation.text),
    variation.strength,
  );
}

export function mirrorsPunctuation(response: string, variation: NoiseVariation): MirrorResult {
  return judgeDensity(
    'punctuation',
    punctuationDensity(response),
    punctuationDensity(variation.text),
    variation.strength,
  );
}

export function mirrorsCase(response: string, variation: NoiseVariation): MirrorResult {
  return judgeDensity('case', caseDensity(response), caseDensity(variation.text), variation.strength);
}

/**
 * Length mirroring: the response's word count over the baseline response's lies within
 * [0.75 m, 1.25 m] for the variation's multiplier m. Undefined when the baseline has no words.
 */
export function mirrorsLength(response: string, baselineResponse: string, multiplier: number): MirrorResult {
  const base = pySplit(baselineResponse).length;
  const words = pySplit(response).length;
  const low = (1 - LENGTH_TOLERANCE) * multiplier;
  const high = (1 + LENGTH_TOLERANCE) * multiplier;
  if (base === 0) {
    return {
      mirrored: undefined,
      evidence: `length: baseline response has no words, so the ratio is undefined (m = ${multiplier})`,
    };
  }
  const ratio = words / base;
  return {
    mirrored: ratio >= low && ratio <= high,
    evidence: `length: ${words} / ${base} words = ${fmt(ratio)}; mirrored within [${fmt(low)}, ${fmt(high)}] (m = ${multiplier})`,
  };
}

export type Register = 'polite' | 'neutral' | 'rude';

export interface PolitenessVerdict {
  register: Register;
  reason?: string;
}

/**
 * The judge-role prompt that classifies a response's register. The judge sees the response only
 * (not the prompt), so the verdict is about the reply's tone, not about whether it matches.
 */
export function politenessJudgePrompt(response: string): string {
  return [
    'You classify the social register of a reply written by an AI assistant. Judge only its tone toward the reader, not whether its content is correct or complete.',
    '',
    '- "polite": markedly courteous beyond plain helpfulness: greetings, thanks, apologies, compliments to the reader, warm pleasantries or deferential hedging.',
    '- "rude": hostile, insulting, contemptuous, sarcastic, or curt to the point of disrespect.',
    '- "neutral": neither; plain and matter-of-fact.',
    '',
    'Reply with one JSON object and nothing else: {"register": "polite" | "neutral" | "rude", "reason": "<one short sentence>"}',
    '',
    'Reply to classify:',
    '<<<',
    response,
    '>>>',
  ].join('\n');
}

const REGISTERS: readonly Register[] = ['polite', 'neutral', 'rude'];

/**
 * The judge's verdict: the first JSON object with a valid `register`, or a reply that is just one
 * of the three words. `undefined` when unparsable (recorded as a missing value, not as neutral).
 */
export function parsePolitenessVerdict(reply: string): PolitenessVerdict | undefined {
  const bare = reply
    .trim()
    .toLowerCase()
    .replace(/^["'`*\s]+|["'`*.\s]+$/g, '');
  if ((REGISTERS as readonly string[]).includes(bare)) return { register: bare as Register };
  for (const candidate of jsonObjects(reply)) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (typeof parsed !== 'object' || parsed === null) continue;
      const register = (parsed as { register?: unknown }).register;
      if (typeof register !== 'string') continue;
      const r = register.trim().toLowerCase();
      if (!(REGISTERS as readonly string[]).includes(r)) continue;
      const reason = (parsed as { reason?: unknown }).reason;
      return typeof reason === 'string' ? { register: r as Register, reason } : { register: r as Register };
    } catch {
      // not JSON; try the next brace-balanced span
    }
  }
  return undefined;
}

/** Brace-balanced `{...}` spans in order of their start (JSON inside prose or a code fence). */
function jsonObjects(text: string): string[] {
  const out: string[] = [];
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        out.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  return out;
}

/**
 * Politeness mirroring from a judge verdict: a polite variant (s > 0) is mirrored by a polite
 * reply, a rude one (s < 0) by a rude reply; strength 0 targets nothing, so it never mirrors.
 */
export function mirrorsPoliteness(verdict: PolitenessVerdict | undefined, strength: number): MirrorResult {
  if (strength === 0) return { mirrored: false, evidence: 'politeness: strength 0 targets no register' };
  if (!verdict)
    return { mirrored: undefined, evidence: 'politeness: the judge verdict is missing or unparsable' };
  const target: Register = strength > 0 ? 'polite' : 'rude';
  return {
    mirrored: verdict.register === target,
    evidence: `politeness: judge says ${verdict.register}; strength ${strength} targets ${target}${verdict.reason ? ` (${verdict.reason})` : ''}`,
  };
}

export interface MirroringContext {
  /** The baseline response to the unvaried prompt (for length, and the reference noise rules). */
  baselineResponse: string;
  /** Noise detectors: the authors' (default), which compare with the baseline response, or waver's density rules. */
  rules?: MirroringRules;
  /** The judge's verdict on THIS response (for register variations). */
  politeness?: PolitenessVerdict;
}

/**
 * m(y, v) for any variation: noise by rule, length by ratio, register by the judge's verdict.
 * Sentence form has no detector in the paper, so it is undefined (the axis skips it).
 */
export function detectMirroring(response: string, variation: Variation, ctx: MirroringContext): MirrorResult {
  const reference = (ctx.rules ?? 'sago-reference') === 'sago-reference';
  if (
    reference &&
    (variation.subtype === 'spacing' || variation.subtype === 'punctuation' || variation.subtype === 'casing')
  )
    return referenceMirroring(variation.subtype, ctx.baselineResponse, response, variation.strength);
  switch (variation.subtype) {
    case 'spacing':
      return mirrorsSpacing(response, variation);
    case 'punctuation':
      return mirrorsPunctuation(response, variation);
    case 'casing':
      return mirrorsCase(response, variation);
    case 'length':
      return mirrorsLength(response, ctx.baselineResponse, variation.strength);
    case 'politeness':
      return mirrorsPoliteness(ctx.politeness, variation.strength);
    case 'interrogative':
    case 'imperative':
      return {
        mirrored: undefined,
        evidence: `no mirroring detector for sentence form (${variation.subtype})`,
      };
  }
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(3);
}
