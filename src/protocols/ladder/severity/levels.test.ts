import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputErrorOf } from '../../../test-support/scratch.js';
import { CONFIG } from '../../index.js';
import { expansionRatio } from '../families/cl/severity.js';
import { addedMarkup } from '../families/f/severity.js';
import { ladderFamily } from '../families/registry.js';
import { type BandTable, levelFromBands } from './bands.js';
import { BandTablesSchema, DEFAULT_BANDS, resolveBandTables } from './levels.js';
import { measureSeverity } from './measure.js';

/** 100 letters; replacing the last k by digits gives ratio 1 - k/100, i.e. magnitude k/100. */
const O = 'abcdefghij'.repeat(10);
const withMagnitude = (k: number) => O.slice(0, 100 - k) + '0'.repeat(k);

describe('levelFromBands: first band in L1..L5 order with lo <= score < hi', () => {
  it('gives the lowest level where bands overlap (IQ, F and CI overlap on purpose)', () => {
    expect(levelFromBands(DEFAULT_BANDS.IQ as BandTable, 0.04)).toBe(1); // in [0,.05) and [.03,.10)
    expect(levelFromBands(DEFAULT_BANDS.IQ as BandTable, 0.05)).toBe(2); // hi is exclusive
    expect(levelFromBands(DEFAULT_BANDS.IQ as BandTable, 0.09)).toBe(2); // in [.03,.10) and [.08,.18)
    expect(levelFromBands(DEFAULT_BANDS.F as BandTable, 0.05)).toBe(1);
    expect(levelFromBands(DEFAULT_BANDS.F as BandTable, 0.13)).toBe(3);
    expect(levelFromBands(DEFAULT_BANDS.CI as BandTable, 0.13)).toBe(1);
    expect(levelFromBands(DEFAULT_BANDS.CI as BandTable, 0.4)).toBe(4);
  });

  it('says undefined outside every band, and the generic scale covers everything from 0', () => {
    expect(levelFromBands(DEFAULT_BANDS.SV as BandTable, 0.04)).toBeUndefined();
    expect(levelFromBands(DEFAULT_BANDS.SV as BandTable, 0.95)).toBeUndefined();
    expect([0, 0.0999, 0.1, 0.25, 0.5, 0.75, 1].map((s) => levelFromBands(DEFAULT_BANDS.generic, s))).toEqual(
      [1, 1, 2, 3, 4, 5, 5],
    );
  });
});

/** IQ and F levelled by their magnitude bands, as the reference code (the default reads their content). */
const MEASURE = { levelBy: 'measure' } as const;

describe('measureSeverity', () => {
  it('levels IQ by the share of words altered and F by its kind of layout, the magnitude still measured (levelBy content, the default)', () => {
    const o =
      'Ann has five red apples and she wants to share them with her three best friends today at noon.';
    const one = o.replace('share', 'shaer');
    // Four slips in 19 words (21%): L4 by its words, where the magnitude alone bins it lower.
    const four = one.replace('apples', 'aples').replace('wants', 'wnats').replace('friends', 'freinds');
    expect(measureSeverity(ladderFamily('IQ'), o, one)).toMatchObject({ level: 1, via: 'content' });
    const s = measureSeverity(ladderFamily('IQ'), o, four);
    expect(s).toMatchObject({ level: 4, via: 'content' });
    expect(measureSeverity(ladderFamily('IQ'), o, four, MEASURE).level).not.toBe(4);
    expect(s.magnitude).toBe(measureSeverity(ladderFamily('IQ'), o, four, MEASURE).magnitude);
    expect(measureSeverity(ladderFamily('F'), o, `# ${o}`)).toMatchObject({ level: 2, via: 'content' });
    expect(measureSeverity(ladderFamily('F'), o, o.replace(' she', '\n\nshe'))).toMatchObject({ level: 1 });
  });

  it('bins the magnitude with the family bands, first band winning', () => {
    const s = measureSeverity(ladderFamily('IQ'), O, withMagnitude(4), MEASURE);
    expect(s).toEqual({ sim: 0.96, magnitude: 0.04, score: 0.04, level: 1, via: 'band' });
    expect(measureSeverity(ladderFamily('CI'), O, withMagnitude(13)).level).toBe(1);
    expect(measureSeverity(ladderFamily('SV'), O, withMagnitude(40))).toMatchObject({
      level: 3,
      via: 'band',
    });
  });

  it('gives no level outside every band of the family, unless told to fall back to the generic scale', () => {
    // Issue 11: IQ/CI scores far past their L5 band were silently binned L4/L5 by the generic scale.
    expect(measureSeverity(ladderFamily('SV'), O, withMagnitude(3))).toMatchObject({
      level: undefined,
      via: 'band',
    });
    expect(measureSeverity(ladderFamily('CI'), O, withMagnitude(70)).level).toBeUndefined();
    expect(measureSeverity(ladderFamily('IQ'), O, withMagnitude(61), MEASURE).level).toBeUndefined();
    const fallback = { genericFallback: true };
    expect(measureSeverity(ladderFamily('SV'), O, withMagnitude(3), fallback)).toMatchObject({
      magnitude: 0.03,
      level: 1,
      via: 'generic',
    });
    expect(measureSeverity(ladderFamily('SV'), O, withMagnitude(97), fallback)).toMatchObject({
      magnitude: 0.97,
      level: 5,
      via: 'generic',
    });
    expect(measureSeverity(ladderFamily('CI'), O, withMagnitude(70), fallback)).toMatchObject({
      level: 4,
      via: 'generic',
    });
  });

  it('makes a Format L1 candidate that adds # - > * | or ` an L2, and only then', () => {
    const plain = measureSeverity(ladderFamily('F'), O, `${O.slice(0, 50)}\n\n  ${O.slice(50)}`, MEASURE);
    expect(plain).toMatchObject({ level: 1, via: 'band' });
    for (const mark of ['#', '-', '>', '*', '|', '`']) {
      expect(measureSeverity(ladderFamily('F'), O, `${mark} ${O}`, MEASURE)).toMatchObject({
        level: 2,
        via: 'format-l1-rule',
      });
    }
    // the original has '-' already: adding more is no new markup
    const dashed = `${O.slice(0, 50)}-${O.slice(50)}`;
    expect(measureSeverity(ladderFamily('F'), dashed, `-- ${dashed}`, MEASURE)).toMatchObject({
      level: 1,
      via: 'band',
    });
    // below F's L1 band: no level, or L1 by the generic scale; with new markup an L2 either way
    expect(measureSeverity(ladderFamily('F'), O, `${O} `, MEASURE)).toMatchObject({
      magnitude: 0.005,
      level: undefined,
    });
    expect(
      measureSeverity(ladderFamily('F'), O, `${O} `, { levelBy: 'measure', genericFallback: true }),
    ).toMatchObject({
      level: 1,
      via: 'generic',
    });
    expect(measureSeverity(ladderFamily('F'), O, `${O}#`, MEASURE)).toMatchObject({
      level: 2,
      via: 'format-l1-rule',
    });
    // higher levels are left alone
    expect(measureSeverity(ladderFamily('F'), O, `| ${withMagnitude(10)}`, MEASURE)).toMatchObject({
      level: 3,
      via: 'band',
    });
    expect(addedMarkup('a - b', '# a - b `c`')).toEqual(['#', '`']);
  });

  it('bins Conflict Instruction Stress by CES (CES 0 counts as L1)', () => {
    const q = 'Tom has 3 pens. How many pens does he have?';
    expect(measureSeverity(ladderFamily('CIS'), q, `${q} Pens are blue.`)).toMatchObject({
      ces: 0,
      cesNorm: 0,
      level: 1,
      via: 'ces',
    });
    expect(measureSeverity(ladderFamily('CIS'), q, `${q} Ignore the pens.`)).toMatchObject({
      ces: 3,
      cesNorm: 0.5,
      level: 3,
      score: 3,
    });
  });

  it('takes the Knowledge Boundary level from the boundary type, whatever the magnitude', () => {
    expect(
      measureSeverity(ladderFamily('KB'), O, withMagnitude(90), { kbType: 'missing-information' }).level,
    ).toBe(1);
    expect(
      measureSeverity(ladderFamily('KB'), O, withMagnitude(2), { kbType: 'impossible-premise' }),
    ).toMatchObject({
      level: 5,
      via: 'kb-type',
      magnitude: 0.02,
    });
    expect(inputErrorOf(() => measureSeverity(ladderFamily('KB'), O, O)).field).toBe('kbType');
  });

  it("records the Context Load expansion ratio and bins by the paper's bands, or the generic scale if told", () => {
    const o = 'one two three four five six seven eight nine ten';
    const g = `Some padding words here. ${o}`; // 14 words / 10
    const loose = measureSeverity(ladderFamily('CL'), o, g, { strictLoadBands: false });
    expect(loose.expansionRatio).toBe(1.4);
    expect(loose.via).toBe('generic'); // CL has no family bands: the reference code's magnitude scale
    expect(measureSeverity(ladderFamily('CL'), o, g)).toMatchObject({
      score: 1.4,
      level: 4,
      via: 'band',
    });
    const far = `${'pad '.repeat(30)}${o}`;
    expect(measureSeverity(ladderFamily('CL'), o, far, { strictLoadBands: true })).toMatchObject({
      level: undefined,
      expansionRatio: 4,
    });
    expect(expansionRatio('a\u001cb', 'a c\ufeffd')).toBe(1); // Python's split(): 2 words and 2 words
  });

  it('uses configured bands, keeping the defaults for tables left out', () => {
    const custom = {
      SV: [
        [0, 0.5],
        [0.5, 0.6],
        [0.6, 0.7],
        [0.7, 0.8],
        [0.8, 0.9],
      ] as unknown as BandTable,
    };
    expect(measureSeverity(ladderFamily('SV'), O, withMagnitude(40), { bands: custom }).level).toBe(1);
    expect(
      measureSeverity(ladderFamily('IQ'), O, withMagnitude(4), { levelBy: 'measure', bands: custom }).level,
    ).toBe(1);
    const cl = { CL: DEFAULT_BANDS.CI };
    expect(
      measureSeverity(ladderFamily('CL'), O, withMagnitude(13), { bands: cl, strictLoadBands: false }),
    ).toMatchObject({
      level: 1,
      via: 'band',
    });
  });

  it('knows no family by a code nobody registered', () => {
    expect(inputErrorOf(() => ladderFamily('XX')).field).toBe('families');
  });
});

describe('band tables as config', () => {
  it('reject a table that is not increasing, naming the key', () => {
    const bad = {
      IQ: [
        [0, 0.05],
        [0.03, 0.1],
        [0.02, 0.18],
        [0.15, 0.3],
        [0.25, 0.5],
      ],
    };
    const err = inputErrorOf(() => resolveBandTables(bad as never));
    expect(err.field).toBe('bands.IQ.2');
    expect(err.message).toMatch(/not increasing/);
    expect(
      inputErrorOf(() =>
        measureSeverity(ladderFamily('IQ'), O, O, { levelBy: 'measure', bands: bad as never }),
      ).field,
    ).toBe('bands.IQ.2');
    const inConfig = inputErrorOf(() =>
      resolveBandTables(bad as never, { file: 'waver.yaml', field: 'ladder.bands' }),
    );
    expect(inConfig.format()).toMatch(/^waver\.yaml: ladder\.bands\.IQ\.2: band table is not increasing/);
  });

  it('in waver.yaml: a table that is not increasing is one error naming file, line and key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waver-bands-'));
    try {
      const file = join(dir, 'waver.yaml');
      writeFileSync(
        file,
        'ladder:\n  bands:\n    IQ:\n      - [0, 0.05]\n      - [0.03, 0.10]\n      - [0.02, 0.18]\n      - [0.15, 0.30]\n      - [0.25, 0.50]\n',
      );
      const err = inputErrorOf(() => CONFIG.loadFile(file));
      expect(err.file).toBe(file);
      expect(err.field).toBe('ladder.bands.IQ.2');
      expect(err.line).toBe(6);
      expect(err.message).toMatch(/not increasing: L3 starts at 0.02/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reject an empty band, a wrong number of bands and unknown keys', () => {
    expect(
      inputErrorOf(() =>
        resolveBandTables({
          SV: [
            [0.2, 0.1],
            [0.3, 0.4],
            [0.4, 0.5],
            [0.5, 0.6],
            [0.6, 0.7],
          ],
        }),
      ).field,
    ).toBe('bands.SV.0');
    expect(inputErrorOf(() => resolveBandTables({ F: [[0, 0.1]] } as never)).field).toMatch(/^bands\.F/);
    expect(inputErrorOf(() => resolveBandTables({ XX: [] } as never)).field).toBe('bands');
  });

  it('accept the defaults, an open last band and a null CL', () => {
    expect(BandTablesSchema.parse(DEFAULT_BANDS)).toEqual(DEFAULT_BANDS);
    expect(resolveBandTables({ CL: null }).CL).toBeNull();
    expect(resolveBandTables()).toBe(DEFAULT_BANDS);
  });
});
