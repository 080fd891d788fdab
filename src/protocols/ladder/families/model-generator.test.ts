import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../store/store.js';
import {
  Recording,
  SEED_A,
  SEED_B,
  scratchDir,
  testConfig,
} from '../../../test-support/protocols/ladder/fakes.js';
import { GENERATOR_SUITE } from '../suite-names.js';
import { generatorTemperature, modelInstructions } from './instructions.js';
import {
  generateWithModel,
  generationKey,
  generatorRequest,
  parseGeneratorReply,
} from './model-generator.js';
import { ladderFamily } from './registry.js';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseGeneratorReply', () => {
  it('unwraps one code fence, a [QUESTION] marker and quotes around the whole text', () => {
    expect(parseGeneratorReply('```text\n[QUESTION] How many apples?\n```', ladderFamily('SV'))).toEqual({
      ok: true,
      text: 'How many apples?',
    });
    expect(parseGeneratorReply('  "How many apples?"  ', ladderFamily('SV'))).toEqual({
      ok: true,
      text: 'How many apples?',
    });
    expect(parseGeneratorReply('\u201cHow many apples?\u201d', ladderFamily('IQ'))).toEqual({
      ok: true,
      text: 'How many apples?',
    });
    expect(parseGeneratorReply('[QUESTION]: Tom has 3 "red" apples.', ladderFamily('CI'))).toEqual({
      ok: true,
      text: 'Tom has 3 "red" apples.',
    });
  });

  it('keeps inner quotes that do not wrap the whole text', () => {
    expect(parseGeneratorReply('"A" and "B" are boxes.', ladderFamily('SV'))).toEqual({
      ok: true,
      text: '"A" and "B" are boxes.',
    });
  });

  it('keeps a fence for Structural/Format, where the layout is the perturbation', () => {
    const reply = '```\nTom has 3 apples.\n```';
    expect(parseGeneratorReply(reply, ladderFamily('F'))).toEqual({ ok: true, text: reply });
  });

  it('rejects an empty reply with the reason', () => {
    for (const reply of ['', '   ', '```\n\n```', '[QUESTION]', '""']) {
      const parsed = parseGeneratorReply(reply, ladderFamily('SV'));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(/empty/);
    }
  });
});

describe('generateWithModel through a replay recording', () => {
  const sv = ladderFamily('SV');
  const jobs = [
    { seed: SEED_A, family: 'SV' as const, level: 2 as const, attempt: 1 },
    { seed: SEED_A, family: 'SV' as const, level: 2 as const, attempt: 2 },
    { seed: SEED_B, family: 'SV' as const, level: 2 as const, attempt: 1 },
    { seed: SEED_B, family: 'KB' as const, level: 3 as const, attempt: 1 },
  ];
  const rec = new Recording(dir, 'generator.jsonl');
  rec.add(
    generatorRequest(sv, jobs[0] as (typeof jobs)[0]),
    '[QUESTION] Mia purchases 3 boxes of pencils...',
  );
  rec.add(generatorRequest(sv, jobs[1] as (typeof jobs)[0]), '```\nMia got 3 boxes of pencils.\n```');
  rec.add(generatorRequest(ladderFamily('KB'), jobs[3] as (typeof jobs)[0]), '"  "');
  // jobs[2] has no recording: the replay provider refuses it, and the outcome says so.

  it('sends the family instructions at the level temperature, +0.10 on the retry', () => {
    const first = generatorRequest(sv, jobs[0] as (typeof jobs)[0]);
    const second = generatorRequest(sv, jobs[1] as (typeof jobs)[0]);
    const base = modelInstructions(sv, SEED_A, 2, 1);
    expect(first.temperature).toBe(base.temperature);
    expect(second.temperature).toBe(generatorTemperature(sv, 2, 2));
    expect(first.messages[0]).toEqual({ role: 'system', content: base.system });
    expect(first.messages[1]).toEqual({ role: 'user', content: base.user });
  });

  it('parses the answers into candidates and reports failures with their reason', async () => {
    const config = testConfig(dir, { generator: rec.spec });
    const out = await generateWithModel(config, ladderFamily, jobs);
    const a1 = out.get(generationKey(jobs[0] as (typeof jobs)[0]));
    expect(a1?.ok).toBe(true);
    if (a1?.ok) {
      expect(a1.candidate.text).toBe('Mia purchases 3 boxes of pencils...');
      expect(a1.candidate.generator).toMatchObject({ kind: 'model', attempt: 1 });
      expect(a1.candidate.generator.kind === 'model' && a1.candidate.generator.model).toMatch(
        /^replay:[0-9a-f]{16}$/,
      );
    }
    const a2 = out.get(generationKey(jobs[1] as (typeof jobs)[0]));
    expect(a2?.ok && a2.candidate.text).toBe('Mia got 3 boxes of pencils.');
    expect(a2?.ok && a2.candidate.generator.kind === 'model' && a2.candidate.generator.temperature).toBe(
      generatorTemperature(sv, 2, 2),
    );
    const b = out.get(generationKey(jobs[2] as (typeof jobs)[0]));
    expect(b?.ok).toBe(false);
    if (b && !b.ok) expect(b.reason).toMatch(/generator call failed: no_recording/);
    const kb = out.get(generationKey(jobs[3] as (typeof jobs)[0]));
    expect(kb?.ok).toBe(false);
    if (kb && !kb.ok) expect(kb.reason).toMatch(/empty/);

    // Every call went through runSuite: suites named ladder/generator, one per temperature, in the store.
    const store = openStore(config.store);
    try {
      const names = store.suites.list().map((s) => s.name);
      expect(names.length).toBeGreaterThanOrEqual(2);
      expect(new Set(names)).toEqual(new Set([GENERATOR_SUITE]));
      const cells = [...store.cells.all()].map((c) => c.status);
      expect(cells.sort()).toEqual(['done', 'done', 'done', 'failed']);
    } finally {
      store.close();
    }
  });

  it('needs a generator model', async () => {
    await expect(generateWithModel(testConfig(dir), ladderFamily, jobs)).rejects.toThrow(
      /no generator model/,
    );
  });
});

describe('Context Interference through a replay recording: append-only', () => {
  const job = { seed: SEED_A, family: 'CI' as const, level: 1 as const, attempt: 1 };
  const rec = new Recording(dir, 'generator-ci.jsonl');
  rec.add(generatorRequest(ladderFamily('CI'), job), 'The pencils were bright yellow.');

  it('keeps the original verbatim and appends the one distractor sentence the model wrote', async () => {
    const config = testConfig(dir, { generator: rec.spec, store: join(dir, 'ci.db') });
    const out = await generateWithModel(config, ladderFamily, [job]);
    const ci = out.get(generationKey(job));
    expect(ci?.ok).toBe(true);
    if (ci?.ok) {
      expect(ci.candidate.text).toBe(`${SEED_A.question}\nThe pencils were bright yellow.`);
      expect(ci.candidate.text.startsWith(SEED_A.question)).toBe(true);
    }
    // What the model was asked for is the distractor, not a rewrite.
    const sent = generatorRequest(ladderFamily('CI'), job).messages;
    expect(sent[0]?.content).toMatch(/Reply with the distractor only/);
    expect(ladderFamily('CI').familyGate(SEED_A.question, ci?.ok ? ci.candidate.text : '', 1).verdict).toBe(
      'pass',
    );
  });
});
