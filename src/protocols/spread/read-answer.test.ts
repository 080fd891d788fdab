import { describe, expect, it } from 'vitest';
import { readAnswer } from './read-answer.js';

const roman = {
  labels: ['i.', 'ii.', 'iii.'],
  bare: ['i', 'ii', 'iii'],
  options: ['oxygen', 'carbon dioxide', 'neon'],
};

describe('a reply read as an option of its template', () => {
  it('reads the label as written, the longest first (ii is not i)', () => {
    expect(readAnswer(' ii. carbon dioxide', roman)).toEqual({ choice: 1, via: 'label' });
    expect(readAnswer('iii.', roman)).toEqual({ choice: 2, via: 'label' });
  });
  it('reads a bare or differently wrapped label, not a word that starts with it', () => {
    expect(readAnswer('(ii) because', roman)).toEqual({ choice: 1, via: 'bare-label' });
    expect(readAnswer('iii', roman)).toEqual({ choice: 2, via: 'bare-label' });
    expect(readAnswer('it is oxygen', roman)).toEqual({ via: 'unparsed' });
  });
  it("reads an option's text, and nothing else", () => {
    expect(readAnswer('Carbon dioxide, surely', roman)).toEqual({ choice: 1, via: 'option-text' });
    expect(readAnswer('', roman)).toEqual({ via: 'unparsed' });
  });
  it('keeps case apart where the enumerators differ by it, and folds Unicode numerals', () => {
    const upper = { labels: ['A)', 'B)'], bare: ['A', 'B'], options: ['x', 'y'] };
    expect(readAnswer('b', upper)).toEqual({ via: 'unparsed' });
    const numerals = { labels: ['Ⅰ.', 'Ⅱ.'], bare: ['Ⅰ', 'Ⅱ'], options: ['x', 'y'] };
    expect(readAnswer('II', numerals)).toEqual({ choice: 1, via: 'bare-label' });
  });
});
