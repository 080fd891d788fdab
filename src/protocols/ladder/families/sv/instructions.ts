import type { FamilyInstructions } from '../contract.js';
import { REPLY_ONLY } from '../instructions.js';

/** L3-L5: a tone per attempt, rotated (the reference draws one at random). */
const TONES = ['textbook', 'conversational', 'concise', 'narrative'] as const;

const UNITS =
  /\b(?:dollars?|cents?|euros?|pounds?|percent(?:age)?|seconds?|minutes?|hours?|days?|weeks?|months?|years?|meters?|metres?|km|kilometers?|miles?|foot|feet|inch(?:es)?|kg|kilograms?|grams?|lbs?|ounces?|liters?|litres?|ml|gallons?|items?|units?|pieces?)\b|[$€£%]/gi;

/**
 * The anchors: the seed's numbers and units, which the paraphrase must keep. The reference adds
 * "key facts" extracted by a further model call; waver does not make that call (docs/fidelity.md L34).
 */
export function paraphraseAnchors(text: string): string {
  const numbers = [...new Set((text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => n.replace(/,/g, '')))];
  const units = [...new Set((text.match(UNITS) ?? []).map((u) => u.toLowerCase()))].sort();
  const lines = ['ANCHORS (keep exactly):'];
  if (numbers.length > 0) lines.push(`- Numbers: ${numbers.join(', ')}`);
  if (units.length > 0) lines.push(`- Units: ${units.join(', ')}`);
  return lines.length > 1 ? lines.join('\n') : '';
}

/** What the model generator asks for Semantic Variation (docs/ladder-families.md#model-instructions). */
export const INSTRUCTIONS: FamilyInstructions = {
  temperatures: [0.1, 0.2, 0.4, 0.6, 0.8],
  number: {
    system: [
      'You paraphrase grade-school math word problems for a robustness test.',
      'The rewrite must mean exactly the same thing: keep every number exactly as written (same digits and symbols),',
      'every person, object and unit, and the same question; change only the wording.',
      'It must need exactly the same mathematical operations and steps as the original, and ask the same',
      'number of questions (add no intermediate question).',
      'It must read naturally and fluently, as a person would write it, not stilted or machine-like.',
      'Do not add hints, steps or the answer. Use at most 30% more words than the original.',
      REPLY_ONLY,
    ].join(' '),
    levels: [
      'Light touch: replace a few individual words with close synonyms. Keep every sentence, in the same order and with the same structure.',
      'Rephrase whole phrases inside each sentence, not just single words. Keep the same number of sentences, in the same order.',
      'Restructure clauses: switch between active and passive voice, move clauses within a sentence, turn phrases into clauses. You may merge two sentences or split one (at most one sentence more or fewer).',
      'Reorganise the sentences: merge, split and reorder them so that the sentence boundaries clearly differ from the original, keeping every fact.',
      'Rewrite it as a different author would: change the order in which the facts are given (for example, ask the question first), the framing and the style, keeping every fact, number and the question.',
    ],
    hints: [
      'Change the verbs first (has → owns, gave → handed).',
      'Change the nouns first (box → container, store → shop).',
      'Change how the sentences open and join.',
      'Change the adjectives, adverbs and connectives.',
    ],
    user: ({ seed, level, attempt, task, hint }) => {
      const tone = level >= 3 ? [`Write in a ${TONES[(attempt - 1) % TONES.length]} tone.`] : [];
      const anchors = paraphraseAnchors(seed.question);
      return [task, ...tone, hint, ...(anchors ? ['', anchors] : []), '', `PROBLEM:\n${seed.question}`].join(
        '\n',
      );
    },
  },
  question: {
    rules:
      'Paraphrase the question: it must mean exactly the same thing, keep every name, date and number, and ask the same single question, so its correct answer is unchanged. Add no explanation or hint.',
    levels: [
      'Replace one or two words with exact synonyms.',
      'Rephrase whole phrases, not just single words.',
      'Restructure the clauses (move a phrase, change active and passive).',
      'Rewrite the sentence(s) freshly, as a different writer would.',
      'Rewrite it as a different author would, with a different framing and style, keeping the same question.',
    ],
  },
};
