import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedFile } from '../../test-support/shared.js';
import {
  HASHES_ANSWER_PROMPT,
  JSON_ANSWER_PROMPT,
  KB_PROMPT,
  KB_PROMPT_REFERENCE,
  systemPromptFor,
  userMessageFor,
} from './prompts.js';

const paper = sharedFile('spec/papers/ladder-stability-and-failure.txt');

/** The paper's text lost line breaks and braces in typesetting, and writes an em dash as `---`. */
function asTypeset(prompt: string): string {
  return prompt
    .replace(/[{}]/g, '')
    .replace(/\u2014/g, '---')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('the Appendix A prompts', () => {
  it.skipIf(!paper)(
    `are word for word the paper's${paper ? '' : ' (skipped: ../shared/spec/papers/ladder-stability-and-failure.txt missing)'}`,
    () => {
      const text = readFileSync(paper as string, 'utf8').replace(/\s+/g, ' ');
      const appendix = text.slice(text.lastIndexOf('Appendix A. Prompt templates'));
      expect(appendix.length).toBeGreaterThan(100);
      for (const prompt of [JSON_ANSWER_PROMPT, HASHES_ANSWER_PROMPT, KB_PROMPT])
        expect(appendix).toContain(asTypeset(prompt));
    },
  );

  it('keep the JSON example and the #### line on lines of their own', () => {
    expect(JSON_ANSWER_PROMPT).toContain('\n{"ground_truth": <number>}\n');
    expect(HASHES_ANSWER_PROMPT).toContain('\n#### <number>\n');
    expect(KB_PROMPT.endsWith('\n#### <number>')).toBe(true);
  });

  it('use the KB prompt for Knowledge Boundary tests whatever the answer format', () => {
    expect(systemPromptFor('KB', 'json')).toBe(KB_PROMPT);
    expect(systemPromptFor('KB', 'hashes')).toBe(KB_PROMPT);
    expect(systemPromptFor('baseline', 'json')).toBe(JSON_ANSWER_PROMPT);
    expect(systemPromptFor('SV', 'hashes')).toBe(HASHES_ANSWER_PROMPT);
    expect(userMessageFor('What is 2 + 2?')).toBe('QUESTION: What is 2 + 2?');
    // Stripped as the reference's runner strips the field (test_runner.py:82-87): a Format text's
    // leading or trailing line breaks are not sent; those inside are.
    expect(userMessageFor('\n  What is\n2 + 2?\n\n')).toBe('QUESTION: What is\n2 + 2?');
  });

  it("offer the reference code's KB wording (a dash for the paper's comma) as kbPrompt: reference", () => {
    expect(systemPromptFor('KB', 'json', 'reference')).toBe(KB_PROMPT_REFERENCE);
    expect(KB_PROMPT_REFERENCE).toContain('do NOT invent an answer \u2014 briefly explain why');
    expect(KB_PROMPT_REFERENCE.replace(' \u2014', ',')).toBe(KB_PROMPT);
  });
});
