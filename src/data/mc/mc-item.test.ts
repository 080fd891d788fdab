import { describe, expect, it } from 'vitest';
import { inputErrorOf } from '../../test-support/scratch.js';
import { checkMcItem, checkMcItems, type McItem, parseMcItem } from './mc-item.js';

const where = { file: 'items.jsonl', line: 3 };

const good = { id: 'q1', stem: 'What is 2 + 2?', options: { A: '3', B: '4' }, key: 'B' };

describe('parseMcItem', () => {
  it('accepts options as an object, an array of texts or an array of {letter|label, text}, and normalises letters', () => {
    const a = parseMcItem(good, where);
    const b = parseMcItem({ ...good, options: ['3', '4'] }, where);
    const c = parseMcItem(
      {
        ...good,
        options: [
          { label: 'a', text: '3' },
          { letter: 'b', text: '4' },
        ],
        key: 'b',
      },
      where,
    );
    for (const item of [a, b, c]) {
      expect(item.options).toEqual([
        { letter: 'A', text: '3' },
        { letter: 'B', text: '4' },
      ]);
      expect(item.key).toBe('B');
    }
    expect(a).toMatchObject({ id: 'q1', category: 'uncategorised', source: 'items.jsonl:3' });
  });

  it('fills an id and category from the dataset defaults, keeps alternates, rules and an integer shuffle seed', () => {
    const item = parseMcItem(
      {
        stem: 'x?',
        options: ['1', '2'],
        key: 'A',
        alternates: ['y?'],
        rule: { kind: 'arithmetic', expression: '0.5 * 2' },
        shuffleSeed: 42,
      },
      where,
      { id: 'line-3', category: 'maths' },
    );
    expect(item).toMatchObject({
      id: 'line-3',
      category: 'maths',
      alternates: ['y?'],
      rule: { kind: 'arithmetic', expression: '0.5 * 2' },
      shuffleSeed: 42,
    });
  });

  it.each([
    [{ ...good, key: 'E' }, 'key', "item 'q1': key 'E' is not one of the options (A, B)"],
    [
      {
        ...good,
        options: [
          { letter: 'A', text: '3' },
          { letter: 'A', text: '4' },
        ],
      },
      'options.A',
      "item 'q1': duplicate option letter 'A'",
    ],
    [{ ...good, options: { A: '3', a: '4' } }, 'options.A', "item 'q1': duplicate option letter 'A'"],
    [{ ...good, options: { A: '4' } }, 'options', "item 'q1': needs at least two options, got 1"],
    [{ ...good, options: [] }, 'options', "item 'q1': needs at least two options, got 0"],
    [{ ...good, shuffleSeed: 1.5 }, 'shuffleSeed', "item 'q1': shuffle seed must be an integer, got 1.5"],
    [{ ...good, shuffleSeed: '7' }, 'shuffleSeed', 'item \'q1\': shuffle seed must be an integer, got "7"'],
    [
      { ...good, options: { AB: '3', B: '4' } },
      'options.AB',
      "item 'q1': option letter 'AB' must be one letter A-Z",
    ],
    [{ ...good, options: { A: ' ', B: '4' } }, 'options.A', "item 'q1': option text must be non-empty"],
    [{ ...good, stem: '  ' }, 'stem', "item 'q1': must be a non-empty string"],
    [{ ...good, answer: 'B' }, 'answer', "item 'q1': unknown field"],
    [{ ...good, rule: { kind: 'eval', code: 'x' } }, 'rule.kind', "item 'q1': "],
    [{ ...good, options: 'A, B' }, 'options', "item 'q1': must be an object of letter -> text"],
  ])('bad input %# names the item and the field', (raw, field, message) => {
    const e = inputErrorOf(() => parseMcItem(raw, where));
    expect(e.field).toBe(field);
    expect(e.file).toBe('items.jsonl');
    expect(e.line).toBe(3);
    expect(e.reason.startsWith(message)).toBe(true);
  });

  it('names an item without an id by its position', () => {
    const e = inputErrorOf(() =>
      parseMcItem({ stem: 'x', options: ['1'], key: 'A' }, { index: 4 }, { id: undefined }),
    );
    expect(e.format()).toBe('id: item #5: missing id');
  });
});

describe('checkMcItems', () => {
  const item = (id: string): McItem => ({
    id,
    stem: 's',
    options: [
      { letter: 'A', text: 'x' },
      { letter: 'B', text: 'y' },
    ],
    key: 'A',
    category: 'c',
    source: 'test',
  });

  it('refuses a duplicate id, naming both positions', () => {
    const e = inputErrorOf(() => checkMcItems([item('a'), item('b'), item('a')], { file: 'd.jsonl' }));
    expect(e.format()).toBe("d.jsonl: id: item 'a': duplicate id (also item #1)");
  });

  it('checks items built in code the same way (a key that is not an option)', () => {
    expect(() => checkMcItem({ ...item('z'), key: 'C' })).toThrow(
      "item 'z': key 'C' is not one of the options (A, B)",
    );
  });
});
