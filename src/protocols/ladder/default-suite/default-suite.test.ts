import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../errors.js';
import { GRADE_SCHOOL_SEEDS } from '../data/grade-school.js';
import { ladderFamily } from '../families/registry.js';
import { measureSeverity } from '../severity/measure.js';
import { scanSuite } from '../suite-scans.js';
import { LadderTestSchema } from '../test-meta.js';
import { fillTable, measureCell } from './fill.js';
import {
  type AcceptedCell,
  DEFAULT_SUITE,
  DEFAULT_SUITE_FILES,
  defaultLadderSuite,
  readDefaultSuite,
  readDefaultSuiteFile,
} from './index.js';
import { measureLine } from './measure.js';

const cells = readDefaultSuite();
const present = [...new Set(cells.map((c) => c.family))];
const accepted = cells.filter((c): c is AcceptedCell => 'text' in c);

function fileOf(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'waver-default-suite-')), 'sv.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const review = { verdict: 'accepted', by: 'a test', criteria: DEFAULT_SUITE.criteria, note: 'n' };
const seed = GRADE_SCHOOL_SEEDS[0]?.id as string;

describe('the default suite files', () => {
  it('holds every cell of the seven families exactly once: 48 seeds x 5 levels, accepted or omitted with a reason', () => {
    expect([...present].sort()).toEqual(['CI', 'CIS', 'CL', 'F', 'IQ', 'KB', 'SV']);
    for (const family of present) {
      const own = cells.filter((c) => c.family === family);
      const keys = new Set(own.map((c) => `${c.seed}/${c.level}`));
      expect(keys.size, family).toBe(own.length);
      expect(own.length, family).toBe(GRADE_SCHOOL_SEEDS.length * 5);
    }
  });

  it('every accepted test passes the mechanical gates, the level check and the gold check, and says who reviewed it', () => {
    const failing = accepted
      .map((c) => ({ c, m: measureCell(c) }))
      .filter(({ m }) => m.gates.some((g) => g.verdict === 'fail'))
      .map(
        ({ c, m }) =>
          `${c.family} L${c.level} ${c.seed}: ${m.gates.find((g) => g.verdict === 'fail')?.reason}`,
      );
    expect(failing).toEqual([]);
    for (const c of accepted) expect(c.review.criteria).toBe(DEFAULT_SUITE.criteria);
  });

  it("records each accepted test's measure, equal to a fresh one (node bench/default-suite.mjs --write)", () => {
    const stale = accepted.filter((c) => JSON.stringify(c.measured) !== JSON.stringify(measureCell(c)));
    expect(stale.map((c) => `${c.file}:${c.line}`)).toEqual([]);
  });

  it('fills every family present at every level', () => {
    for (const row of fillTable(cells).filter((r) => present.includes(r.family)))
      expect(row.accepted, `${row.family} L${row.level}`).toBeGreaterThan(0);
  });
});

describe('the loader', () => {
  it('returns the suite as waver ladder runs it: a baseline per seed, tests with their review record and measured level', () => {
    const { tests, admission } = defaultLadderSuite({ seeds: 2 });
    expect(tests.filter((t) => t.family === 'baseline')).toHaveLength(2);
    for (const t of tests) expect(LadderTestSchema.safeParse(t).success).toBe(true);
    const perturbed = tests.filter((t) => t.family !== 'baseline');
    expect(perturbed.length).toBeGreaterThan(0);
    for (const t of perturbed) {
      expect(t.generator).toMatchObject({
        kind: 'reviewed',
        dataset: DEFAULT_SUITE.name,
        version: DEFAULT_SUITE.version,
      });
      expect(t.gates.at(-1)?.gate).toBe('review');
      expect(t.measuredLevel).toBe(t.requestedLevel);
    }
    expect(admission.context.generator).toContain('reviewed dataset ladder-default v2');
    expect(admission.rows.map((r) => r.family)).toEqual(Object.keys(DEFAULT_SUITE_FILES));
  });

  it('gives the same tests, ids and all, every time (the suite hash keys stores and caches)', () => {
    expect(JSON.stringify(defaultLadderSuite().tests)).toBe(JSON.stringify(defaultLadderSuite().tests));
  });

  it('keeps only the families, levels and first seeds asked for', () => {
    const { tests } = defaultLadderSuite({ seeds: 3, families: [present[0] as string], levels: [2] });
    expect(new Set(tests.map((t) => t.seedId)).size).toBe(3);
    expect(
      new Set(tests.filter((t) => t.family !== 'baseline').map((t) => `${t.family}/${t.requestedLevel}`)),
    ).toEqual(new Set([`${present[0]}/2`]));
  });

  it.each([
    ['not JSON', '{', 1, undefined, 'not valid JSON'],
    ['a missing text', JSON.stringify({ seed, family: 'SV', level: 1, review }), 1, 'text', ''],
    [
      'a level out of range',
      JSON.stringify({ seed, family: 'SV', level: 6, text: 'x', review }),
      1,
      'level',
      '',
    ],
    [
      'an unknown field',
      JSON.stringify({ seed, family: 'SV', level: 1, text: 'x', review, extra: 1 }),
      1,
      'extra',
      'unknown field',
    ],
    ['an empty reason', JSON.stringify({ seed, family: 'SV', level: 1, omitted: '' }), 1, 'omitted', ''],
    [
      'another family',
      JSON.stringify({ seed, family: 'IQ', level: 1, omitted: 'r' }),
      1,
      'family',
      'in the SV file',
    ],
    [
      'an unknown seed',
      JSON.stringify({ seed: 'builtin-nope', family: 'SV', level: 1, omitted: 'r' }),
      1,
      'seed',
      'unknown',
    ],
  ])('rejects %s, naming the file, line and field', (_, line, at, field, message) => {
    const file = fileOf([line]);
    const error = (() => {
      try {
        readDefaultSuiteFile(file, 'SV');
      } catch (e) {
        return e;
      }
    })() as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.file).toBe(file);
    expect(error.line).toBe(at);
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
  });

  it('rejects a cell given twice and lines out of order, on the line that breaks it', () => {
    const omit = (level: number, s = seed) => JSON.stringify({ seed: s, family: 'SV', level, omitted: 'r' });
    expect(() => readDefaultSuiteFile(fileOf([omit(1), omit(2), omit(1)]), 'SV')).toThrow(/first on line 1/);
    const second = GRADE_SCHOOL_SEEDS[1]?.id as string;
    const e = (() => {
      try {
        readDefaultSuiteFile(fileOf([omit(1, second), omit(1)]), 'SV');
      } catch (x) {
        return x as InputError;
      }
    })();
    expect([e?.line, e?.field]).toEqual([2, 'seed']);
  });
});

describe('levels', () => {
  it("are the rules' own: the family's content level (F by its layout), the paper's bands otherwise", () => {
    const seed = GRADE_SCHOOL_SEEDS[0] as (typeof GRADE_SCHOOL_SEEDS)[number];
    const lines = seed.question.split(/(?<=[.?]) /);
    const nested = [`- ${lines[0]}`, ...lines.slice(1).map((l) => `  - ${l}`)].join('\n');
    const quote = lines.map((l) => `> - ${l}`).join('\n');
    const fenced = ['```', ...lines, '```'].join('\n');
    expect([nested, quote, fenced].map((t) => measureLine(seed, 'F', 3, t).level)).toEqual([3, 4, 5]);
    expect(measureLine(seed, 'F', 4, quote).by).toBe('content');
    // Quoted lines ending in " |" (the suite's L4 before review round 4) are one device, a quote: no L4.
    const divided = lines.map((l, i) => `> ${l}${i < lines.length - 1 ? ' |' : ''}`).join('\n');
    expect(measureLine(seed, 'F', 4, divided).level).toBe(2);
    for (const t of [nested, quote, fenced])
      expect(measureLine(seed, 'F', 3, t).level).toBe(
        measureSeverity(ladderFamily('F'), seed.question, t).level,
      );
  });
});

describe("issue 36's scans", () => {
  it('find nothing in the default suite (a weekday is no person; "will each student get" no dangling each)', () => {
    const { tests } = defaultLadderSuite({});
    const hits = [...scanSuite(tests)].flatMap(([scan, found]) =>
      found.map((h) => `${scan}: ${h.family} L${h.level} ${h.seedId}`),
    );
    expect(hits).toEqual([]);
  });
});
