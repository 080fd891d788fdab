import type { FamilyInstructions } from '../contract.js';
import { REPLY_ONLY } from '../instructions.js';

/** What the model generator asks for Structural/Format (docs/ladder-families.md#model-instructions). */
export const INSTRUCTIONS: FamilyInstructions = {
  temperatures: [0.3, 0.35, 0.3, 0.4, 0.5],
  number: {
    system: [
      'You change only the layout of a math word problem for a robustness test.',
      'Keep every word and number exactly, in the same order, and add no words at all (no labels, titles or',
      'headers of your own). Change only whitespace, line breaks and markdown symbols.',
      'Give the text once: never repeat it.',
      REPLY_ONLY,
    ].join(' '),
    levels: [
      'Whitespace only: a few extra spaces, line breaks or blank lines between sentences. No markdown symbols at all (none of # - > * | `). You must make at least one visible change.',
      'Use one light markdown device: the first sentence as a # heading, the sentences as - bullets, a > block quote, or a code block.',
      'Lay it out as a document: nested bullets, indentation and block quotes, with sentences broken across lines.',
      'Apply strong layout stress: hard-wrap at a narrow width (30 to 40 characters), wrap inside a block quote, add simple | dividers. Keep at least 3-5 words on every line, never one word per line.',
      'Apply extreme but realistic layout: a markdown table whose cells hold the text in its original order, or OCR-like wraps with nested quotes. Keep at least 3-5 words on every line, and give the text once.',
    ],
    hints: [
      'Prefer line breaks and blank lines.',
      'Prefer block quotes and indentation.',
      'Prefer lists.',
      'Prefer dividers and narrow columns.',
    ],
  },
  question: {
    rules:
      'Change only the layout (line breaks, indentation, bullets, quote blocks, a table, bold): keep every word, in order, and add no words at all.',
    levels: [
      'Change whitespace only (blank lines, indentation): no markup characters.',
      'Use one layout device (bullets, a quote block or bold).',
      'Use nested bullets and hard line breaks.',
      'Use a narrow quote block with short lines (3-5 words each).',
      'Use a markdown table.',
    ],
  },
};
