import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { inputErrorOf } from '../../../test-support/scratch.js';
import { GRADE_SCHOOL_SEEDS } from '../data/grade-school.js';
import { computeFillTable } from '../fill-table.js';
import { measureSeverity } from '../severity/measure.js';
import { buildLadderSuite } from '../suite.js';
import { Recording, scratchDir, testConfig } from '../test-support/fakes.js';
import { type ChoiceSeed, choiceQuestion, type TextSeed } from '../types.js';
import { generatorRequest } from './model-generator.js';
import { ladderFamilies, ladderFamily, registerLadderFamily } from './registry.js';
import { builtInFamilyCodes } from './roster.js';
import { persona } from './test-support/persona-family.js';

/**
 * A family is one module (docs/architecture.md#adding-a-ladder-family): the toy Persona family of
 * test-support/ is registered here and built like the paper's seven, from its module alone, on
 * every answer type, by the rules and by a generator model.
 */

const dir = scratchDir('waver-family-registry-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STEM =
  'An astronomer observes that a planet rotates faster after a meteorite impact. Which is the most likely effect of this increase in rotation?';
const OPTIONS = [
  { letter: 'A', text: 'Planetary density will decrease.' },
  { letter: 'B', text: 'Planetary years will become longer.' },
  { letter: 'C', text: 'Planetary days will become shorter.' },
  { letter: 'D', text: 'Planetary gravity will become stronger.' },
];
const ARC: ChoiceSeed = {
  id: 'arc-challenge-0',
  answerType: 'choice',
  question: choiceQuestion(STEM, OPTIONS),
  stem: STEM,
  options: OPTIONS,
  gold: 'C',
  source: 'arc-challenge:0',
};
const TRIVIA: TextSeed = {
  id: 'trivia-1',
  answerType: 'text',
  question: 'Brunswick, Lancastrian and Pearl Pickler are types of which vegetable?',
  gold: 'Onion',
  aliases: ['Allium cepa'],
  source: 'triviaqa:1',
};
const SEEDS = [...GRADE_SCHOOL_SEEDS.slice(0, 6), ARC, TRIVIA];

const unregister = registerLadderFamily(persona);
afterAll(unregister);

describe('a family registered from outside the folder of the seven', () => {
  it('is listed after the built-in families, and found by its code', () => {
    expect(ladderFamilies().map((f) => f.code)).toEqual([...builtInFamilyCodes(), 'PS']);
    expect(ladderFamily('PS')).toBe(persona);
  });

  it('builds: its rules on every answer type, through the shared gates, binned by its own bands', async () => {
    const build = await buildLadderSuite({
      seeds: SEEDS,
      config: testConfig(dir),
      generator: 'rules',
      seed: 5,
      families: ['PS', 'SV'],
    });
    // The registry's order, whatever order the families were asked in.
    expect(build.admission.map((r) => r.family)).toEqual(['SV', 'PS']);
    const tests = build.tests.filter((t) => t.family === 'PS');
    for (const seed of SEEDS)
      expect(
        tests.some((t) => t.seedId === seed.id),
        seed.id,
      ).toBe(true);
    for (const t of tests) {
      const seed = SEEDS.find((s) => s.id === t.seedId);
      expect(t.text.endsWith(t.original)).toBe(true);
      expect(t.gold).toBe(seed?.gold);
      expect(t.severity).toEqual(measureSeverity(persona, t.original, t.text));
      expect(t.measuredLevel).toBe(t.severity?.level);
      expect(t.generator).toMatchObject({ kind: 'rules', name: expect.stringMatching(/^PS\/personas-\d+$/) });
      const gates = Object.fromEntries(t.gates.map((g) => [g.gate, g]));
      expect(gates.structural?.verdict).toBe('pass');
      expect(gates.family?.reason).toMatch(/^PS: /);
      expect(gates.level?.verdict).toBe('pass');
      // Its one model gate, recorded as not run without a judge.
      expect(gates.nli?.verdict).toBe('not-run');
      if (seed?.answerType === 'choice') {
        expect(gates.answer?.verdict).toBe('pass');
        expect(t.options).toEqual(OPTIONS);
      }
      if (seed?.answerType === 'text') expect(t.aliases).toEqual(TRIVIA.aliases);
    }
    const row = build.admission[1];
    const rejected = Object.values(row?.rejectedByGate ?? {}).reduce((a, b) => a + b, 0);
    expect(row?.admitted).toBe(tests.length);
    expect(row?.candidates).toBe((row?.admitted ?? 0) + rejected + (row?.superseded ?? 0));
  });

  it('is built by default beside the seven once registered', async () => {
    const build = await buildLadderSuite({
      seeds: SEEDS.slice(0, 1),
      config: testConfig(dir),
      generator: 'rules',
      seed: 5,
      levels: [1],
    });
    expect(build.admission.map((r) => r.family)).toEqual([...builtInFamilyCodes(), 'PS']);
  });

  it('asks a generator model in its own words, and gates what comes back with its own rule', async () => {
    const seed = SEEDS[0] as (typeof SEEDS)[number];
    const job = { seed, family: 'PS', level: 1 as const, attempt: 1 };
    const request = generatorRequest(persona, job);
    expect(request.messages[0]?.content).toBe(persona.instructions.number.system);
    expect(request.messages[1]?.content).toContain('Add one short role sentence.');
    expect(request.temperature).toBe(0.2);
    const gen = new Recording(dir, 'gen.jsonl').add(
      request,
      `You are a patient maths tutor. ${seed.question}`,
    );
    const build = await buildLadderSuite({
      seeds: [seed],
      config: testConfig(dir, { generator: gen.spec }),
      generator: 'model',
      seed: 5,
      families: ['PS'],
      levels: [1],
      attempts: 1,
    });
    const t = build.tests.find((x) => x.family === 'PS');
    expect(t?.text).toBe(`You are a patient maths tutor. ${seed.question}`);
    expect(t?.gates.find((g) => g.gate === 'family')?.reason).toMatch(/^PS: /);
  });

  it('has its fill counted like any family', () => {
    const [cell] = computeFillTable(SEEDS, { families: ['PS'], levels: [1] });
    expect(cell?.family).toBe('PS');
    expect(cell?.filled).toBeGreaterThan(0);
  });

  it('is refused under a code already taken or not written in capitals', () => {
    expect(inputErrorOf(() => registerLadderFamily(persona)).message).toMatch(/'PS' is already registered/);
    expect(inputErrorOf(() => registerLadderFamily({ ...persona, code: 'ps' })).field).toBe('family');
    expect(inputErrorOf(() => ladderFamily('XX')).message).toMatch(/unknown family 'XX'.*PS/);
  });

  it('is gone once removed, the seven left as they were', () => {
    const again = registerLadderFamily({ ...persona, code: 'PT' });
    expect(ladderFamily('PT').code).toBe('PT');
    again();
    expect(inputErrorOf(() => ladderFamily('PT')).field).toBe('families');
    expect(ladderFamilies().map((f) => f.code)).toEqual([...builtInFamilyCodes(), 'PS']);
  });
});
