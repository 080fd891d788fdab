/**
 * Structural rewriting: length x{0.25, 0.5, 1.5, 2, 3} and sentence form (interrogative /
 * imperative). The paper has a generator model rewrite the prompt; `structuralInstructions` is
 * the instruction waver sends to the `generator` role. The rule-based versions here let the family
 * run offline: sentence-form templates, expansion by neutral elaboration (sentences that add words
 * but no content, register or form), compression by dropping function words. They are cruder
 * than a model's rewrite and every variant records `generator: 'rules'` and, for length, the
 * ratio achieved. See docs/sago-measures.md#structural.
 */
import { pySplit } from '../../../text-measures/python.js';
import type { StructuralSubtype, Variation } from './types.js';

export const LENGTH_MULTIPLIERS = [0.25, 0.5, 1.5, 2, 3] as const;
/** Sentence form has no graded strength; its variants carry strength 1. */
export const FORM_STRENGTH = 1;

const WH_WORDS = new Set(['who', 'whom', 'whose', 'what', 'which', 'when', 'where', 'why', 'how']);
const AUX_WORDS = new Set([
  'is',
  'are',
  'was',
  'were',
  'am',
  'do',
  'does',
  'did',
  'can',
  'could',
  'will',
  'would',
  'shall',
  'should',
  'may',
  'might',
  'must',
  'has',
  'have',
  'had',
]);

/**
 * Words that carry grammar rather than content. Wh-words and negations are left out on purpose:
 * dropping them changes what is asked.
 */
const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'from',
  'by',
  'with',
  'about',
  'as',
  'into',
  'onto',
  'upon',
  'that',
  'this',
  'these',
  'those',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'am',
  'do',
  'does',
  'did',
  'has',
  'have',
  'had',
  'will',
  'would',
  'shall',
  'should',
  'can',
  'could',
  'may',
  'might',
  'and',
  'or',
  'but',
  'so',
  'it',
  'its',
  'there',
  'their',
  'they',
  'them',
  'i',
  'me',
  'my',
  'we',
  'our',
  'us',
  'you',
  'your',
  'he',
  'she',
  'his',
  'her',
  'him',
  'very',
  'really',
  'just',
  'please',
  'also',
  'any',
  'some',
  'such',
  'then',
  'than',
  'too',
  'currently',
  'actually',
  'exactly',
]);

/** Neutral elaboration: adds length without adding content, politeness, rudeness or a new form. */
const OPENING = 'Here is what I would like to know.';
const OPENING_REQUEST = 'Here is what I would like done.';
const CLOSINGS = [
  'I am asking this {thing} exactly as it is written above.',
  'Nothing else is needed beyond what the {thing} itself says.',
  'There is no hidden context behind it.',
  'It is a single {thing}, and the wording above is all there is to it.',
  'The reply should address the {thing} above.',
  'I would like the reply to be based on the {thing} as stated.',
  'All the details that matter are already included in the {thing}.',
  'No extra assumptions are intended beyond the words used.',
  'It should be read in its ordinary, plain sense.',
  'There are no tricks or special conditions involved.',
  'It is the same {thing} I would put to anyone.',
  // Short ones let the scan land near the target on short prompts.
  'That is the whole {thing}.',
  'Nothing is implied.',
  'Nothing more.',
];

export function isQuestion(prompt: string): boolean {
  const trimmed = prompt.trim();
  if (trimmed.endsWith('?')) return true;
  const first = firstWordLower(trimmed);
  return WH_WORDS.has(first) || AUX_WORDS.has(first);
}

/** The rule-based sentence-form rewrite. */
export function sentenceFormText(prompt: string, form: 'interrogative' | 'imperative'): string {
  const trimmed = prompt.trim();
  const first = firstWordLower(trimmed);
  const body = stripEndPunctuation(trimmed);
  if (isQuestion(trimmed)) {
    if (WH_WORDS.has(first)) {
      // "Who is X?" -> "Can you tell me who is X?" / "Tell me who is X."
      return form === 'interrogative'
        ? `Can you tell me ${lowerFirst(body)}?`
        : `Tell me ${lowerFirst(body)}.`;
    }
    // A yes/no question cannot be embedded without inverting it; frame it instead.
    const q = trimmed.endsWith('?') ? trimmed : `${body}?`;
    return form === 'interrogative'
      ? `Can you answer this: ${upperFirst(q)}`
      : `Answer the following: ${upperFirst(q)}`;
  }
  // An instruction or statement: "Write a poem." -> "Could you write a poem?" / "Do this task: Write a poem."
  return form === 'interrogative'
    ? `Could you ${lowerFirst(stripPlease(body))}?`
    : `Do this task: ${upperFirst(trimmed)}`;
}

/** The rule-based length rewrite and the word-count ratio it reached. */
export function lengthText(prompt: string, multiplier: number): { text: string; achievedRatio: number } {
  const words = pySplit(prompt);
  const n = words.length;
  if (n === 0) return { text: prompt, achievedRatio: 1 };
  const target = Math.max(1, Math.floor(multiplier * n + 0.5));
  const text = multiplier < 1 ? compress(prompt, target) : expand(prompt, target);
  return { text, achievedRatio: pySplit(text).length / n };
}

/** Drop function words left to right until the target word count (words carrying punctuation stay). */
function compress(prompt: string, target: number): string {
  const words = pySplit(prompt);
  const keep = words.map(() => true);
  let count = words.length;
  for (let i = 0; i < words.length && count > target; i++) {
    const w = words[i] as string;
    if (/^[A-Za-z']+$/.test(w) && FUNCTION_WORDS.has(w.toLowerCase())) {
      keep[i] = false;
      count--;
    }
  }
  const kept = words.filter((_, i) => keep[i]);
  if (kept.length === 0) return prompt;
  const out = kept.join(' ');
  // The sentence still starts with a capital if the original did.
  return /^\p{Lu}/u.test(prompt.trim()) ? upperFirst(out) : out;
}

/**
 * Add the opening, then each closing sentence that brings the word count no farther from the target
 * (scanning the whole list, so different multipliers reach different lengths). If the list runs
 * out short of the target, the prompt is restated and the scan repeats.
 */
function expand(prompt: string, target: number): string {
  const question = isQuestion(prompt);
  const thing = question ? 'question' : 'request';
  let count = pySplit(prompt).length;
  const closer = (text: string) => {
    const add = pySplit(text).length;
    // Below the target, a tie counts as closer: reaching past the target beats stopping short.
    if (count >= target || Math.abs(count + add - target) > Math.abs(count - target)) return false;
    count += add;
    return true;
  };
  const opening = question ? OPENING : OPENING_REQUEST;
  const head = closer(opening) ? [opening] : [];
  const tail: string[] = [];
  const restate = `To restate the ${thing}: ${prompt.trim()}`;
  // Each round scans every closing sentence; a long prompt may need the restatement and more rounds.
  for (let round = 0; round < 20 && count < target; round++) {
    let added = false;
    for (const template of CLOSINGS) {
      const sentence = template.replaceAll('{thing}', thing);
      if (closer(sentence)) {
        tail.push(sentence);
        added = true;
      }
    }
    if (count < target && closer(restate)) {
      tail.push(restate);
      added = true;
    }
    if (!added) break;
  }
  // A prompt without final punctuation (NQ-open's are lowercase, unpunctuated) gets one, so the
  // added sentences do not run on into it.
  let body = prompt.trim();
  if (tail.length > 0 && !/[.?!:;]$/u.test(body)) body += question ? '?' : '.';
  return [...head, body, ...tail].join(' ');
}

export function structuralVariation(
  prompt: string,
  subtype: StructuralSubtype,
  strength: number = subtype === 'length' ? 2 : FORM_STRENGTH,
): Variation {
  const base = {
    family: 'structural' as const,
    subtype,
    strength,
    position: 'global' as const,
    generator: 'rules',
  };
  if (subtype === 'length') {
    if (!(LENGTH_MULTIPLIERS as readonly number[]).includes(strength)) {
      throw new RangeError(
        `length multiplier must be one of ${LENGTH_MULTIPLIERS.join(', ')}; got ${strength}`,
      );
    }
    const { text, achievedRatio } = lengthText(prompt, strength);
    return { ...base, text, achievedRatio };
  }
  if (strength !== FORM_STRENGTH)
    throw new RangeError(`${subtype} has no graded strength; use ${FORM_STRENGTH}`);
  return { ...base, text: sentenceFormText(prompt, subtype) };
}

/** Every rule-based structural variation: five lengths and both sentence forms, all global. */
export function structuralVariations(prompt: string): Variation[] {
  return [
    ...LENGTH_MULTIPLIERS.map((m) => structuralVariation(prompt, 'length', m)),
    structuralVariation(prompt, 'interrogative'),
    structuralVariation(prompt, 'imperative'),
  ];
}

/**
 * The instruction for the `generator` role to produce the structural variant (the sago protocol
 * sends it and parses the reply with `parseGeneratedVariant`). It asks for the same request in a
 * new shape, nothing answered, nothing added, and the reply alone.
 */
export function structuralInstructions(prompt: string, subtype: StructuralSubtype, strength: number): string {
  const words = pySplit(prompt).length;
  let task: string;
  if (subtype === 'length') {
    if (!(LENGTH_MULTIPLIERS as readonly number[]).includes(strength)) {
      throw new RangeError(
        `length multiplier must be one of ${LENGTH_MULTIPLIERS.join(', ')}; got ${strength}`,
      );
    }
    const target = Math.max(1, Math.floor(strength * words + 0.5));
    task =
      strength < 1
        ? `Compress the prompt to about ${strength} times its length: about ${target} words instead of ${words}. Keep every element that decides the answer; drop only wording.`
        : `Expand the prompt to about ${strength} times its length: about ${target} words instead of ${words}. Add only neutral elaboration (restating, clarifying what is already there); add no new facts, conditions, hints, greetings, thanks or politeness.`;
  } else if (subtype === 'interrogative') {
    task =
      'Rewrite the prompt as a question (interrogative form), ending with a question mark. Keep its length, tone and every detail.';
  } else {
    task =
      'Rewrite the prompt as an instruction in the imperative mood (a command such as "Name ..." or "Explain ..."), not a question. Keep its length, tone and every detail.';
  }
  return [
    'You rewrite prompts for a robustness test. The rewritten prompt must ask for exactly the same thing as the original, so that the correct answer is unchanged.',
    task,
    'Do not answer the prompt. Reply with the rewritten prompt only, on one line, without quotes or labels.',
    '',
    `Original prompt: ${prompt.trim()}`,
  ].join('\n');
}

/**
 * The rewritten prompt from a generator's reply: the text without a leading label ("Rewritten
 * prompt:") or wrapping quotes / code fences; `undefined` when nothing usable is left.
 */
export function parseGeneratedVariant(reply: string): string | undefined {
  let text = reply.trim();
  text = text
    .replace(/^```[a-z]*\s*\n?/i, '')
    .replace(/\n?```$/, '')
    .trim();
  const label =
    /^(?:\*\*)?(?:rewritten|compressed|expanded|new|revised)?\s*(?:prompt|question|instruction)(?:\*\*)?\s*:\s*/i;
  text = text.replace(label, '').trim();
  const quotes: [string, string][] = [
    ['"', '"'],
    ['\u201c', '\u201d'],
    ["'", "'"],
    ['\u2018', '\u2019'],
  ];
  for (const [open, close] of quotes) {
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close)) text = text.slice(1, -1).trim();
  }
  return text === '' ? undefined : text;
}

function firstWordLower(text: string): string {
  return (pySplit(text)[0] ?? '').replace(/[^\p{L}']/gu, '').toLowerCase();
}

function stripEndPunctuation(text: string): string {
  return text.replace(/[\s.?!]+$/u, '');
}

function stripPlease(text: string): string {
  return text.replace(/^please[,\s]+/i, '');
}

/** Lower-case the first letter unless the first word is "I" or an acronym (an instruction starts with a verb). */
function lowerFirst(text: string): string {
  const bare = (pySplit(text)[0] ?? '').replace(/[^\p{L}]/gu, '');
  if (bare === 'I' || (bare.length > 1 && bare === bare.toUpperCase())) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
