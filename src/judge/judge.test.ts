import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ProtocolModule, withAdapters } from '../protocols/adapters.js';
import { ladderProtocol as ladder, sagoProtocol as sago } from '../protocols/index.js';
import { KB_RUBRIC_SPEC } from '../protocols/ladder/judged.js';
import { roganGladen } from '../stats/rogan-gladen.js';
import type { LabellingSetRecord, LabelRecord } from '../store/store.js';
import { buildReportStore } from '../test-support/report-store.js';
import { inputErrorOf, scratchDir } from '../test-support/scratch.js';
import { correctedEstimates, effectiveCount, peopleLabel } from './corrected.js';
import { inferredRubric, readLabelsCsv } from './labels.js';
import { allocate, populationOf, sampleJudged, stratumOf } from './sample.js';
import { buildJudgedStore, JUDGES } from './test-support/judged-store.js';
import type { JudgedItem } from './types.js';

const [ladderProtocol, sagoProtocol] = (await withAdapters([ladder, sago])) as [
  ProtocolModule,
  ProtocolModule,
];
const judged = (p: Pick<ProtocolModule, 'judged'>) => p.judged as NonNullable<ProtocolModule['judged']>;

describe('judged items through the protocol contract', () => {
  it("lists the ladder's KB verdicts of every judge and its gate verdicts, from the store alone", async () => {
    const store = buildJudgedStore(':memory:');
    const items = await judged(ladderProtocol)(store);
    const kb = items.filter((i) => i.task === 'ladder/kb');
    expect(kb).toHaveLength(24);
    expect(new Set(kb.map((i) => i.id)).size).toBe(24);
    expect(kb.every((i) => i.verdicts.length === 2)).toBe(true);
    // Judge a's reply 5 had no verdict: a missing label, not a 0.
    expect(
      kb.filter((i) => i.verdicts.some((v) => v.judge === JUDGES[0].identity && v.label === undefined)),
    ).toHaveLength(1);
    expect(new Set(kb.map((i) => i.group))).toEqual(new Set(['replay:alpha', 'replay:beta']));
    expect(kb[0]?.item).toMatch(/buys some more/);
    expect(kb[0]?.response).toMatch(/^Response \d+ of replay:/);
    const nli = items.filter((i) => i.task === 'ladder/gate-nli');
    expect(nli).toHaveLength(10);
    expect(nli.map((i) => i.verdicts[0]?.label).filter((l) => l === 'fail')).toHaveLength(4);
    expect(nli[0]?.response).toContain('Anna');
    expect(nli[0]?.item).not.toContain('Anna');
    // The same store read twice lists the same ids (labels stay tied to their items).
    expect((await judged(ladderProtocol)(store)).map((i) => i.id)).toEqual(items.map((i) => i.id));
    store.close();
  });

  it("lists sago's politeness verdicts with the register rubric", async () => {
    const store = buildJudgedStore(':memory:', { politeness: true });
    const items = await judged(sagoProtocol)(store);
    const without = buildReportStore();
    expect(await judged(sagoProtocol)(without)).toEqual([]);
    without.close();
    store.close();
    expect(items.every((i) => i.task === 'sago/politeness-judge' && i.rubric.name === 'register')).toBe(true);
    expect(items.map((i) => [i.response, i.verdicts[0]?.label])).toEqual([
      ['Thank you so much for asking! Fog is a cloud at ground level.', 'polite'],
      ['Fog is a cloud at ground level.', 'neutral'],
      ['Obviously, fog. Look it up.', 'rude'],
      ['<b>Fog</b>', undefined],
    ]);
  });
});

describe('the stratified sample', () => {
  it('gives every stratum one item while n allows, the rest in proportion', () => {
    expect(allocate([10, 5, 1], 4)).toEqual([2, 1, 1]);
    expect(allocate([10, 5, 1], 16)).toEqual([10, 5, 1]);
    expect(allocate([10, 5, 1], 2)).toEqual([1, 1, 0]);
    expect(allocate([6, 6, 6], 9)).toEqual([3, 3, 3]);
  });

  it('is seeded, weighs each item by its stratum, and keeps the population it was drawn from', async () => {
    const store = buildJudgedStore(':memory:');
    const items = await judged(ladderProtocol)(store);
    store.close();
    const a = sampleJudged(items, 16, 5);
    expect(sampleJudged(items, 16, 5)).toEqual(a);
    expect(sampleJudged(items, 16, 6).map((i) => i.id)).not.toEqual(a.map((i) => i.id));
    const strata = new Set(items.map(stratumOf));
    expect(new Set(a.map(stratumOf))).toEqual(strata);
    expect(a.reduce((s, i) => s + i.weight, 0)).toBeCloseTo(items.length, 9);
    const population = populationOf(items);
    expect(population.filter((p) => p.task === 'ladder/kb').reduce((s, p) => s + p.count, 0)).toBe(48);
  });
});

describe('corrected estimates', () => {
  const rubric = KB_RUBRIC_SPEC;
  const item = (id: string, judge: string | undefined, weight = 1): JudgedItem & { weight: number } => ({
    id,
    task: 'ladder/kb',
    strata: {},
    item: '',
    response: '',
    rubric,
    verdicts: [{ judge: 'j', ...(judge !== undefined && { label: judge }) }],
    group: 'm',
    weight,
  });

  it('takes the lower median of the people on an ordinal rubric, the single mode otherwise', () => {
    expect(peopleLabel(rubric, ['1', '0', '0.75'])).toBe('0.75');
    expect(peopleLabel(rubric, ['1', '0'])).toBe('0');
    expect(peopleLabel({ ...rubric, scale: 'binary' }, ['1', '0'])).toBeUndefined();
    expect(peopleLabel({ ...rubric, scale: 'binary' }, ['1', '0', '1'])).toBe('1');
  });

  it("correct the judge's share with Rogan–Gladen and its mean by calibration", () => {
    // The judge says 1 on 8 labelled items: people agree on 6 (1) and call 2 of them 0;
    // it says 0 on 4: people agree on 3 and call 1 of them 1. Population: 60 verdicts 1, 40 verdicts 0.
    const labelled = [
      ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => item(id, '1')),
      ...['w', 'x', 'y', 'z'].map((id) => item(id, '0')),
    ];
    const people: Record<string, string> = {
      a: '1',
      b: '1',
      c: '1',
      d: '1',
      e: '1',
      f: '1',
      g: '0',
      h: '0',
      w: '0',
      x: '0',
      y: '0',
      z: '1',
    };
    const set: LabellingSetRecord = {
      name: 's',
      createdAt: '',
      seed: 0,
      items: labelled.map((i) => ({
        ...i,
        rubric: i.rubric as unknown as Record<string, unknown>,
        verdicts: [...i.verdicts],
        strata: {},
      })),
      population: [
        { task: 'ladder/kb', group: 'm', judge: 'j', label: '1', count: 60 },
        { task: 'ladder/kb', group: 'm', judge: 'j', label: '0', count: 40 },
      ],
    };
    const labels: LabelRecord[] = Object.entries(people).map(([id, label]) => ({
      set: 's',
      item: id,
      rater: 'ann',
      label,
      source: 't',
    }));
    const [mean, share] = correctedEstimates(set, labels, new Set(['j']), { resamples: 400 });
    // Calibration: 0.6 * (6/8) + 0.4 * (1/4) = 0.55 (scores 1 and 0 only here).
    expect(mean?.figure).toBe('KB accuracy');
    expect(mean?.raw).toBeCloseTo(0.6, 12);
    expect(mean?.corrected?.value).toBeCloseTo(0.55, 12);
    expect(mean?.corrected?.low as number).toBeLessThan(0.55);
    expect(mean?.corrected?.high as number).toBeGreaterThan(0.55);
    // Rogan–Gladen: se = 6/7, sp = 3/5 on the labelled items.
    const expected = roganGladen({
      observed: 0.6,
      n: 100,
      sensitivity: 6 / 7,
      nPositive: 7,
      specificity: 3 / 5,
      nNegative: 5,
    });
    expect(share?.figure).toBe('recognition share');
    expect(share?.corrected?.value).toBeCloseTo(expected?.value as number, 12);
    expect(share?.corrected?.value).toBeCloseTo((0.6 + 0.6 - 1) / (6 / 7 + 0.6 - 1), 12);

    // Weighted items count as Kish's effective sample, (sum w)^2 / sum w^2: 1, 1, 2 -> 16 / 6.
    expect(effectiveCount([{ w: 1 }, { w: 1 }, { w: 2 }])).toBeCloseTo(16 / 6, 15);
    expect(effectiveCount([{ w: 3 }, { w: 3 }])).toBe(2);

    // A verdict the labelled sample never saw the judge give: unavailable, never a guess.
    const sparse = {
      ...set,
      population: [...set.population, { task: 'ladder/kb', group: 'm', judge: 'j', label: '0.25', count: 5 }],
    };
    const [none] = correctedEstimates(sparse, labels, new Set(['j']));
    expect(none?.corrected).toBeUndefined();
    expect(none?.unavailable).toBe('no labelled item the judge scored 0.25');
  });
});

describe('labels from a CSV', () => {
  const dir = scratchDir('waver-labels-csv-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const set: LabellingSetRecord = {
    name: 'default',
    createdAt: '',
    seed: 0,
    population: [],
    items: ['kb-a', 'kb-b'].map((id) => ({
      id,
      task: 'ladder/kb',
      strata: {},
      item: '',
      response: '',
      rubric: KB_RUBRIC_SPEC as unknown as Record<string, unknown>,
      verdicts: [],
      weight: 1,
    })),
  };
  const csv = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("reads labels on the rubric as the rubric spells them, with notes, and infers a CSV's scale alone", () => {
    const rows = readLabelsCsv(
      csv('ok.csv', '\ufeffitem,rater,label,notes\nkb-a,ann,1.0,"a, b"\nkb-b,ann,0.25,\n'),
      set,
    );
    expect(rows.map((r) => [r.item, r.label, r.notes, r.line])).toEqual([
      ['kb-a', '1', 'a, b', 2],
      ['kb-b', '0.25', undefined, 3],
    ]);
    expect(inferredRubric(['3', '1', '2', '10']).labels.map((l) => l.value)).toEqual(['1', '2', '3', '10']);
    expect(inferredRubric(['3', '1', '2']).scale).toBe('ordinal');
    expect(inferredRubric(['yes', 'no']).scale).toBe('binary');
    expect(inferredRubric(['cat', 'dog', 'ant']).scale).toBe('nominal');
  });

  it('names the file, line and field of a bad row', () => {
    const at = (text: string) => inputErrorOf(() => readLabelsCsv(csv('bad.csv', text), set)).format();
    expect(at('item,rater\nkb-a,ann\n')).toMatch(/bad\.csv:1: label: missing column 'label'/);
    expect(at('item,rater,label\nkb-a,,1\n')).toMatch(/bad\.csv:2: rater: empty rater/);
    expect(at('item,rater,label\nkb-a,ann,1\nkb-a,ann,0\n')).toMatch(
      /bad\.csv:3: rater: item 'kb-a' is labelled twice by rater 'ann' \(first on line 2\)/,
    );
    expect(at('item,rater,label\n')).toMatch(/bad\.csv:1: no labels/);
  });
});
