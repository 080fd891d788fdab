import type { Level } from '../../types.js';
import type { FamilyInstructions } from '../contract.js';
import { REPLY_ONLY } from '../instructions.js';
import { CL_EXPANSION_BANDS } from './bands.js';

/** Context Load's word targets: the input's words and the band midpoint times them, floored (as the reference). */
export function loadWordTargets(text: string, level: Level): { input: number; target: number } {
  const input = Math.max(1, text.split(/\s+/).filter(Boolean).length);
  const [min, max] = CL_EXPANSION_BANDS[level - 1] as readonly [number, number];
  return { input, target: Math.floor(input * ((min + max) / 2)) };
}

/** What the model generator asks for Context Load (docs/ladder-families.md#model-instructions). */
export const INSTRUCTIONS: FamilyInstructions = {
  temperatures: [0.1, 0.2, 0.3, 0.4, 0.5],
  number: {
    system: [
      'You pad a math word problem with non-essential material for a robustness test of long inputs.',
      'Include the original problem verbatim, character for character. Add sentences about the same setting,',
      'people and things that contain no quantities, change nothing and give no hint about the answer.',
      'Come as close as you can to the number of words asked for.',
      REPLY_ONLY,
    ].join(' '),
    levels: [
      'Add about 10-20% more words: one short sentence about the setting, before the problem.',
      'Add about 20-30% more words: one or two sentences about the setting, before the problem.',
      'Add about 30-40% more words: two or three sentences about the setting and the people, before the problem.',
      'Add about 40-50% more words: three or four sentences before the problem and possibly one after it.',
      'Add about 50-60% more words: four or five sentences before the problem and one after it.',
    ],
    hints: [
      'Write about the place where it happens.',
      'Write about the people’s day or habits.',
      'Write about the objects and where they come from.',
      'Write about the season, the weather or the time of day.',
    ],
    user: ({ seed, level, task, hint }) => {
      const { input, target } = loadWordTargets(seed.question, level);
      return [
        task,
        `The problem is ${input} words. Write a document of about ${target} words in total.`,
        hint,
        '',
        `PROBLEM (include verbatim):\n${seed.question}`,
      ].join('\n');
    },
  },
  question: {
    rules:
      'Pad the question with non-essential material about its topic that changes nothing, states no fact the answer depends on and gives no hint about the answer.',
    levels: [
      'Add material before the question.',
      'Add material before the question.',
      'Add material before and after the question.',
      'Add material before and after the question.',
      'Add material before and after the question.',
    ],
    choiceExtra: (seed, level) => {
      const { input, target } = loadWordTargets(seed.question, level);
      return `\nThe item is ${input} words. Add about ${target - input} words.`;
    },
    textExtra: (seed, level) => {
      const { input, target } = loadWordTargets(seed.question, level);
      return `\nThe question is ${input} words. Write about ${target} words in total.`;
    },
  },
};
