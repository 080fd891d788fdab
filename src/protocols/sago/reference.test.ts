import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/store.js';
import { writeCells } from '../../test-support/check/stores.js';
import { SAGO_MODELS } from '../../test-support/protocols/sago/store.js';
import { bleuPair } from '../../text-measures/bleu.js';
import { PAPER_SWITCHES, REFERENCE_SWITCHES, SagoConfig } from './config.js';
import { normalizedManifest, type SagoManifest, saveManifest } from './manifest.js';
import { loadSagoResults, type SagoTestMeta } from './results.js';
import { responsesSuite } from './run.js';
import { ruleVariations } from './variants.js';

/** The reference compatibility switches (docs/fidelity.md#sago) on waver's own runs. */

const prompts = ['Why is the sky blue?', 'What is fog?'].map((text, i) => ({
  key: `builtin::q${i}`,
  prompt: { id: `q${i}`, dataset: 'builtin', text, source: { file: 'test' } },
}));

describe('the sago reference setting', () => {
  it("defaults to the paper; reference: true gives every unset switch the authors' value; a set switch wins", () => {
    const pick = (s: SagoConfig) => ({
      bleuMode: s.bleuMode,
      deltaBaseline: s.deltaBaseline,
      sentenceForm: s.sentenceForm,
      zeroStrength: s.zeroStrength,
      positions: s.positions,
      closedModelSubset: s.closedModelSubset,
    });
    expect(pick(SagoConfig.parse({}))).toEqual(PAPER_SWITCHES);
    expect(pick(SagoConfig.parse({ reference: true }))).toEqual(REFERENCE_SWITCHES);
    expect(pick(SagoConfig.parse({ reference: true, bleuMode: 'sentence', zeroStrength: 'in-set' }))).toEqual(
      {
        ...REFERENCE_SWITCHES,
        bleuMode: 'sentence',
        zeroStrength: 'in-set',
      },
    );
    // Parsing what a parse gave keeps it (the config is parsed again where a protocol reads it).
    const once = SagoConfig.parse({ reference: true, sentenceForm: 'against-prompt' });
    expect(SagoConfig.parse(once)).toEqual(once);
    // The authors' published noise rules are the default mirroring rules either way.
    expect(SagoConfig.parse({}).mirroringRules).toBe('sago-reference');
  });

  it('reference variation set: global only, the closed-model register strengths, no strength-0 row in V', () => {
    const [paper] = ruleVariations(prompts, SagoConfig.parse({}), 0);
    const [reference] = ruleVariations(prompts, SagoConfig.parse({ reference: true }), 0);
    expect(paper?.variants).toHaveLength(83);
    const positions = new Set(
      reference?.variants.filter((v) => v.family !== 'structural').map((v) => v.position),
    );
    expect([...positions]).toEqual(['global']);
    const register = reference?.variants.filter((v) => v.family === 'register').map((v) => v.strength);
    expect(register).toEqual([-10, -6, -2, 2, 6, 10]);
    // 6 register + 15 noise + 7 structural.
    expect(reference?.variants).toHaveLength(28);
  });

  it('strength-zero asks each baseline twice: repeat 1 is the second sample the Delta subtracts', () => {
    const sets = ruleVariations(prompts, SagoConfig.parse({ families: ['noise'] }), 0);
    const paper = responsesSuite(sets);
    const zero = responsesSuite(sets, { deltaBaseline: 'strength-zero' });
    const baselines = (s: typeof paper) =>
      s.tests.filter((t) => (t.meta as unknown as SagoTestMeta).role === 'baseline').map((t) => t.repeats);
    expect(baselines(paper)).toEqual([undefined, undefined]);
    expect(baselines(zero)).toEqual([2, 2]);
  });

  it('Delta against the second baseline sample, and the imperative against the interrogative rewrite', () => {
    const settings = SagoConfig.parse({
      families: ['noise', 'structural'],
      strengths: { spacing: [5], punctuation: [3], casing: [50], length: [2] },
      deltaBaseline: 'strength-zero',
      sentenceForm: 'imperative-vs-interrogative',
    });
    const suite = responsesSuite(ruleVariations(prompts, settings, 0), settings);
    const store = openStore(':memory:');
    const [model] = SAGO_MODELS;
    if (!model) throw new Error('no model');
    const BLUE = 'the answer is that air scatters blue light';
    const GREY = 'the answer is that the sky looks grey';
    const GREEN = 'it is green because of plants';
    // Repeat 0 of every test answers BLUE; the baseline's repeat 1 (the second sample) GREY;
    // the interrogative rewrite GREEN and the imperative GREY.
    writeCells(
      store,
      suite,
      [{ label: model.label, identity: model.identity, answer: (_t, repeat) => repeat === 0 }],
      (test, first) => {
        const meta = test.meta as unknown as SagoTestMeta;
        if (meta.subtype === 'interrogative') return GREEN;
        if (meta.subtype === 'imperative') return GREY;
        return first ? BLUE : GREY;
      },
    );
    const manifest: SagoManifest = {
      version: 1,
      responsesSuite: suite.hash,
      models: [model],
      seed: 0,
      minCoverage: 0.9,
      settings: { ...settings, structural: 'rules', axes: ['bleu'] },
      datasets: [{ name: 'builtin', available: 32, n: 2 }],
      rejected: [],
    };
    saveManifest(store, manifest);
    const r = loadSagoResults(store, suite.hash, { ablations: false });
    const m = r.models[0];
    expect(m?.coverage).toMatchObject({ total: suite.tests.length + 2, done: suite.tests.length + 2 });
    // The interrogative rewrite is the imperative's reference, not a column of V.
    expect(r.variations.map((v) => v.subtype)).not.toContain('interrogative');
    const V = r.variations.length;
    const bleu = m?.table.deltas.bleu as Float64Array;
    const col = (subtype: string) => r.variations.findIndex((v) => v.subtype === subtype);
    const b = (hyp: string) => bleuPair(hyp, BLUE, 'sentence').score;
    // A noise variant answering like the baseline: BLEU(y_v, y) - BLEU(y', y) = 100 - BLEU(GREY, BLUE), not 0.
    expect(bleu[col('spacing')]).toBeCloseTo(100 - b(GREY), 9);
    expect(bleu[V + col('casing')]).toBeCloseTo(100 - b(GREY), 9);
    // The imperative: BLEU(GREY, BLUE) - BLEU(GREEN, BLUE).
    expect(bleu[col('imperative')]).toBeCloseTo(b(GREY) - b(GREEN), 9);

    // The same store read with the paper's Delta: a variant answering like the baseline moves by 0.
    const paper = loadSagoResults(store, suite.hash, {
      ablations: false,
      manifest: {
        ...manifest,
        settings: { ...manifest.settings, deltaBaseline: 'self', sentenceForm: 'against-prompt' },
      },
    });
    const p = paper.models[0]?.table.deltas.bleu as Float64Array;
    const pcol = (subtype: string) => paper.variations.findIndex((v) => v.subtype === subtype);
    expect(p[pcol('spacing')]).toBe(0);
    expect(p[pcol('interrogative')]).toBeCloseTo(b(GREEN) - 100, 9);
    store.close();
  });

  it('a manifest stored before the switches reads as it was computed: the paper, and the density rules', () => {
    const settings = SagoConfig.parse({});
    const { reference, deltaBaseline, sentenceForm, zeroStrength, positions, mirroringRules, ...old } =
      settings;
    const m = normalizedManifest({
      version: 1,
      responsesSuite: 'x',
      models: [],
      seed: 0,
      minCoverage: 0.9,
      settings: { ...old, structural: 'rules' } as unknown as SagoManifest['settings'],
      datasets: [],
      rejected: [],
    });
    expect(m.settings).toMatchObject({ ...PAPER_SWITCHES, reference: false, mirroringRules: 'density' });
  });
});
