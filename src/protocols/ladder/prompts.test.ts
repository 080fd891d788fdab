import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedFile } from '../../test-support/shared.js';
import {
  answerFormatOfPrompt,
  CHOICE_HASHES_PROMPT,
  CHOICE_JSON_PROMPT,
  CHOICE_KB_PROMPT,
  HASHES_ANSWER_PROMPT,
  JSON_ANSWER_PROMPT,
  KB_PROMPT,
  KB_PROMPT_REFERENCE,
  systemPromptFor,
  TEXT_HASHES_PROMPT,
  TEXT_JSON_PROMPT,
  TEXT_KB_PROMPT,
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

describe("the prompts of choice and text seeds (waver's own: the paper has none)", () => {
  it('ask for a letter or a short answer in the same two formats, and KB the same way', () => {
    expect(systemPromptFor('baseline', 'json', 'waver', 'choice')).toBe(CHOICE_JSON_PROMPT);
    expect(CHOICE_JSON_PROMPT).toContain('\n{"answer": "<letter>"}\n');
    expect(systemPromptFor('SV', 'hashes', 'waver', 'choice')).toBe(CHOICE_HASHES_PROMPT);
    expect(CHOICE_HASHES_PROMPT).toContain('\n#### <letter>\n');
    expect(systemPromptFor('IQ', 'json', 'waver', 'text')).toBe(TEXT_JSON_PROMPT);
    expect(TEXT_JSON_PROMPT).toContain('\n{"answer": "<answer>"}\n');
    expect(systemPromptFor('F', 'hashes', 'waver', 'text')).toBe(TEXT_HASHES_PROMPT);
    expect(systemPromptFor('KB', 'json', 'waver', 'choice')).toBe(CHOICE_KB_PROMPT);
    expect(systemPromptFor('KB', 'hashes', 'waver', 'text')).toBe(TEXT_KB_PROMPT);
    // The KB prompt's flagging sentence is the paper's, word for word.
    const flag =
      'If the question has a false premise, an impossible or fictional scenario, made-up entities, or is missing information needed to';
    for (const p of [KB_PROMPT, CHOICE_KB_PROMPT, TEXT_KB_PROMPT]) expect(p).toContain(flag);
    // Nothing about math outside number seeds.
    for (const p of [
      CHOICE_JSON_PROMPT,
      CHOICE_HASHES_PROMPT,
      TEXT_JSON_PROMPT,
      TEXT_HASHES_PROMPT,
      CHOICE_KB_PROMPT,
      TEXT_KB_PROMPT,
    ])
      expect(p).not.toMatch(/math|number>|numerical/i);
  });

  it('keep the reference KB wording for number seeds only', () => {
    expect(systemPromptFor('KB', 'json', 'reference', 'choice')).toBe(CHOICE_KB_PROMPT);
    expect(systemPromptFor('KB', 'json', 'reference', 'text')).toBe(TEXT_KB_PROMPT);
  });

  it('read back the answer format of any of the six answer prompts', () => {
    expect(answerFormatOfPrompt(CHOICE_HASHES_PROMPT)).toBe('hashes');
    expect(answerFormatOfPrompt(TEXT_JSON_PROMPT)).toBe('json');
    expect(answerFormatOfPrompt(JSON_ANSWER_PROMPT)).toBe('json');
    expect(answerFormatOfPrompt(CHOICE_KB_PROMPT)).toBeUndefined();
  });
});
