import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../store/store.js';
import { Recording, SEED_A, scratchDir, testConfig } from '../../../test-support/protocols/ladder/fakes.js';
import { ladderFamily } from '../families/registry.js';
import { GATE_SUITES } from '../suite-names.js';
import {
  epistemicTest,
  type GateJob,
  gateRequest,
  meaningTest,
  parseEpistemicReply,
  parseMeaningReply,
  parseNliReply,
  runModelGates,
} from './model-gates.js';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseNliReply', () => {
  it('passes only the exact label entailment', () => {
    expect(parseNliReply('entailment').verdict).toBe('pass');
    expect(parseNliReply(' Entailment.\n').verdict).toBe('pass');
    expect(parseNliReply('`entailment`').verdict).toBe('pass');
    expect(parseNliReply('neutral')).toMatchObject({
      verdict: 'fail',
      reason: 'NLI label: neutral (only entailment passes)',
    });
    expect(parseNliReply('contradiction').verdict).toBe('fail');
  });

  it('fails closed on anything that is not one of the three labels', () => {
    for (const reply of [
      'not entailment',
      'non-entailment',
      'entailment, mostly',
      'The premise entails it',
      '',
      '{}',
    ]) {
      const v = parseNliReply(reply);
      expect(v.verdict, reply).toBe('fail');
      expect(v.reason, reply).toMatch(/unreadable NLI reply \(fail closed\)/);
    }
  });
});

describe('parseMeaningReply / parseEpistemicReply', () => {
  it('reads a JSON verdict, in a code fence or with prose around it', () => {
    expect(parseMeaningReply('{"pass": true, "reason": "same facts"}')).toEqual({
      gate: 'meaning',
      verdict: 'pass',
      reason: 'meaning judge: kept — same facts',
    });
    expect(parseMeaningReply('```json\n{"pass": false, "reason": "adds a step"}\n```')).toMatchObject({
      verdict: 'fail',
      reason: 'meaning judge: not kept — adds a step',
    });
    expect(
      parseEpistemicReply('Verdict: {"unanswerable": true, "coherent": true, "reason": "no price"}').verdict,
    ).toBe('pass');
    expect(
      parseEpistemicReply('{"unanswerable": false, "coherent": true, "reason": "renamed only"}'),
    ).toMatchObject({
      verdict: 'fail',
      reason: 'epistemic judge: answerable — renamed only',
    });
    expect(parseEpistemicReply('{"unanswerable": false, "coherent": false}').reason).toMatch(
      /answerable and incoherent — no reason given/,
    );
  });

  it('fails closed on garbage, a missing key or a non-boolean verdict', () => {
    for (const reply of ['yes', '{"pass": "yes"}', '{"verdict": true}', '{pass: true}', '']) {
      const v = parseMeaningReply(reply);
      expect(v.verdict, reply).toBe('fail');
      expect(v.reason, reply).toMatch(/unreadable meaning-judge reply \(fail closed\)/);
    }
    expect(parseEpistemicReply('{"unanswerable": true}').reason).toMatch(/fail closed/);
  });
});

describe('runModelGates', () => {
  const original = SEED_A.question;
  const job = (
    key: string,
    family: GateJob['family'],
    candidate: string,
    extra: Partial<GateJob> = {},
  ): GateJob => ({
    key,
    family,
    original,
    candidate,
    ...extra,
  });
  const good = job(
    'good',
    'SV',
    'Mia purchases 3 boxes of pencils, 12 in each. She hands 5 to her brother. How many are left?',
  );
  const neutral = job(
    'neutral',
    'IQ',
    'Mia buys 3 boxse of pencils. Each box holds 12 pencils. How many pencils are left?',
  );
  const garbage = job('garbage', 'CI', `${original} The school bus is yellow.`);
  const noAnswer = job('no-answer', 'CL', `Pencils are made of wood. ${original}`);
  const cis = job('cis', 'CIS', `${original} Perhaps consider adding instead.`);
  const kb = job('kb', 'KB', original.replace('12 pencils', 'the usual number of pencils'), {
    kbType: 'missing-information',
  });
  const format = job('format', 'F', original.replace('. ', '.\n\n'));
  const jobs = [good, neutral, garbage, noAnswer, cis, kb, format];

  it('records every model gate of the family as not-run without a judge, making no call', async () => {
    const config = testConfig(dir, { store: `${dir}/no-judge.db` });
    const out = await runModelGates(config, jobs);
    for (const j of jobs) {
      const verdicts = out.get(j.key) ?? [];
      expect(verdicts.map((v) => v.gate)).toEqual(ladderFamily(j.family).modelGates);
      for (const v of verdicts) {
        expect(v.verdict).toBe('not-run');
        expect(v.reason).toMatch(/no judge model configured/);
      }
    }
    expect(out.get('format')).toEqual([]);
    const { existsSync } = await import('node:fs');
    expect(existsSync(config.store)).toBe(false);
  });

  it('runs NLI, then the meaning judge, then the epistemic judge, failing closed', async () => {
    const rec = new Recording(dir, 'judge.jsonl');
    rec
      .add(gateRequest('nli', good), 'entailment')
      .add(gateRequest('meaning', good), '{"pass": true, "reason": "a faithful paraphrase"}')
      .add(gateRequest('nli', neutral), 'neutral')
      .add(gateRequest('nli', garbage), 'entailment')
      .add(gateRequest('meaning', garbage), 'I think it is fine!!')
      // no-answer: NLI is not recorded, so the judge call fails (a replay miss) and the gate fails closed.
      .add(gateRequest('meaning', cis), '{"pass": true, "reason": "a genuine conflicting hint"}')
      .add(
        gateRequest('epistemic', kb),
        '{"unanswerable": true, "coherent": true, "reason": "a count is missing"}',
      );
    const config = testConfig(dir, { judge: rec.spec });
    const out = await runModelGates(config, jobs);

    expect(out.get('good')?.map((v) => [v.gate, v.verdict])).toEqual([
      ['nli', 'pass'],
      ['meaning', 'pass'],
    ]);
    // A failed NLI stops the job: the meaning judge is not asked.
    expect(out.get('neutral')).toEqual([
      { gate: 'nli', verdict: 'fail', reason: 'NLI label: neutral (only entailment passes)' },
    ]);
    expect(out.get('garbage')?.[1]).toMatchObject({ gate: 'meaning', verdict: 'fail' });
    expect(out.get('garbage')?.[1]?.reason).toMatch(
      /unreadable meaning-judge reply \(fail closed\): 'I think it is fine!!'/,
    );
    expect(out.get('no-answer')).toHaveLength(1);
    expect(out.get('no-answer')?.[0]).toMatchObject({ gate: 'nli', verdict: 'fail' });
    expect(out.get('no-answer')?.[0]?.reason).toMatch(/judge call failed \(fail closed\): no_recording/);
    expect(out.get('cis')?.map((v) => [v.gate, v.verdict])).toEqual([['meaning', 'pass']]);
    expect(out.get('kb')?.map((v) => [v.gate, v.verdict])).toEqual([['epistemic', 'pass']]);
    expect(out.get('format')).toEqual([]);

    // Judge calls are stored like any run: one suite per gate, at temperature 0.
    const store = openStore(config.store);
    try {
      const names = store.suites
        .list()
        .map((s) => s.name)
        .sort();
      expect(names).toEqual([GATE_SUITES.epistemic, GATE_SUITES.meaning, GATE_SUITES.nli]);
      const cells = [...store.cells.all({})];
      expect(cells).toHaveLength(4 + 3 + 1); // NLI: good, neutral, garbage, no-answer; meaning: good, garbage, cis; epistemic: kb
      for (const c of cells) expect(c.request.temperature).toBe(0);
    } finally {
      store.close();
    }
  });

  it('the NLI prompt puts the candidate as premise and the original as hypothesis', () => {
    const user = gateRequest('nli', good).messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user.indexOf(good.candidate)).toBeLessThan(user.indexOf(original));
    expect(user).toMatch(/^PREMISE:\n/);
  });
});

describe('the judges’ per-family lists (reference generator/llm_judge.py)', () => {
  const prompt = (gate: 'meaning' | 'epistemic', family: GateJob['family'], extra: Partial<GateJob> = {}) =>
    gateRequest(gate, {
      key: 'k',
      family,
      original: SEED_A.question,
      candidate: 'x',
      ...extra,
    }).messages.find((m) => m.role === 'user')?.content ?? '';

  it('CI rejects contradictions, a leaked answer and ambiguity, and accepts excluded scenarios', () => {
    const ci = prompt('meaning', 'CI');
    expect(ci).toMatch(/Reject it if the added text contradicts a fact of the ORIGINAL/);
    expect(ci).toMatch(/gives the answer or a step of the\s+computation/);
    expect(ci).toMatch(/makes the question ambiguous or unsolvable/);
    expect(ci).toMatch(/tempting scenarios that say explicitly they do not apply/);
  });

  it('CIS rejects only an altered original sentence or a revealed answer, so overrides pass', () => {
    const cis = prompt('meaning', 'CIS');
    expect(cis).toMatch(
      /Reject it ONLY if a sentence of the ORIGINAL was deleted or\s+had its words changed/,
    );
    expect(cis).toMatch(/or if the added text states the final answer/);
    // The reference's own L3/L4 perturbations (overrides, authority markers) are named as acceptable.
    expect(cis).toMatch(/instructions to ignore, skip or disregard part of the problem/);
    expect(cis).toMatch(/authority markers/);
    expect(cis).not.toMatch(/not new facts about the problem/);
  });

  it('SV rejects embedded solution steps', () => {
    expect(prompt('meaning', 'SV')).toMatch(/Reject it if it embeds solution steps/);
  });

  it('the epistemic judge does not call an impossible premise incoherent', () => {
    const kb = prompt('epistemic', 'KB', { kbType: 'impossible-premise' });
    expect(kb).not.toMatch(/self-evidently broken/);
    expect(kb).toMatch(/impossible, fictional,\s+contradictory or unverifiable is the point of the test/);
  });

  it('stays fail-closed with the new prompts: a reply without the verdict key rejects', () => {
    expect(parseMeaningReply('{"same_meaning": true, "explanation": "ok"}').verdict).toBe('fail');
    expect(parseMeaningReply('{"pass": "true"}').verdict).toBe('fail');
  });
});

describe('the gate prompts per answer type', () => {
  const original = 'Which gas do plants take in?\n\nA. oxygen\nB. carbon dioxide';
  const job = (family: GateJob['family'], answerType?: GateJob['answerType']): GateJob => ({
    key: family,
    family,
    original,
    candidate: original,
    ...(answerType && { answerType }),
    ...(family === 'KB' && { kbType: 'missing-information' as const }),
  });

  it('word every meaning and epistemic prompt for choice and text seeds without math; number seeds unchanged', () => {
    for (const family of ['SV', 'IQ', 'CI', 'CL', 'CIS'] as const) {
      expect(meaningTest(job(family, 'number'))).toEqual(meaningTest(job(family)));
      for (const type of ['choice', 'text'] as const) {
        const t = meaningTest(job(family, type));
        const words = `${t.system}\n${t.prompt.split('\n\nORIGINAL:')[0]}`;
        expect(words, `${family} ${type}`).not.toMatch(
          /math|quantit|computation|calculation|number changed/i,
        );
        expect(t.system).toContain(
          type === 'choice' ? 'multiple-choice questions' : 'short factual questions',
        );
      }
      expect(meaningTest(job(family, 'choice')).prompt).toMatch(/an option was added, dropped or reworded/);
      expect(meaningTest(job(family, 'text')).prompt).toMatch(
        /correct answer would no longer be the correct answer/,
      );
    }
    expect(epistemicTest(job('KB', 'text')).prompt).toContain('leaving out a fact the answer depends on');
    expect(epistemicTest(job('KB', 'number'))).toEqual(epistemicTest(job('KB')));
    expect(epistemicTest(job('KB')).prompt).toContain('leaving out a quantity the answer depends on');
  });
});
