import { beforeAll, describe, expect, it } from 'vitest';
import { requestFor } from '../../run/plan.js';
import { NUMBER_REPLIES } from '../../test-support/answers/number-replies.js';
import { assertBuilt, cleanEnv, runCli } from '../../test-support/cli/cli.js';
import { Recording, scratchDir, testConfig } from '../../test-support/protocols/ladder/fakes.js';
import { ladderTest } from '../../test-support/protocols/ladder/ladder-test.js';
import { withPool } from '../define.js';
import { ladderSettings } from './config.js';
import { GRADE_SCHOOL_SEEDS } from './data/grade-school.js';
import { ladderSuiteTest, runLadder } from './run.js';
import type { Seed } from './types.js';

/**
 * How each answer was read reaches `waver export`'s `graded.via`: a ladder run whose replies are
 * the reply formats of src/test-support/answers/number-replies.ts, exported through the built CLI.
 */
beforeAll(assertBuilt);

describe('waver export: graded.via says where and how each ladder answer was read', () => {
  it('for every reply format, the careful reading and its via', async () => {
    const [A] = GRADE_SCHOOL_SEEDS as [Seed];
    const dir = scratchDir('waver-ladder-via-');
    const sut = new Recording(dir, 'sut.jsonl');
    const config = testConfig(dir, { models: [sut.spec] });
    const settings = ladderSettings(config);
    // One perturbed test per reply: its text names the row, so each request (and its reply) is its own.
    const tests = NUMBER_REPLIES.map((r, i) => ({
      r,
      t: ladderTest(A, 'SV', 1, `${A.question} (row ${i})`),
    }));
    for (const { r, t } of tests)
      sut.add(requestFor(ladderSuiteTest(t, settings, 1), config.params), r.reply);
    await withPool(config, {}, (o) =>
      runLadder(
        config,
        tests.map(({ t }) => t),
        o,
      ),
    );
    const out = await runCli(['export', '--store', config.store], { env: cleanEnv() });
    expect(out.code).toBe(0);
    const graded = new Map(
      out.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { test: { id: string }; graded?: { answer?: number; via?: string } })
        .map((x) => [x.test.id, x.graded]),
    );
    for (const { r, t } of tests) {
      const via = r.form ? `${r.where}+${r.form}` : r.where;
      expect({ reply: r.reply, ...graded.get(t.id) }).toEqual({
        reply: r.reply,
        protocol: 'ladder',
        ...(r.reading !== null && { answer: r.reading }),
        via,
        correct: r.reading === A.gold,
        score: r.reading === A.gold ? 1 : 0,
      });
    }
  });
});
