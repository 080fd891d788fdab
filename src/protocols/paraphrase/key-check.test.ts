import { describe, expect, it } from 'vitest';
import type { McItem } from '../../data/mc/mc-item.js';
import { KeyMismatchError, verifyKeys } from './key-check.js';

const item = (over: Partial<McItem>): McItem => ({
  id: 'lamp',
  stem: 'A lamp costs $63 after a 30% discount. What was its price before?',
  options: [
    { letter: 'A', text: '$81.90' },
    { letter: 'B', text: '$90' },
    { letter: 'C', text: '$93' },
    { letter: 'D', text: '$96' },
  ],
  key: 'B',
  category: 'quantitative',
  source: 'test',
  rule: { kind: 'arithmetic', expression: '63 / (1 - 30 / 100)' },
  ...over,
});

function mismatch(items: McItem[], file?: string): KeyMismatchError {
  try {
    verifyKeys(items, { file });
  } catch (e) {
    if (e instanceof KeyMismatchError) return e;
    throw e;
  }
  throw new Error('expected a KeyMismatchError');
}

describe('verifyKeys', () => {
  it('confirms keys its rules recompute and lists the keys it had to trust', () => {
    const check = verifyKeys([item({}), item({ id: 'plain', rule: undefined })]);
    expect(check.verified).toEqual([{ item: 'lamp', rule: '63 / (1 - 30 / 100)', computed: 90 }]);
    expect(check.unverified).toEqual(['plain']);
  });

  it('stops at a wrong key, naming the item, the stated key and what the rule computes', () => {
    const e = mismatch([item({ key: 'C' })], 'items.jsonl');
    expect(e.format()).toBe(
      "items.jsonl: key: item 'lamp': key C ($93) does not match its rule (63 / (1 - 30 / 100)), which computes 90 (option B: $90); no model was called",
    );
    expect(e.items).toEqual(['lamp']);
  });

  it('says when the computed value is none of the options, or several', () => {
    expect(mismatch([item({ rule: { kind: 'arithmetic', expression: '63 * 1.5' } })]).reason).toBe(
      "item 'lamp': key B ($90), but its rule (63 * 1.5) computes 94.5, which is none of the options; no model was called",
    );
    const doubled = item({
      options: [
        { letter: 'A', text: '$90' },
        { letter: 'B', text: '90 dollars' },
      ],
    });
    expect(mismatch([doubled]).message).toContain('which options A and B both state');
  });

  it('reports a broken rule as a failed check, and counts the other bad items', () => {
    const e = mismatch([
      item({ id: 'one', rule: { kind: 'arithmetic', expression: '1 / 0' } }),
      item({ id: 'two', key: 'A' }),
      item({ id: 'three', key: 'D' }),
    ]);
    expect(e.reason).toBe(
      "item 'one': key B ($90) cannot be checked: its rule (1 / 0) failed: '1 / 0' is not a finite number (and 2 more: two, three); no model was called",
    );
    expect(e.items).toEqual(['one', 'two', 'three']);
  });

  it('checks date and code rules too', () => {
    const day = item({
      id: 'day',
      options: [
        { letter: 'A', text: 'Wednesday' },
        { letter: 'B', text: 'Thursday' },
      ],
      key: 'A',
      rule: { kind: 'weekday', date: '2023-06-01' },
    });
    expect(mismatch([day]).message).toContain('computes "Thursday" (option B: Thursday)');
    const coded = item({ rule: { kind: 'code', describe: 'a puzzle solver', compute: () => '$96' } });
    expect(mismatch([coded]).message).toContain(
      'does not match its rule (a puzzle solver), which computes "$96" (option D: $96)',
    );
  });
});
