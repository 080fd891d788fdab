import type { FamilyInstructions } from '../contract.js';
import { DISTRACTOR_ONLY } from '../instructions.js';

/** Numbers as the reference's distractor generator protects them (`$` kept, thousands commas kept). */
export function protectedNumbers(text: string): string[] {
  return [...new Set(text.match(/\$?\d+(?:[.,]\d+)*/g) ?? [])];
}

/** What the model generator asks for Context Interference (docs/ladder-families.md#model-instructions). */
export const INSTRUCTIONS: FamilyInstructions = {
  temperatures: [0.1, 0.2, 0.3, 0.4, 0.5],
  number: {
    system: [
      'You write a distractor for a math word problem, for a robustness test: the problem stays exactly as it is',
      'and your text is appended after it. Write only the new text, never a copy or an edit of the problem.',
      'It should sound related (same people, objects and places) but must not be needed and must not change the',
      'answer: it must not contradict the problem, give the answer or a step towards it, or make the question',
      'ambiguous. Any quantity it mentions belongs to a different person, time or place, never to what the',
      'question asks about. Never use a number that appears in the problem.',
      DISTRACTOR_ONLY,
    ].join(' '),
    levels: [
      'Write ONE short neutral sentence that fits the story but is irrelevant to solving it. It contains no numbers at all.',
      'Write ONE short sentence that is obviously irrelevant and contains exactly ONE number, clearly unrelated to the problem.',
      'Write ONE plausible story detail with exactly ONE new number: it should feel relevant but must not change what is computed.',
      'Write ONE tempting sentence that resembles the problem’s computation (the same kinds of quantities and units) with exactly TWO new numbers, and say explicitly that it does not apply to this question (for example “on a different day” or “separately”).',
      'Write 1-2 sentences forming a realistic mini-scenario of the same kind of computation with exactly THREE new numbers, and say explicitly that it is separate and does not apply here.',
    ],
    hints: [
      'Keep it short and generic.',
      'Tie it to one of the people in the problem.',
      'Tie it to the place or the objects in the problem.',
      'Make it tempting but clearly not required.',
    ],
    // The distractor alone is written: the problem is shown with the numbers it must not use.
    user: ({ seed, task, hint }) => {
      const numbers = protectedNumbers(seed.question);
      return [
        task,
        hint,
        '',
        `PROBLEM:\n${seed.question}`,
        '',
        `PROTECTED NUMBERS (do not use): ${numbers.length > 0 ? numbers.join(', ') : 'none'}`,
      ].join('\n');
    },
  },
  question: {
    rules:
      'Write a distractor: extra sentences that do not change what is asked or its answer, never state or hint at the answer, and never use a number of the question.',
    levels: [
      'Write ONE short neutral sentence that fits the topic but is irrelevant to the answer. No numbers.',
      'Write ONE short sentence that is obviously irrelevant and contains exactly ONE number.',
      'Write ONE plausible detail about the topic that feels relevant but does not change the answer.',
      'Write ONE tempting sentence about a closely related fact, and say explicitly that it does not apply to this question.',
      'Write 1-2 sentences forming a related mini-scenario, and say explicitly that it is separate and does not apply here.',
    ],
  },
};
