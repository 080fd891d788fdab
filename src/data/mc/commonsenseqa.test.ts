import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir, sharedFile } from '../../test-support/shared.js';
import { loadCommonsenseQa } from './commonsenseqa.js';

const CSQA = sharedFile('data/commonsenseqa/dev_rand_split.jsonl');
const withCsqa = CSQA ? describe : describe.skip;

withCsqa(
  `CommonsenseQA from ../shared/data ${CSQA ? '' : `(skipped: ${resolve(sharedDir, 'data/commonsenseqa/dev_rand_split.jsonl')} is not there)`}`,
  () => {
    it('loads all 1221 items with 5 lettered options and the dataset ids and keys', () => {
      const items = loadCommonsenseQa(CSQA as string);
      expect(items).toHaveLength(1221);
      expect(items.every((i) => i.options.map((o) => o.letter).join('') === 'ABCDE')).toBe(true);
      const keys: Record<string, number> = {};
      for (const i of items) keys[i.key] = (keys[i.key] ?? 0) + 1;
      expect(keys).toEqual({ A: 239, B: 255, C: 241, D: 251, E: 235 });
      expect(items[0]).toMatchObject({
        id: '1afa02df02c908a558b4036e80242fac',
        key: 'A',
        category: 'commonsense',
        stem: 'A revolving door is convenient for two direction travel, but it also serves as a security measure at a what?',
      });
      expect(items[0]?.source).toBe(
        'commonsenseqa:1afa02df02c908a558b4036e80242fac (concept: revolving door)',
      );
    });
  },
);

describe('loadCommonsenseQa on bad rows', () => {
  it('names the item and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-csqa-'));
    const path = join(dir, 'csqa.jsonl');
    const row = {
      id: 'x1',
      answerKey: 'F',
      question: {
        stem: 'q?',
        choices: [
          { label: 'A', text: 'a' },
          { label: 'B', text: 'b' },
        ],
      },
    };
    writeFileSync(path, `${JSON.stringify(row)}\n`);
    expect(() => loadCommonsenseQa(path)).toThrow("item 'x1': key 'F' is not one of the options (A, B)");
    writeFileSync(path, `${JSON.stringify({ ...row, question: { choices: [] } })}\n`);
    expect(() => loadCommonsenseQa(path)).toThrow(/^question.stem: item 'x1': /);
  });
});
